// Text drawn by the real renderer on llvmpipe against HarfBuzz's own renderer (hb-view): same glyphs, same
// positions (kerning, ligatures), compared by ink coverage after aligning the ink boxes. Also: the look's layers
// land where they should, the atlas texture is refreshed only when the atlas changes, and GL objects go back.
import Foundation
import KioskCore
@testable import KioskRender
import KioskText
import XCTest

final class TextRenderTests: RenderTestCase {
    let sample = "Waffles AVATAR fi ffl Tokyo 12:45"

    /// hb-view's picture of `text` at `size` px, white on black, no margin.
    func hbView(_ text: String, size: Int, features: String? = nil, in dir: URL) throws -> RGBAImage {
        let out = dir.appendingPathComponent("hb-\(UUID().uuidString).png")
        var args = ["--font-file", TextTestSupport.dejaVuSans, "--font-size", "\(size)", "--output-format", "png",
                    "--margin", "0", "--background", "000000", "--foreground", "ffffff", "-o", out.path]
        if let features { args.append("--features=\(features)") }
        let run = try BoundedProcess.run(TextTestSupport.hbView, args + [text], timeout: 30, combined: true)
        XCTAssertEqual(run.status, 0, String(decoding: run.stdout, as: UTF8.self))
        return try TextTestSupport.decode(out.path)
    }

    /// kiosk's picture of `text` at `size` px, white fill only, on black.
    func kiosk(_ text: String, size: Double, features: [String] = [], canvas: PixelSize) throws -> RGBAImage {
        let builder = TextBlockBuilder()
        let font = try builder.font(FontFile(path: TextTestSupport.dejaVuSans), pixelSize: size)
        let layout = try TextLayout(text, font: font, features: features)
        let drawing = try builder.build(layout, style: .plain(TextStyle.white), x: 20, y: 20)
        return try drawText([drawing], canvas: canvas)
    }

    /// The least PSNR (RGB) of kiosk's text box against hb-view's: 24.68 dB measured, less 1 dB.
    static let greyLevelFloor = 23.7

    /// Pixels of `image` neither black nor white (white text on black: the glyphs' partly covered edges).
    static func edgeGreys(_ image: RGBAImage) -> Int {
        stride(from: 0, to: image.pixels.count, by: 4).filter { (16...239).contains(image.pixels[$0]) }.count
    }

    func testGlyphsMatchHarfBuzzsOwnRenderer() throws {
        let dir = try RenderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let canvas = PixelSize(width: 900, height: 100)
        let reference = try hbView(sample, size: 48, in: dir)
        let ours = try kiosk(sample, size: 48, canvas: canvas)
        let same = TextTestSupport.alignedIoU(ours, reference)
        print("text vs hb-view: ink IoU \(same.iou), kiosk box \(same.boxA.map(\.description) ?? "-"), hb-view box \(same.boxB.map(\.description) ?? "-")")
        XCTAssertGreaterThanOrEqual(same.iou, 0.9)
        // The grey levels too, over the ink boxes (aligned, a 2 px border around them).
        let a = try XCTUnwrap(same.boxA, "kiosk drew no ink"), b = try XCTUnwrap(same.boxB, "hb-view drew no ink")
        let w = max(a.width, b.width) + 4, h = max(a.height, b.height) + 4
        let oursBox = TextTestSupport.crop(ours, PixelRect(x: a.x - 2, y: a.y - 2, width: w, height: h))
        let referenceBox = TextTestSupport.crop(reference, PixelRect(x: b.x - 2, y: b.y - 2, width: w, height: h))
        let psnr = RenderTestSupport.psnr(oursBox, referenceBox)
        let edges = Self.edgeGreys(oursBox), referenceEdges = Self.edgeGreys(referenceBox)
        print("text vs hb-view: PSNR \(psnr) dB over the text box; edge greys \(edges) against hb-view's \(referenceEdges)")
        XCTAssertGreaterThanOrEqual(psnr, Self.greyLevelFloor, "grey levels against hb-view's over the text box")
        // Antialiased as hb-view's: as many partly covered pixels (a hard-edged or blurred glyph has far fewer or more).
        let ratio = Double(edges) / Double(max(referenceEdges, 1))
        XCTAssertGreaterThan(referenceEdges, 100, "hb-view's glyphs have antialiased edges")
        XCTAssertTrue((0.75...1.25).contains(ratio), "edge greys \(edges), hb-view's \(referenceEdges)")
        // The widths of the ink agree to a pixel or two: same advances, kerning and ligatures.
        XCTAssertLessThanOrEqual(abs((same.boxA?.width ?? 0) - (same.boxB?.width ?? 0)), 2)
        // The comparison can fail: without kerning and ligatures kiosk's text no longer matches hb-view's.
        let unkerned = try kiosk(sample, size: 48, features: ["-kern", "-liga"], canvas: canvas)
        let differs = TextTestSupport.alignedIoU(unkerned, reference)
        print("text vs hb-view, kiosk without kerning and ligatures: ink IoU \(differs.iou)")
        XCTAssertLessThan(differs.iou, 0.8)
    }

