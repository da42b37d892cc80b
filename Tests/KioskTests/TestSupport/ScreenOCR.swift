import Foundation
import KioskCore
import KioskMedia
import XCTest

/// Reads the white text on a whole screen kiosk showed (a screenshot or the MQTT camera's JPEG, decoded by
/// ffmpeg): every pixel whose channels are all at least `minimum` becomes black ink on white paper, and
/// tesseract reads the page as a block of lines. For checks that a message really is on the screen, not only in
/// kiosk's state.
enum ScreenOCR {
    /// What tesseract reads of the white text in the picture file `path` (of `size`), its words joined by single
    /// spaces. The keyed page is kept in `dir` as NAME.png.
    static func read(_ path: String, size: PixelSize, name: String, in dir: String, minimum: UInt8 = 200) throws -> String {
        let screen = try OverlayOCR.load(path, size: size)
        let page = TextTestSupport.keyed(screen, minimum: minimum)
        let png = dir + "/\(name).png"
        try PNGWriter.write(page, to: png)
        let run = try BoundedProcess.run(TextTestSupport.tesseract, [png, "-", "--psm", "6", "-l", "eng"],
                                         environment: ["OMP_THREAD_LIMIT": "1"], timeout: 60)
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        return String(decoding: run.stdout, as: UTF8.self).split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
