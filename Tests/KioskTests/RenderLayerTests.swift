// Layers against CPU references computed here: overlays (a solid rectangle, a textured quad with alpha) blended
// premultiplied-over a real picture inside their rects, z-order, and picture layers drawn into a sub-rectangle.
import Foundation
import KioskCore
@testable import KioskRender
import XCTest

final class RenderLayerTests: RenderTestCase {
    let canvas = PixelSize(width: 160, height: 90)

    /// Draws `picture` (canvas-sized, shown 1:1) with `overlays` on top and reads it back.
    func draw(_ picture: RGBAImage, overlays: [RenderOverlay], layerRect: CanvasRect? = nil,
              background: RGBColor = .black) throws -> RGBAImage {
        let gl = try gl()
        let texture = try Texture(context: gl, image: picture)
        let layer = RenderLayer(texture: texture, pass: FlatPass(transform: .identity), rect: layerRect)
        let target = try OffscreenTarget(context: gl, size: canvas)
        try XCTUnwrap(renderer).draw(RenderFrame(background: background, layers: [layer], overlays: overlays), into: target)
        return try target.readPixels()
    }

    /// `below` with premultiplied `colour(x, y)` (0...1 each, alpha last) blended over it inside `rect`.
    func blend(_ below: RGBAImage, rect: CanvasRect, colour: (Int, Int) -> [Double]) -> [Double] {
        var out = below.pixels.map(Double.init)
        for y in rect.y..<rect.y + rect.height {
            for x in rect.x..<rect.x + rect.width {
                let c = colour(x - rect.x, y - rect.y)
                let i = (y * below.size.width + x) * 4
                for k in 0..<3 { out[i + k] = c[k] * 255 + out[i + k] * (1 - c[3]) }
            }
        }
        return out
    }

    /// The largest difference over the RGB channels, in 1/255 steps.
    func maxDifference(_ image: RGBAImage, _ reference: [Double]) -> Double {
        var worst = 0.0
        for i in 0..<image.pixels.count where i % 4 != 3 {
            worst = max(worst, abs(Double(image.pixels[i]) - reference[i]))
        }
        return worst
    }

    func picture() throws -> RGBAImage {
        let dir = try RenderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        return try RenderTestSupport.smoothPicture(size: canvas, in: dir)
    }

    func testHalfTransparentRectangleOverAPictureMatchesTheCPUBlend() throws {
        let picture = try picture()
        let rect = CanvasRect(x: 23, y: 11, width: 70, height: 41)
        let colour = PremultipliedColor(RGBColor(red: 0.2, green: 0.6, blue: 0.9), alpha: 0.5)
        let out = try draw(picture, overlays: [RenderOverlay(.solid(colour), rect: rect)])
        let reference = blend(picture, rect: rect) { _, _ in [colour.red, colour.green, colour.blue, colour.alpha] }
        let worst = maxDifference(out, reference)
        XCTAssertLessThanOrEqual(worst, 2, "max difference \(worst)/255")
        // The rectangle is where it should be: the picture shows unchanged outside it.
        XCTAssertEqual(RenderTestSupport.pixel(out, 22, 30), RenderTestSupport.pixel(picture, 22, 30))
        XCTAssertEqual(RenderTestSupport.pixel(out, 50, 52), RenderTestSupport.pixel(picture, 50, 52))
        XCTAssertNotEqual(RenderTestSupport.pixel(out, 23, 11), RenderTestSupport.pixel(picture, 23, 11))
        XCTAssertNotEqual(RenderTestSupport.pixel(out, 92, 51), RenderTestSupport.pixel(picture, 92, 51))
        print("solid overlay: max difference \(worst)/255")
    }

