import Foundation
import KioskCore

/// One-colour pictures made with ffmpeg, and the centre colour of what kiosk drew: for the tests that only need
/// to tell which item is on screen.
enum ColourPictures {
    /// A 64x48 picture of one colour (an ffmpeg colour name or 0xRRGGBB) at `name` in `dir`.
    static func make(_ dir: TempDir, _ name: String, _ colour: String) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=\(colour):s=64x48", "-frames:v", "1", path])
        return path
    }

    /// The centre pixel's RGB.
    static func centre(_ image: RGBAImage) -> [Int] {
        let i = (image.size.height / 2 * image.size.width + image.size.width / 2) * 4
        return image.pixels[i..<i + 3].map(Int.init)
    }

    /// Whether two colours are within 12 levels in each channel (chroma subsampling and scaling round).
    static func near(_ a: [Int], _ b: [Int]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= 12 } }
}
