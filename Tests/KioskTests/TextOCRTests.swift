// A caption in the default look (white, dark outline, soft shadow) drawn by the real renderer over a busy photo
// (a forest stream: bright water, dark leaves) is read back exactly by tesseract, at five sizes and places; the
// same check reads nothing when the text cannot be seen (plain white on white), so it can fail.
// Tesseract cannot read outlined text off a busy photo as it is (it reads junk from the photo around and between
// the words, and hollow letters where the photo is light), so the picture is keyed on the fill first, as subtitle
// OCR does.
import Foundation
import KioskCore
import KioskMedia
@testable import KioskRender
import KioskText
import XCTest

final class TextOCRTests: RenderTestCase {
    let caption = "Harbour at dawn 2026"
    let canvas = PixelSize(width: 960, height: 540)
    /// A busy photo from the desktop-base / wallpaper packages.
    let photo = "/usr/share/backgrounds/life_by_Aitzol_Berasategi.jpg"

    /// The photo decoded by kiosk's decoder at about canvas size.
    func picture() throws -> RGBAImage {
        let item = try FFmpegImageDecoder.decode(path: photo, targetSize: { [canvas] stored in
            let scale = max(Double(canvas.width) / Double(stored.width), Double(canvas.height) / Double(stored.height))
            return PixelSize(width: Int((Double(stored.width) * scale).rounded()), height: Int((Double(stored.height) * scale).rounded()))
        })
        guard case .still(let image) = item.picture else { throw MediaError(path: photo, reason: "not a still") }
        return image
    }

    /// `texts` over `picture` covering the canvas, through the renderer.
    func render(_ texts: [TextDrawing], over picture: RGBAImage) throws -> RGBAImage {
        let gl = try gl()
        let pass = FlatPass(transform: FlatView(fit: .cover).transform(picture: picture.size, canvas: canvas))
        let layer = RenderLayer(texture: try Texture(context: gl, image: picture), pass: pass)
        let target = try OffscreenTarget(context: gl, size: canvas)
        try XCTUnwrap(renderer).draw(RenderFrame(background: .black, layers: [layer], overlays: texts.map { RenderOverlay(text: $0) }),
                                     into: target)
        return try target.readPixels()
    }

    /// What tesseract reads, as one line, of the text whose ink is `rect` in `image`, keyed on the text's white fill
    /// the way subtitle OCR does (near-white pixels become black ink on white paper), cropped to the ink grown by
    /// 2 px and set on a white margin.
    func ocr(_ image: RGBAImage, _ rect: PixelRect, name: String, in dir: URL) throws -> String {
        let png = dir.appendingPathComponent("\(name).png").path
        let text = TextTestSupport.keyed(TextTestSupport.crop(image, rect.insetBy(-2)), minimum: 250)
        let page = TextTestSupport.crop(text, PixelRect(x: -12, y: -12, width: text.size.width + 24, height: text.size.height + 24), fill: 255)
        try PNGWriter.write(page, to: png)
        let run = try BoundedProcess.run(TextTestSupport.tesseract, [png, "-", "--psm", "7", "-l", "eng"],
                                         environment: ["OMP_THREAD_LIMIT": "1"], timeout: 60)
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        return String(decoding: run.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Where to keep the pictures OCR looked at ($KIOSK_TEXT_OCR_DIR to keep them; else a temporary folder).
    func folder() throws -> URL {
        if let kept = ProcessInfo.processInfo.environment["KIOSK_TEXT_OCR_DIR"] {
            let url = URL(fileURLWithPath: kept)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }
        return try RenderTestSupport.temporaryDirectory()
    }

    /// The caption's sizes and places on the canvas.
    var cases: [(size: Double, anchor: TextAnchor)] {
        [
            (TextSize.pixels(fractionOfHeight: 0.05, canvasHeight: canvas.height), .bottom),  // 27 px
            (36, .topLeft),
            (48, .topRight),
            (64, .center),
            (30, .bottomLeft),
        ]
    }

    /// What tesseract reads of the caption drawn in `style` over the photo, for each case.
    func readings(_ style: TextStyle, name: String) throws -> [String] {
        let dir = try folder()
        defer { if ProcessInfo.processInfo.environment["KIOSK_TEXT_OCR_DIR"] == nil { try? FileManager.default.removeItem(at: dir) } }
        let picture = try picture()
        let builder = TextBlockBuilder()
        let file = try FontLocator.locate()
        return try cases.map { size, anchor in
            let font = try builder.font(file, pixelSize: size)
            let drawing = try builder.build(caption, font: font, style: style,
                                            placement: TextPlacement(anchor: anchor, margin: 16, overscan: 2.5), canvas: canvas)
            let read = try ocr(try render([drawing], over: picture), drawing.inkBounds, name: "\(name)-\(Int(size))-\(anchor)", in: dir)
            print("OCR \(name) \(Int(size)) px \(anchor): '\(read)'")
            return read
        }
    }

    func testCaptionOverABusyPhotoIsReadBackExactly() throws {
        let read = try readings(.standard, name: "caption")
        for (r, c) in zip(read, cases) {
            XCTAssertEqual(r, caption, "\(Int(c.size)) px at \(c.anchor)")
        }
    }

    func testTextThatCannotBeSeenIsNotReadBack() throws {
        // Plain white on a white area: the same pipeline must not find the caption.
        let dir = try folder()
        defer { if ProcessInfo.processInfo.environment["KIOSK_TEXT_OCR_DIR"] == nil { try? FileManager.default.removeItem(at: dir) } }
        let white = RGBAImage(size: canvas, pixels: [UInt8](repeating: 255, count: canvas.width * canvas.height * 4))
        let builder = TextBlockBuilder()
        let font = try builder.font(try FontLocator.locate(), pixelSize: 48)
        let plain = try builder.build(caption, font: font, style: .plain(TextStyle.white), placement: TextPlacement(anchor: .center),
                                      canvas: canvas)
        let read = try ocr(try render([plain], over: white), plain.inkBounds, name: "plain-on-white", in: dir)
        print("OCR plain white on white: '\(read)'")
        XCTAssertNotEqual(read, caption)
    }
}