    func testTexturedQuadWithAlphaMatchesTheCPUBlend() throws {
        let picture = try picture()
        // An RGBA picture (straight alpha, as decoded; `Texture` stores it premultiplied) whose alpha runs 0 -> 1
        // across and whose colour varies down.
        let size = PixelSize(width: 64, height: 32)
        var pixels: [UInt8] = []
        for y in 0..<size.height {
            for x in 0..<size.width {
                pixels += [255, UInt8(y * 255 / (size.height - 1)), 77, UInt8(x * 255 / (size.width - 1))]
            }
        }
        let quad = RGBAImage(size: size, pixels: pixels)
        let rect = CanvasRect(x: 80, y: 40, width: size.width, height: size.height)
        let out = try draw(picture, overlays: [RenderOverlay(.texture(try Texture(context: gl(), image: quad)), rect: rect)])
        let reference = blend(picture, rect: rect) { x, y in
            let i = (y * size.width + x) * 4
            let a = Double(quad.pixels[i + 3]) / 255
            return (0..<3).map { Double(quad.pixels[i + $0]) / 255 * a } + [a]
        }
        let worst = maxDifference(out, reference)
        XCTAssertLessThanOrEqual(worst, 2, "max difference \(worst)/255")
        print("textured overlay: max difference \(worst)/255")
    }

    func testOverlaysDrawInZOrderAndPicturesBelowByDefault() throws {
        let picture = try picture()
        let red = PremultipliedColor(RGBColor(red: 1, green: 0, blue: 0), alpha: 0.6)
        let blue = PremultipliedColor(RGBColor(red: 0, green: 0, blue: 1), alpha: 0.6)
        let a = CanvasRect(x: 10, y: 10, width: 60, height: 40), b = CanvasRect(x: 40, y: 30, width: 60, height: 40)
        // Red is listed first but has the higher z: it must end on top where they overlap.
        let out = try draw(picture, overlays: [RenderOverlay(.solid(red), rect: a, z: 3), RenderOverlay(.solid(blue), rect: b, z: 2)])
        let c = { (p: PremultipliedColor) in { (_: Int, _: Int) in [p.red, p.green, p.blue, p.alpha] } }
        let right = blend(RGBAImage(size: canvas, pixels: blend(picture, rect: b, colour: c(blue)).map { UInt8($0.rounded()) }),
                          rect: a, colour: c(red))
        let wrong = blend(RGBAImage(size: canvas, pixels: blend(picture, rect: a, colour: c(red)).map { UInt8($0.rounded()) }),
                          rect: b, colour: c(blue))
        XCTAssertLessThanOrEqual(maxDifference(out, right), 2)
        XCTAssertGreaterThan(maxDifference(out, wrong), 40, "the wrong order must be told apart")
        // An overlay with z below the picture layer is hidden by the (opaque) picture.
        let hidden = try draw(picture, overlays: [RenderOverlay(.solid(red), rect: a, z: -1)])
        XCTAssertEqual(hidden, picture)
    }

    func testPictureLayerDrawsIntoItsRectAsItsCanvas() throws {
        let picture = try picture()
        let rect = CanvasRect(x: 40, y: 20, width: 80, height: 45)
        let background = RGBColor(red: 0, green: 0.5, blue: 0)
        let out = try draw(picture, overlays: [], layerRect: rect, background: background)
        // Inside: the whole picture at half size (linear filtering at a 2:1 step averages each 2x2 block);
        // outside: the background.
        var reference = out.pixels.map(Double.init)
        for y in 0..<rect.height {
            for x in 0..<rect.width {
                for k in 0..<3 {
                    let block = [(0, 0), (1, 0), (0, 1), (1, 1)].map { RenderTestSupport.pixel(picture, 2 * x + $0.0, 2 * y + $0.1)[k] }
                    reference[((rect.y + y) * canvas.width + rect.x + x) * 4 + k] = Double(block.map(Int.init).reduce(0, +)) / 4
                }
            }
        }
        XCTAssertLessThanOrEqual(maxDifference(out, reference), 2)
        let green = RenderTestSupport.pixel(out, 0, 0)
        XCTAssertEqual(Double(green[1]), 127.5, accuracy: 1)
        for (x, y) in [(39, 30), (60, 65), (120, 30), (60, 19)] {
            XCTAssertEqual(RenderTestSupport.pixel(out, x, y), green, "(\(x), \(y)) is outside the rect")
        }
        XCTAssertNotEqual(RenderTestSupport.pixel(out, 40, 20), green)
    }
}
