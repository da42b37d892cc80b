import Foundation
import KioskFetch
import KioskTrust
import XCTest

/// What the content fetcher's tests share: media made with ffmpeg or seeded bytes, SMIL and M3U indexes written
/// into a served folder, and checks on a cache folder (no half file in place).
enum ContentFixtures {
    /// A PNG test picture made by ffmpeg (`pattern`: a lavfi source such as `testsrc` or `mandelbrot`).
    static func picture(_ path: String, pattern: String = "testsrc", size: String = "320x240") throws {
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "\(pattern)=size=\(size)", "-frames:v", "1", path])
    }

    /// A short H.264 clip made by ffmpeg.
    static func clip(_ path: String, seconds: Int = 1) throws {
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-t", String(seconds), "-pix_fmt", "yuv420p",
                              "-c:v", "libx264", "-preset", "ultrafast", path])
    }

    /// `count` bytes from a seeded generator (the same for the same seed), written to `path`.
    @discardableResult
    static func seeded(_ path: String, count: Int, seed: UInt64) throws -> [UInt8] {
        var state = seed | 1
        var bytes = [UInt8](repeating: 0, count: count)
        for i in 0..<count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[i] = UInt8(truncatingIfNeeded: state)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return bytes
    }

    /// A SMIL index naming `sources` (each with its `sha256` attribute when given), asking for `refresh` seconds.
    static func smil(_ sources: [(src: String, sha256: String?)], refresh: Int? = 60) -> String {
        var s = "<smil xmlns=\"http://www.w3.org/ns/SMIL\">\n<head>\n"
        if let refresh { s += "<meta http-equiv=\"Refresh\" content=\"\(refresh)\"/>\n" }
        s += "<layout><root-layout width=\"640\" height=\"360\"/></layout>\n</head>\n<body>\n<seq repeatCount=\"indefinite\">\n"
        for source in sources {
            s += "<img src=\"\(source.src)\" dur=\"5s\"" + (source.sha256.map { " sha256=\"\($0)\"" } ?? "") + "/>\n"
        }
        return s + "</seq>\n</body>\n</smil>\n"
    }

    /// Writes `text` to `path`.
    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    /// Sets `path`'s modification time `seconds` later than now (a server's Last-Modified then changes, even
    /// within the same second).
    static func touch(_ path: String, later seconds: Double) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: seconds)], ofItemAtPath: path)
    }

    /// The bytes of `path` (empty when it cannot be read).
    static func bytes(_ path: String) -> Data { FileManager.default.contents(atPath: path) ?? Data() }

    /// The SHA-256 of `path`, lower-case hex.
    static func sha256(_ path: String) throws -> String { try SHA256Sum.hex(ofFile: path) }

    /// The names in the cache's `files` folder.
    static func cachedNames(_ cache: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache + "/" + ContentCache.filesName)) ?? []).sorted()
    }

    /// Fails unless every file in the cache's `files` folder is a `.part` or a whole body some entry or kept index
    /// names (its SHA-256 the entry's): no half file is ever in place.
    static func assertNoHalfFile(_ cache: ContentCache, file: StaticString = #filePath, line: UInt = #line) {
        var named: [String: String] = [:]  // file -> sha256
        for entry in cache.entries.values { named[entry.file] = entry.sha256 }
        for index in [cache.current, cache.previous].compactMap({ $0 }) {
            for name in [index.file] + Array(index.media.values) where named[name] == nil { named[name] = "" }
        }
        for name in cachedNames(cache.directory) where !name.hasSuffix(".part") {
            guard let sum = named[name] else {
                XCTFail("\(name) is in the cache but no entry or index names it", file: file, line: line)
                continue
            }
            if !sum.isEmpty { XCTAssertEqual(try? sha256(cache.path(name)), sum, "\(name) is not the body its entry names", file: file, line: line) }
        }
    }
}
