// Fit modes, compositing and crossfade on real shaders (llvmpipe), checked pixel by pixel.
import KioskCore
@testable import KioskRender
import XCTest

final class RenderFitTests: RenderTestCase {
    private let blue = RGBColor(red: 0, green: 0, blue: 1)

    func testFillAtIdenticalSizeIsAnExactCopy() throws {
        let picture = RenderTestSupport.noisePicture(size: PixelSize(width: 67, height: 45))
        let out = try render(picture, fit: .fill, canvas: picture.size)
        XCTAssertEqual(out, picture)
    }

    func testContainLetterboxesOnTheBackground() throws {
        let picture = RGBAImage(size: PixelSize(width: 64, height: 32), fill: (200, 30, 10, 255))
        let out = try render(picture, fit: .contain, canvas: PixelSize(width: 64, height: 64),
                             background: RGBColor(hex: "#204060") ?? .black)
        for y in 0..<64 {
            for x in stride(from: 0, to: 64, by: 7) {
                let expected: [UInt8] = (16..<48).contains(y) ? [200, 30, 10, 255] : [0x20, 0x40, 0x60, 255]
                XCTAssertEqual(RenderTestSupport.pixel(out, x, y), expected, "(\(x), \(y))")
            }
        }
    }

    func testCoverCropsToTheMiddle() throws {
        // Four vertical bands of 16 px: cover on a square shows only the middle two.
        let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 0, 255]]
        var pixels: [UInt8] = []
        for _ in 0..<32 { for x in 0..<64 { pixels += colours[x / 16] } }
        let picture = RGBAImage(size: PixelSize(width: 64, height: 32), pixels: pixels)
        let out = try render(picture, fit: .cover, canvas: PixelSize(width: 32, height: 32))
        for y in [0, 16, 31] {
            XCTAssertEqual(RenderTestSupport.pixel(out, 0, y), colours[1])
            XCTAssertEqual(RenderTestSupport.pixel(out, 14, y), colours[1])
            XCTAssertEqual(RenderTestSupport.pixel(out, 17, y), colours[2])
            XCTAssertEqual(RenderTestSupport.pixel(out, 31, y), colours[2])
        }
    }

    func testHalfTransparentPictureIsCompositedOverTheBackground() throws {
        let picture = RGBAImage(size: PixelSize(width: 8, height: 8), fill: (255, 0, 0, 128))
        let opaque = try render([(picture, FlatPass(transform: .identity), 1)], screen: picture.size, background: blue)
        assertClose(RenderTestSupport.pixel(opaque, 3, 3), [128, 0, 127, 255])
        let faded = try render([(picture, FlatPass(transform: .identity), 0.5)], screen: picture.size, background: blue)
        assertClose(RenderTestSupport.pixel(faded, 3, 3), [64, 0, 191, 255])
    }

    func testFilteringDoesNotBleedTheColourOfTransparentPixels() throws {
        // Opaque red next to fully transparent green: between them there must be red over background, no green.
        let picture = RGBAImage(size: PixelSize(width: 2, height: 1), pixels: [255, 0, 0, 255, 0, 255, 0, 0])
        let out = try render([(picture, FlatPass(transform: .identity), 1)], screen: PixelSize(width: 8, height: 1))
        for x in 0..<8 { XCTAssertEqual(RenderTestSupport.pixel(out, x, 0)[1], 0, "x = \(x)") }
        XCTAssertEqual(RenderTestSupport.pixel(out, 0, 0), [255, 0, 0, 255])
        XCTAssertEqual(RenderTestSupport.pixel(out, 7, 0), [0, 0, 0, 255])
    }

    func testCrossfadeAtHalfGivesTheMidValueEverywhereBarsIncluded() throws {
        let canvas = PixelSize(width: 64, height: 64)
        let wide = RGBAImage(size: PixelSize(width: 64, height: 32), fill: (0, 0, 0, 255))
        let tall = RGBAImage(size: PixelSize(width: 32, height: 64), fill: (255, 255, 255, 255))
        let a = FlatPass(transform: FlatView(fit: .contain).transform(picture: wide.size, canvas: canvas))
        let b = FlatPass(transform: FlatView(fit: .contain).transform(picture: tall.size, canvas: canvas))
        let bg = RGBColor(red: 0.2, green: 0.4, blue: 0.6)
        let out = try render([(wide, a, 1), (tall, b, 0.5)], screen: canvas, background: bg)
        let bgBytes: [UInt8] = [51, 102, 153]
        func mid(_ p: UInt8, _ q: UInt8) -> UInt8 { UInt8((Int(p) + Int(q) + 1) / 2) }
        // corner: both layers show background there
        assertClose(RenderTestSupport.pixel(out, 2, 2), bgBytes + [255])
        // centre: black picture and white picture
        assertClose(RenderTestSupport.pixel(out, 32, 32), [128, 128, 128, 255])
        // left middle: black picture under, background bar of the tall layer above
        assertClose(RenderTestSupport.pixel(out, 2, 32), bgBytes.map { mid(0, $0) } + [255])
        // top middle: background bar of the wide layer under, white picture above
        assertClose(RenderTestSupport.pixel(out, 32, 2), bgBytes.map { mid($0, 255) } + [255])
    }

    /// Asserts two RGBA values agree within 1 per channel.
    private func assertClose(_ a: [UInt8], _ b: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, file: file, line: line)
        for (p, q) in zip(a, b) where abs(Int(p) - Int(q)) > 1 {
            XCTFail("\(a) != \(b)", file: file, line: line)
            return
        }
    }
}
