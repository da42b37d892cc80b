import Foundation
import KioskCore
import KioskMedia
import XCTest

/// Reads back what kiosk drew over its pictures: the overlays are where a frame differs from the same frame drawn
/// with `--no-overlays`, and their text is their white fill, keyed into black ink on white paper (as subtitle OCR
/// does) before tesseract reads it.
enum OverlayOCR {
    /// The smallest rectangle holding every pixel where `overlaid` and `plain` differ by more than a few levels,
    /// inside `region` (nil: anywhere); nil when they do not differ there.
    static func drawnBox(_ overlaid: RGBAImage, _ plain: RGBAImage, within region: PixelRect? = nil) -> PixelRect? {
        let size = overlaid.size
        let r = region ?? PixelRect(size)
        var box: PixelRect?
        for y in max(0, r.y)..<min(size.height, r.maxY) {
            for x in max(0, r.x)..<min(size.width, r.maxX) {
                let i = (y * size.width + x) * 4
                let d = (0..<3).map { abs(Int(overlaid.pixels[i + $0]) - Int(plain.pixels[i + $0])) }.max() ?? 0
                if d > 8 { box = (box ?? PixelRect(x: x, y: y, width: 1, height: 1)).union(PixelRect(x: x, y: y, width: 1, height: 1)) }
            }
        }
        return box
    }

    /// What tesseract reads, as one line, of the text in `box` of `image`: pixels whose every channel is at least
    /// `minimum` (the white fill) become ink. `name` names the page kept in `dir`.
    static func read(_ image: RGBAImage, _ box: PixelRect, name: String, in dir: String, minimum: UInt8 = 200) throws -> String {
        let keyed = TextTestSupport.keyed(TextTestSupport.crop(image, box), minimum: minimum)
        let page = TextTestSupport.crop(keyed, PixelRect(x: -12, y: -12, width: keyed.size.width + 24, height: keyed.size.height + 24),
                                        fill: 255)
        let png = dir + "/\(name).png"
        try PNGWriter.write(page, to: png)
        let run = try BoundedProcess.run(TextTestSupport.tesseract, [png, "-", "--psm", "7", "-l", "eng"],
                                         environment: ["OMP_THREAD_LIMIT": "1"], timeout: 60)
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        return String(decoding: run.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A PNG kiosk wrote, as RGBA.
    static func load(_ path: String, size: PixelSize) throws -> RGBAImage {
        guard let image = try FFmpegCLI.referenceFrames(path, size: size).first else {
            throw MediaError(path: path, reason: "no picture")
        }
        return image
    }
}
