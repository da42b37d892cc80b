import Foundation
import KioskCore
import XCTest

/// Test support for the GIF and WebP decoder tests: a temp folder, the ffmpeg CLI, a byte-level GIF writer, PSNR.
enum AnimationFixtures {
    /// A fresh temporary folder, removed when the test ends.
    static func tempDir(_ test: XCTestCase) throws -> URL {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("kiosk-anim-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    /// Checks that each call throws a one-line `MediaError` naming `path` whose reason mentions every word.
    static func assertOneLineError(_ path: String, mentioning words: [String], calls: [(String, () throws -> Void)],
                                   file: StaticString, line: UInt) {
        for (name, call) in calls {
            XCTAssertThrowsError(try call(), name, file: file, line: line) { error in
                guard let e = error as? MediaError else { return XCTFail("\(name): \(error)", file: file, line: line) }
                XCTAssertEqual(e.path, path, file: file, line: line)
                XCTAssertTrue(e.description.hasPrefix(path), file: file, line: line)
                XCTAssertFalse(e.reason.contains("\n"), file: file, line: line)
                for w in words {
                    XCTAssertTrue(e.reason.contains(w), "\(name): \(e.reason) lacks \(w)", file: file, line: line)
                }
            }
        }
    }

    /// Runs a tool and returns its standard output; fails with its standard error when it exits non-zero.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Data { try FFmpegCLI.run(tool, arguments) }

    /// Runs `/usr/bin/ffmpeg -v error -y ARGS`.
    static func ffmpeg(_ arguments: [String]) throws {
        try run("/usr/bin/ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y"] + arguments)
    }

    /// ffmpeg's own decode of `path` as RGBA frames of `width`×`height` (every frame, no rate conversion).
    /// `options` go before the output format (for example `-sws_flags` for YUV sources).
    static func ffmpegFrames(_ path: String, width: Int, height: Int, options: [String] = []) throws -> [[UInt8]] {
        let raw = try run("/usr/bin/ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-i", path,
                                               "-fps_mode", "passthrough"] + options
                                               + ["-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        let frameBytes = width * height * 4
        let bytes = [UInt8](raw)
        return stride(from: 0, to: bytes.count - frameBytes + 1, by: frameBytes).map {
            Array(bytes[$0..<($0 + frameBytes)])
        }
    }

    /// PSNR in dB over the RGB channels of two RGBA buffers of equal size (infinity when equal).
    static func psnrRGB(_ a: [UInt8], _ b: [UInt8]) -> Double { ImageCompare.psnrRGB(a, b) }

    /// Writes `bytes` to `name` in `dir` and returns the path.
    static func write(_ bytes: [UInt8], _ name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// The first half of a file's bytes, written next to it as `truncated-NAME`.
    static func truncatedCopy(of path: String) throws -> String {
        let url = URL(fileURLWithPath: path)
        let data = try Data(contentsOf: url)
        let out = url.deletingLastPathComponent().appendingPathComponent("truncated-" + url.lastPathComponent)
        try data.prefix(data.count / 2).write(to: out)
        return out.path
    }

    /// Deterministic pseudo-random bytes.
    static func randomBytes(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }
}

/// A minimal GIF writer for tests: a 16-colour global palette, frames as index rectangles with a Graphic
/// Control Extension each, LZW written as plain literal codes with a clear code often enough that the code
/// width never grows.
struct TinyGif {
    /// One frame: where it goes, its palette indices (rows top-down), and its control block.
    struct Frame {
        var left = 0, top = 0, width: Int, height: Int
        var indices: [UInt8]
        var delay = 10
        var disposal = 0
        var transparent: Int?
        var interlaced = false
    }

    var width: Int
    var height: Int
    /// 16 RGB colours.
    var palette: [(UInt8, UInt8, UInt8)]
    /// NETSCAPE2.0 repeat count; nil writes no loop extension.
    var repeatCount: Int?
    var frames: [Frame] = []

    /// The file's bytes.
    func bytes() -> [UInt8] {
        var out = Array("GIF89a".utf8)
        out += le16(width) + le16(height)
        out += [0xF3, 0, 0]  // global colour table, 16 entries
        for i in 0..<16 {
            let c = i < palette.count ? palette[i] : (0, 0, 0)
            out += [c.0, c.1, c.2]
        }
        if let n = repeatCount {
            out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + le16(n) + [0]
        }
        for f in frames {
            let flags = UInt8((f.disposal & 7) << 2) | (f.transparent == nil ? 0 : 1)
            out += [0x21, 0xF9, 4, flags] + le16(f.delay) + [UInt8(f.transparent ?? 0), 0]
            out += [0x2C] + le16(f.left) + le16(f.top) + le16(f.width) + le16(f.height)
            out += [f.interlaced ? 0x40 : 0]
            out += lzw(stored(f))
        }
        out.append(0x3B)
        return out
    }

    private func stored(_ f: Frame) -> [UInt8] {
        guard f.interlaced else { return f.indices }
        let h = f.height
        let rows = Array(stride(from: 0, to: h, by: 8)) + Array(stride(from: 4, to: h, by: 8))
            + Array(stride(from: 2, to: h, by: 4)) + Array(stride(from: 1, to: h, by: 2))
        return rows.flatMap { f.indices[($0 * f.width)..<(($0 + 1) * f.width)] }
    }

    private func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }

    /// Minimum code size 4 (5-bit codes): clear, up to 14 literals, clear, ..., end.
    private func lzw(_ indices: [UInt8]) -> [UInt8] {
        let clear = 16, end = 17
        var codes: [Int] = []
        var i = 0
        while i < indices.count {
            codes.append(clear)
            for p in indices[i..<min(indices.count, i + 14)] { codes.append(Int(p)) }
            i += 14
        }
        codes.append(end)
        var data: [UInt8] = []
        var acc = 0, bits = 0
        for c in codes {
            acc |= c << bits
            bits += 5
            while bits >= 8 {
                data.append(UInt8(acc & 0xFF))
                acc >>= 8
                bits -= 8
            }
        }
        if bits > 0 { data.append(UInt8(acc & 0xFF)) }
        var out: [UInt8] = [4]
        var p = 0
        while p < data.count {
            let n = min(255, data.count - p)
            out.append(UInt8(n))
            out += data[p..<(p + n)]
            p += n
        }
        out.append(0)
        return out
    }
}
