import Foundation
import KioskCore
import KioskMedia
import KioskPlayer
import XCTest

/// Sound files with and without cover art (also with hand-made ID3 pictures), and measures of a card picture's
/// regions: for the now-playing card picture tests.
enum CardPictureFixtures {
    /// A PNG cover of `size` (`WxH`) from ffmpeg's testsrc2 (colour bars, a gradient, moving shapes).
    static func testCover(_ dir: TempDir, _ name: String, size: String) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=\(size)", "-frames:v", "1", "-pix_fmt", "rgb24", path])
        return path
    }

    /// A one-second tone at `name` (`.mp3` or `.m4a`), with `cover` (a PNG) as its attached picture when given.
    static func song(_ dir: TempDir, _ name: String, cover: String?) throws -> String {
        let path = dir.file(name)
        let tone = ["-f", "lavfi", "-i", "sine=frequency=440:duration=1:sample_rate=44100"]
        let audio = name.hasSuffix(".m4a") ? ["-c:a", "aac"] : ["-c:a", "libmp3lame", "-id3v2_version", "3"]
        guard let cover else {
            try FFmpegCLI.ffmpeg(tone + audio + [path])
            return path
        }
        try FFmpegCLI.ffmpeg(tone + ["-i", cover, "-map", "0", "-map", "1"] + audio
                             + ["-c:v", "png", "-disposition:v", "attached_pic", path])
        return path
    }

    /// A one-second MP3 whose ID3v2.3 tag holds one APIC frame (front cover, `image/png`) of exactly `picture`:
    /// the tag is written by hand, so the picture's bytes can be anything (one byte, a cut-off PNG).
    static func songWithID3Picture(_ dir: TempDir, _ name: String, picture: [UInt8]) throws -> String {
        let bare = dir.file("bare-" + name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:duration=1:sample_rate=44100", "-c:a", "libmp3lame",
                              "-id3v2_version", "0", "-write_id3v1", "0", bare])
        let body: [UInt8] = [0x00] + Array("image/png".utf8) + [0x00, 0x03, 0x00] + picture
        let n = body.count
        let frame = Array("APIC".utf8) + [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF), 0, 0] + body
        let t = frame.count  // synchsafe: seven bits a byte
        let header = Array("ID3".utf8) + [3, 0, 0, UInt8(t >> 21 & 0x7F), UInt8(t >> 14 & 0x7F), UInt8(t >> 7 & 0x7F), UInt8(t & 0x7F)]
        let path = dir.file(name)
        let audio = try Data(contentsOf: URL(fileURLWithPath: bare))
        try (Data(header + frame) + audio).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The card's square on `canvas` in pixels, as the picture places it.
    static func square(_ canvas: PixelSize, safeArea: OverlayRect) -> PixelRect {
        NowPlayingCard.Layout.artworkPixels(canvas: canvas, safeArea: safeArea)
    }

    /// How far the artwork's shadow reaches beyond `square`.
    static func reach(_ square: PixelRect) -> Int { CardPicture.shadowReach(square) }

    /// `rect` grown by `d` pixels on every side.
    static func grown(_ rect: PixelRect, by d: Int) -> PixelRect { rect.insetBy(-d) }

    /// The RGBA bytes of `rect` of `image`, row by row.
    static func crop(_ image: RGBAImage, _ rect: PixelRect) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rect.width * rect.height * 4)
        for y in rect.y..<rect.maxY {
            let start = (y * image.size.width + rect.x) * 4
            out += image.pixels[start..<start + rect.width * 4]
        }
        return out
    }

    /// What the player's decoder makes of `path` under `config`: the sound file's picture.
    static func decodedPicture(_ path: String, config: PlayerConfig) throws -> SoundPicture {
        let decoded = try Player.decoder(for: config)(PlaylistItem(path: path))
        guard case .clip(let clip) = decoded.picture, let picture = clip as? SoundPicture else {
            throw FFmpegCLI.Failure(description: "\(path): not decoded as a sound picture")
        }
        return picture
    }

    /// The mean colour, brightness and smoothness of a region of a picture.
    struct Stats {
        /// Mean R, G, B.
        var mean: [Double]
        /// Mean absolute difference of each colour channel between horizontal and vertical neighbours (both in
        /// the region): near 0 for a smooth picture.
        var roughness: Double
        /// The largest difference of a colour channel between neighbours: small for a smooth picture, large at
        /// an edge or a block's step.
        var steepest: Int
        /// Whether every pixel of the region is opaque.
        var opaque: Bool

        /// Rec. 601 brightness of the mean colour.
        var luma: Double { 0.299 * mean[0] + 0.587 * mean[1] + 0.114 * mean[2] }

        /// `R,G,B` rounded.
        var meanText: String { mean.map { String(format: "%.1f", $0) }.joined(separator: ",") }

        /// The pixels of `rect` of `image`.
        init(_ image: RGBAImage, in rect: PixelRect) {
            self.init(image) { x, y in x >= rect.x && x < rect.maxX && y >= rect.y && y < rect.maxY }
        }

        /// The pixels of `image` outside `hole` (all of them when nil).
        init(_ image: RGBAImage, outside hole: PixelRect?) {
            self.init(image) { x, y in
                guard let hole else { return true }
                return !(x >= hole.x && x < hole.maxX && y >= hole.y && y < hole.maxY)
            }
        }

        private init(_ image: RGBAImage, where included: (Int, Int) -> Bool) {
            let w = image.size.width, h = image.size.height, p = image.pixels
            var sum = [0.0, 0.0, 0.0], count = 0, diff = 0.0, pairs = 0
            var opaque = true, steepest = 0
            for y in 0..<h {
                for x in 0..<w where included(x, y) {
                    let i = (y * w + x) * 4
                    for c in 0..<3 { sum[c] += Double(p[i + c]) }
                    if p[i + 3] != 255 { opaque = false }
                    count += 1
                    for (nx, ny) in [(x + 1, y), (x, y + 1)] where nx < w && ny < h && included(nx, ny) {
                        let j = (ny * w + nx) * 4
                        for c in 0..<3 {
                            let d = abs(Int(p[i + c]) - Int(p[j + c]))
                            diff += Double(d)
                            steepest = max(steepest, d)
                        }
                        pairs += 3
                    }
                }
            }
            mean = sum.map { $0 / Double(max(1, count)) }
            roughness = diff / Double(max(1, pairs))
            self.opaque = opaque
            self.steepest = steepest
        }
    }
}
