// Reading the demo tour's overlays back: tesseract on the keyed white text, and the edit distance that judges
// what it read (see DemoTourTests).
import Foundation
import KioskCore
import KioskMedia
import XCTest

extension DemoTourTests {
    /// What tesseract reads in `rect` of `image`, keyed on the overlays' white text fill as TextOCRTests does
    /// (near-white pixels become black ink on white paper), scaled up 2x for the small text; one line of words.
    func ocr(_ image: RGBAImage, _ rect: PixelRect, name: String, in folder: String, singleLine: Bool) throws -> String {
        let keyed = TextTestSupport.keyed(TextTestSupport.crop(image, rect), minimum: 220)
        let page = TextTestSupport.crop(keyed, PixelRect(x: -12, y: -12, width: keyed.size.width + 24, height: keyed.size.height + 24),
                                        fill: 255)
        let png = folder + "/ocr-\(name).png", big = folder + "/ocr-\(name)-2x.png"
        try PNGWriter.write(page, to: png)
        try FFmpegCLI.ffmpeg(["-i", png, "-vf", "scale=iw*2:ih*2:flags=bicubic", big])
        let run = try BoundedProcess.run(TextTestSupport.tesseract, [big, "-", "--psm", singleLine ? "7" : "6", "-l", "eng"],
                                         environment: ["OMP_THREAD_LIMIT": "1"], timeout: 60)
        XCTAssertEqual(run.status, 0, String(decoding: run.stderr, as: UTF8.self))
        return String(decoding: run.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The fewest edits (insertions, deletions, substitutions) that turn `expected` into some part of `read`, both
    /// lower-cased with their runs of white space made one space: how far the best match in the OCR's text is.
    static func editsToFind(_ expected: String, in read: String) -> Int {
        func norm(_ t: String) -> [Character] { Array(t.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")) }
        let p = norm(expected), t = norm(read)
        guard !p.isEmpty else { return 0 }
        // Sellers' algorithm: the match may start anywhere in `t` (row 0 is all zeros) and end anywhere (the last row's minimum).
        var previous = [Int](repeating: 0, count: t.count + 1)
        for i in 1...p.count {
            var current = [Int](repeating: i, count: t.count + 1)
            for j in stride(from: 1, through: t.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (p[i - 1] == t[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous.min() ?? p.count
    }
}
