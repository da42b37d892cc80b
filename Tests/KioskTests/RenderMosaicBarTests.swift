// The mosaic's split bar, drawn by the real shaders and read back: where it sits (round(split·W), 2 px), its
// colour, that `:bar=0` leaves exactly the mosaic without a bar, that it stays on the split under rotation, and
// the one-line errors for bad options.
import KioskCore
@testable import KioskRender
import XCTest

final class RenderMosaicBarTests: RenderTestCase {
    /// A picture with no red in it (red 0; green across, blue down), so any red column is the bar's.
    static func noRedPicture(_ size: PixelSize) -> RGBAImage {
        var px = [UInt8](repeating: 255, count: size.width * size.height * 4)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let k = (y * size.width + x) * 4
                px[k] = 0
                px[k + 1] = UInt8(40 + x * 200 / max(1, size.width - 1))
                px[k + 2] = UInt8(30 + y * 200 / max(1, size.height - 1))
            }
        }
        return RGBAImage(size: size, pixels: px)
    }

    /// The columns of `image` whose every pixel is `rgb`.
    static func columns(_ image: RGBAImage, _ rgb: [UInt8]) -> [Int] {
        (0..<image.size.width).filter { x in
            (0..<image.size.height).allSatisfy { y in Array(RenderTestSupport.pixel(image, x, y).prefix(3)) == rgb }
        }
    }

    /// The mosaic `--effect` names.
    static func mosaic(_ text: String) throws -> MosaicEffect {
        let effect = try PassRegistry.effect(PieceSpec.split(text, flag: "--effect"))
        return try XCTUnwrap(effect as? MosaicEffect)
    }

    func testTheBarSitsOnTheSplitTwoPixelsWideInRed() throws {
        let size = PixelSize(width: 100, height: 40)
        let picture = Self.noRedPicture(size)
        XCTAssertEqual(Self.columns(picture, [255, 0, 0]), [])
        for split in [0.3, 0.7, 0.333, 0.555] {
            let out = try render(picture, effect: try Self.mosaic("mosaic:tile=8:split=\(split)"))
            let edge = Int((split * Double(size.width)).rounded())
            let red = Self.columns(out, [255, 0, 0])
            XCTAssertEqual(red, [edge - 1, edge], "split \(split): the bar is 2 px about round(split·W) = \(edge)")
            // Everything else is the mosaic without a bar, pixel for pixel.
            let plain = try render(picture, effect: try Self.mosaic("mosaic:tile=8:split=\(split):bar=0"))
            XCTAssertEqual(Self.columns(plain, [255, 0, 0]), [], "bar=0 draws no bar")
            XCTAssertEqual(try differingColumns(out, plain), red, "split \(split): only the bar's columns differ")
        }
    }

    func testBarColourAndWidth() throws {
        let size = PixelSize(width: 100, height: 40)
        let picture = Self.noRedPicture(size)
        let out = try render(picture, effect: try Self.mosaic("mosaic:split=0.3:bar-color=#FFC000"))
        XCTAssertEqual(Self.columns(out, [255, 192, 0]), [29, 30])
        XCTAssertEqual(Self.columns(out, [255, 0, 0]), [])
        let wide = try render(picture, effect: try Self.mosaic("mosaic:split=0.7:bar=5"))
        XCTAssertEqual(Self.columns(wide, [255, 0, 0]), [67, 68, 69, 70, 71])
    }

    func testTheBarStaysOnTheSplitUnderRotation() throws {
        let canvas = PixelSize(width: 100, height: 40)
        let picture = Self.noRedPicture(canvas)
        let effect = try Self.mosaic("mosaic:split=0.3")
        for rotation in Rotation.allCases {
            let screen = rotation.screenSize(forCanvas: canvas)
            let out = try render(picture, effect: effect, screen: screen, rotation: rotation)
            // A screen pixel is red exactly when the canvas pixel the rotation shows there is in column 29 or 30.
            var wrong = 0, red = 0
            for sy in 0..<screen.height {
                for sx in 0..<screen.width {
                    let c = rotation.canvasPoint(fromScreen: UnitPoint(x: (Double(sx) + 0.5) / Double(screen.width),
                                                                       y: (Double(sy) + 0.5) / Double(screen.height)))
                    let column = Int((c.x * Double(canvas.width)).rounded(.down))
                    let isRed = Array(RenderTestSupport.pixel(out, sx, sy).prefix(3)) == [255, 0, 0]
                    if isRed { red += 1 }
                    if isRed != [29, 30].contains(column) { wrong += 1 }
                }
            }
            XCTAssertEqual(red, 2 * canvas.height, "\(rotation): the bar is 2 canvas columns")
            XCTAssertEqual(wrong, 0, "\(rotation): pixels where the bar is not on canvas columns 29-30")
        }
    }

    func testBadOptionsAreOneLineNamingTheOption() {
        let cases = [
            ("mosaic:split=2", "split=2 is out of range 0...1"),
            ("mosaic:bar-color=#GGG", "bar-color=#GGG is not a colour #RRGGBB"),
            ("mosaic:split=0.2..0.8:period=-1", "period=-1 is not a number of seconds above 0"),
            ("mosaic:period=5", "period=5 needs a sweep: split=A..B"),
            ("mosaic:split=0.2..1.5", "split=0.2..1.5 is out of range 0...1"),
            ("mosaic:split=0.2..0.5..0.8", "split=0.2..0.5..0.8 is not a number or a range A..B"),
            ("mosaic:bar=1.5", "bar=1.5 is not a whole number of pixels 0...64"),
            ("mosaic:bar=-2", "bar=-2 is not a whole number of pixels 0...64"),
        ]
        for (text, reason) in cases {
            XCTAssertThrowsError(try Self.mosaic(text), text) { error in
                XCTAssertEqual("\(error)", "--effect: mosaic: \(reason)")
            }
        }
        // A sweep may run right to left: it starts at the first end.
        XCTAssertEqual(try Self.mosaic("mosaic:split=0.8..0.2").settings.sweep, SplitSweep(from: 0.8, to: 0.2, period: 10))
        XCTAssertEqual(try Self.mosaic("mosaic:split=0.8..0.2").settings.split, 0.8)
    }

    // MARK: - helpers

    /// The columns where `a` and `b` differ anywhere.
    func differingColumns(_ a: RGBAImage, _ b: RGBAImage) throws -> [Int] {
        XCTAssertEqual(a.size, b.size)
        return (0..<a.size.width).filter { x in
            (0..<a.size.height).contains { y in RenderTestSupport.pixel(a, x, y) != RenderTestSupport.pixel(b, x, y) }
        }
    }

    /// Renders `image` 1:1 on a canvas of its size with `effect`, onto `screen` through `rotation`.
    func render(_ image: RGBAImage, effect: any ShaderEffect, screen: PixelSize? = nil, rotation: Rotation = .none) throws -> RGBAImage {
        let gl = try gl()
        let texture = try Texture(context: gl, image: image)
        let target = try OffscreenTarget(context: gl, size: screen ?? image.size)
        let layer = RenderLayer(texture: texture, pass: FlatPass(transform: .identity), opacity: 1, effect: effect)
        try XCTUnwrap(renderer).draw(RenderFrame(background: .black, layers: [layer]), into: target, rotation: rotation)
        return try target.readPixels()
    }
}
