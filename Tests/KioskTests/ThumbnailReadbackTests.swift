// The proof thumbnail's readback behind a fence (issue 41: off the frame loop's critical path): what it collects
// against the target's own full readback made small here, rows top-down, and its one-at-a-time rule.
import Foundation
import KioskCore
@testable import KioskRender
import XCTest

final class ThumbnailReadbackTests: RenderTestCase {
    /// A 320x180 picture of four flat quadrants (red, green / blue, white, top-down) drawn 1:1 into a target.
    private func quadrants() throws -> (OffscreenTarget, GLContext) {
        let gl = try gl()
        let size = PixelSize(width: 320, height: 180)
        var pixels = [UInt8](repeating: 255, count: size.width * size.height * 4)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let colour: [UInt8] = y < 90 ? (x < 160 ? [255, 0, 0] : [0, 255, 0]) : (x < 160 ? [0, 0, 255] : [255, 255, 255])
                let i = (y * size.width + x) * 4
                pixels.replaceSubrange(i..<i + 3, with: colour)
            }
        }
        let layer = RenderLayer(texture: try Texture(context: gl, image: RGBAImage(size: size, pixels: pixels)),
                                pass: FlatPass(transform: .identity), rect: nil)
        let target = try OffscreenTarget(context: gl, size: size)
        try XCTUnwrap(renderer).draw(RenderFrame(background: .black, layers: [layer], overlays: []), into: target)
        return (target, gl)
    }

    /// Begun, then looked at without waiting until the GPU has written it (llvmpipe: at once or a few looks later):
    /// each quadrant's centre has its colour, top-down, as the full readback says.
    func testACollectedThumbnailIsTheTargetMadeSmallTopDown() throws {
        let (target, gl) = try quadrants()
        let reader = ThumbnailReadback(context: gl, size: PixelSize(width: 32, height: 18))
        XCTAssertNil(try reader.collect(), "nothing begun")
        try reader.begin(target)
        XCTAssertTrue(reader.isReading)
        var image: RGBAImage?
        for _ in 0..<50 where image == nil {
            image = try reader.collect()
            if image == nil { Thread.sleep(forTimeInterval: 0.01) }
        }
        let thumb = try XCTUnwrap(image, "the fence never signalled in 50 looks")
        XCTAssertFalse(reader.isReading)
        XCTAssertEqual(thumb.size, PixelSize(width: 32, height: 18))
        let full = try target.readPixels()
        for (tx, ty) in [(8, 4), (24, 4), (8, 13), (24, 13)] {
            let t = (ty * 32 + tx) * 4, f = ((ty * 10 + 5) * 320 + tx * 10 + 5) * 4
            XCTAssertEqual(Array(thumb.pixels[t..<t + 3]), Array(full.pixels[f..<f + 3]), "thumbnail pixel (\(tx), \(ty))")
        }
        XCTAssertEqual(Array(thumb.pixels[0..<3]), [255, 0, 0], "the top-left is red: rows top-down")
    }

    /// One readback at a time: a second `begin` while one is under way changes nothing; `cancel` lets it go, and the
    /// next `begin` reads the target as it is then.
    func testOneReadbackAtATime() throws {
        let (target, gl) = try quadrants()
        let reader = ThumbnailReadback(context: gl, size: PixelSize(width: 32, height: 18))
        try reader.begin(target)
        try XCTUnwrap(renderer).draw(RenderFrame(background: .black, layers: [], overlays: []), into: target)
        try reader.begin(target)  // under way: not read again from the black target
        let first = try XCTUnwrap(reader.collect(waiting: 1))
        XCTAssertEqual(Array(first.pixels[0..<3]), [255, 0, 0], "the first readback's picture, not the black one")
        try reader.begin(target)
        reader.cancel()
        XCTAssertFalse(reader.isReading)
        XCTAssertNil(try reader.collect())
        try reader.begin(target)
        let black = try XCTUnwrap(reader.collect(waiting: 1))
        XCTAssertEqual(Array(black.pixels[0..<3]), [0, 0, 0])
    }
}