    func testOutlineAndShadowSurroundTheFill() throws {
        let builder = TextBlockBuilder()
        let font = try builder.font(FontFile(path: TextTestSupport.dejaVuSans), pixelSize: 64)
        let grey = RGBColor(red: 0.5, green: 0.5, blue: 0.5)
        let style = TextStyle(color: TextStyle.white, outlineWidth: 4, outlineColor: .black,
                              shadow: TextShadow(offset: 6, softness: 2, opacity: 1, color: RGBColor(red: 0, green: 0, blue: 1)))
        let drawing = try builder.build(try TextLayout("I", font: font), style: style, x: 40, y: 10)
        let canvas = PixelSize(width: 120, height: 100)
        let out = try drawText([drawing], canvas: canvas, background: grey)
        let ink = try XCTUnwrap(drawing.quads.first?.destination)
        let midY = ink.y + ink.height / 2
        // The stem's middle is white; 2 px left of the stem is the black outline; 3 px right of the outline's right edge
        // (offset 6) is the blue shadow; far away is the grey background.
        XCTAssertEqual(RenderTestSupport.pixel(out, ink.x + ink.width / 2, midY), [255, 255, 255, 255])
        XCTAssertEqual(RenderTestSupport.pixel(out, ink.x - 2, midY)[0..<3], [0, 0, 0])
        let shadow = RenderTestSupport.pixel(out, ink.maxX + 4 + 3, midY)
        XCTAssertGreaterThan(Int(shadow[2]), Int(shadow[0]) + 60, "shadow \(shadow)")
        XCTAssertEqual(RenderTestSupport.pixel(out, 5, 5)[0..<3], [128, 128, 128])
    }

    func testBackgroundBoxIsDrawnBehindTheText() throws {
        let builder = TextBlockBuilder()
        let font = try builder.font(FontFile(path: TextTestSupport.dejaVuSans), pixelSize: 32)
        let style = TextStyle(outlineWidth: 0, shadow: nil,
                              background: TextBackground(color: RGBColor(red: 1, green: 0, blue: 0), opacity: 1, padding: 8))
        let drawing = try builder.build("Box", font: font, style: style,
                                        placement: TextPlacement(anchor: .topLeft, margin: 10), canvas: PixelSize(width: 200, height: 100))
        XCTAssertEqual(drawing.box.x, 10)
        XCTAssertEqual(drawing.box.y, 10)
        let out = try drawText([drawing], canvas: PixelSize(width: 200, height: 100))
        XCTAssertEqual(RenderTestSupport.pixel(out, 11, 11), [255, 0, 0, 255])
        XCTAssertEqual(RenderTestSupport.pixel(out, drawing.box.maxX - 1, drawing.box.maxY - 1), [255, 0, 0, 255])
        XCTAssertEqual(RenderTestSupport.pixel(out, drawing.box.maxX + 1, drawing.box.maxY + 1), [0, 0, 0, 255])
        XCTAssertEqual(RenderTestSupport.pixel(out, 9, 9), [0, 0, 0, 255])
    }

