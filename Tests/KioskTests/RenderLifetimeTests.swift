// GL object lifetime: 10,000 slides' worth of textures created, updated, drawn and dropped leave nothing behind.
import KioskCore
@testable import KioskRender
import XCTest

final class RenderLifetimeTests: RenderTestCase {
    func testTenThousandSlidesLeakNoTexturesAndBoundedMemory() throws {
        let gl = try gl()
        let r = try XCTUnwrap(renderer)
        let small = RenderTestSupport.noisePicture(size: PixelSize(width: 64, height: 64))
        let big = RGBAImage(size: PixelSize(width: 1920, height: 1080), fill: (10, 20, 30, 255))
        let target = try OffscreenTarget(context: gl, size: PixelSize(width: 64, height: 64))
        var names = Set<UInt32>()
        var baseline = 0
        for slide in 0..<10_000 {
            let isBig = slide % 2_000 == 1_999
            let texture = try Texture(context: gl, image: isBig ? big : small)
            try texture.update(with: isBig ? big : small)
            names.insert(texture.name)
            if slide % 100 == 0 || isBig {
                let frame = RenderFrame(background: .black,
                                        layers: [RenderLayer(texture: texture, pass: FlatPass(transform: .identity))])
                try r.draw(frame, into: target, rotation: slide % 200 == 0 ? .clockwise90 : .none)
            }
            if slide == 500 {
                gl.finish()
                baseline = try RenderTestSupport.residentBytes()
            }
        }
        gl.finish()
        let growth = try RenderTestSupport.residentBytes() - baseline
        let alive = names.filter { gl.isTexture($0) }
        XCTAssertEqual(alive.count, 0, "\(alive.count) of \(names.count) texture names still alive")
        XCTAssertLessThan(growth, 32 << 20, "RSS grew by \(growth >> 20) MiB over 10,000 slides")
    }

    func testOffscreenTargetFreesItsColourTexture() throws {
        let gl = try gl()
        var target: OffscreenTarget? = try OffscreenTarget(context: gl, size: PixelSize(width: 16, height: 16))
        let colour = try XCTUnwrap(target?.texture.name)
        XCTAssertTrue(gl.isTexture(colour))
        target = nil
        XCTAssertFalse(gl.isTexture(colour))
    }
}