    func testAtlasTextureIsUploadedOnlyWhenTheAtlasChanges() throws {
        let builder = TextBlockBuilder()
        let font = try builder.font(FontFile(path: TextTestSupport.dejaVuSans), pixelSize: 40)
        let canvas = PixelSize(width: 400, height: 120)
        let renderer = try XCTUnwrap(self.renderer)
        let first = try builder.build("Harbour", font: font, canvas: canvas)
        let a = try drawText([first], canvas: canvas)
        let afterFirst = renderer.text.uploadedAtlasRows
        XCTAssertGreaterThan(afterFirst, 0)
        // The same text again: the atlas did not change, nothing is uploaded, the picture is the same.
        let again = try builder.build("Harbour", font: font, canvas: canvas)
        XCTAssertEqual(again.atlas.generation, first.atlas.generation)
        XCTAssertEqual(try drawText([again], canvas: canvas), a)
        XCTAssertEqual(renderer.text.uploadedAtlasRows, afterFirst)
        // New glyphs: only the rows they were written to are uploaded, not the whole atlas.
        let more = try builder.build("Harbour at dawn", font: font, canvas: canvas)
        XCTAssertGreaterThan(more.atlas.generation, first.atlas.generation)
        _ = try drawText([more], canvas: canvas)
        let added = renderer.text.uploadedAtlasRows - afterFirst
        XCTAssertGreaterThan(added, 0)
        XCTAssertLessThan(added, 100, "only the changed rows of a \(more.atlas.size) atlas")
    }

    func testTextFromAFullAtlasDrawsTheSameAsFromAnEmptyOne() throws {
        let canvas = PixelSize(width: 500, height: 80)
        let file = FontFile(path: TextTestSupport.dejaVuSans)
        let small = TextBlockBuilder(atlas: GlyphAtlas(size: PixelSize(width: 64, height: 64), maximumSize: PixelSize(width: 128, height: 128)))
        let smallFont = try small.font(file, pixelSize: 28)
        // Fill it past its largest size, drawing each time, so the atlas grows and resets under the texture's feet.
        for text in ["ABCDEFGHIJKLM", "NOPQRSTUVWXYZ", "abcdefghijklm", "nopqrstuvwxyz", "0123456789!?&"] {
            _ = try drawText([try small.build(text, font: smallFont, canvas: canvas)], canvas: canvas)
        }
        XCTAssertGreaterThan(small.atlas.resets, 0)
        let fresh = TextBlockBuilder()
        let freshFont = try fresh.font(file, pixelSize: 28)
        for text in ["Harbour at dawn", "QUAY 7 & 12:45"] {
            let a = try drawText([try small.build(text, font: smallFont, canvas: canvas)], canvas: canvas)
            let b = try drawText([try fresh.build(text, font: freshFont, canvas: canvas)], canvas: canvas)
            XCTAssertEqual(a, b, text)
        }
    }

    func testTextGivesItsGLObjectsBack() throws {
        let before = GLObjectCount.now
        do {
            let gl = try gl()
            let renderer = try Renderer(context: gl)
            let builder = TextBlockBuilder()
            let font = try builder.font(FontFile(path: TextTestSupport.dejaVuSans), pixelSize: 30)
            let target = try OffscreenTarget(context: gl, size: PixelSize(width: 300, height: 80))
            for text in ["one", "two two", "three three three"] {
                let drawing = try builder.build(text, font: font, canvas: target.size)
                try renderer.draw(RenderFrame(background: .black, layers: [], overlays: [RenderOverlay(text: drawing)]), into: target)
            }
            XCTAssertGreaterThan(GLObjectCount.now.textures, before.textures + 2, "atlas, coverage and target textures")
        }
        let after = GLObjectCount.now
        XCTAssertEqual(after.textures, before.textures)
        XCTAssertEqual(after.framebuffers, before.framebuffers)
        XCTAssertEqual(after.programs, before.programs)
    }
}
