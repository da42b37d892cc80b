import Foundation
import XCTest
@testable import KioskCore
@testable import KioskMedia

/// Files for the caption tests, made at test time: pictures by ffmpeg, metadata written by exiftool (the outside
/// reference), and the reader run with its log lines collected.
enum CaptionFixtures {
    /// A 32x24 red JPEG made by ffmpeg, with no metadata but its JFIF header.
    static func jpeg(_ dir: TempDir, _ name: String = "photo.jpg") throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=32x24", "-frames:v", "1", path])
        return path
    }

    /// A 32x24 blue PNG made by ffmpeg.
    static func png(_ dir: TempDir, _ name: String = "picture.png") throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=blue:s=32x24", "-frames:v", "1", path])
        return path
    }

    /// Runs exiftool (bounded in time) writing `arguments` into `path` in place.
    static func exiftool(_ path: String, _ arguments: [String]) throws {
        try FFmpegCLI.run("exiftool", ["-q", "-overwrite_original"] + arguments + [path])
    }

    /// exiftool's reading of `tags` (as `-G1` names, `XMP-dc:Description`) from `path`: the reference values.
    static func exiftoolValues(_ path: String, _ tags: [String]) throws -> [String: String] {
        let data = try FFmpegCLI.run("exiftool", ["-j", "-G1"] + tags.map { "-" + $0 } + [path])
        let list = try JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        var out: [String: String] = [:]
        for (key, value) in list?.first ?? [:] where key != "SourceFile" { out[key] = "\(value)" }
        return out
    }

    /// ffprobe's tags for `path` at `level` (`format_tags` or `stream_tags`), keys lowercased.
    static func ffprobeTags(_ path: String, level: String = "format_tags") throws -> [String: String] {
        let data = try FFmpegCLI.run("ffprobe", ["-v", "error", "-show_entries", level, "-of", "json", path])
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let tags: [String: Any]?
        if level == "format_tags" {
            tags = (json?["format"] as? [String: Any])?["tags"] as? [String: Any]
        } else {
            tags = ((json?["streams"] as? [[String: Any]])?.first)?["tags"] as? [String: Any]
        }
        var out: [String: String] = [:]
        for (key, value) in tags ?? [:] { out[key.lowercased()] = "\(value)" }
        return out
    }

    /// The file's bytes.
    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Writes `bytes` to `path`.
    static func write(_ bytes: [UInt8], to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

    /// Writes `text` to `path` as UTF-8.
    static func write(_ text: String, to path: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }

    /// `MediaMetadataReader.read(item)` and the log lines it wrote, bounded by `timeout` seconds (a reader that
    /// blocks fails the test instead of hanging it).
    static func read(_ item: PlaylistItem, timeout: Double = 10, file: StaticString = #filePath,
                     line: UInt = #line) -> (metadata: ItemMetadata?, log: [String]) {
        let lines = Lines()
        let log = Log(level: .debug) { lines.append($0) }
        let result = Box()
        let done = DispatchSemaphore(value: 0)
        Thread {
            result.value = MediaMetadataReader.read(item, log: log)
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + timeout) == .success else {
            XCTFail("reading \(item.path) did not finish in \(timeout) s", file: file, line: line)
            return (nil, lines.all)
        }
        return (result.value, lines.all)
    }

    /// `read` for a file with no playlist entry.
    static func read(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> (metadata: ItemMetadata?, log: [String]) {
        read(PlaylistItem(path: path), file: file, line: line)
    }

    /// Log lines collected from any thread.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    /// A result handed from the reading thread.
    final class Box: @unchecked Sendable {
        var value: ItemMetadata?
    }

    /// A JPEG segment: marker and body, with its length.
    static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
        let length = body.count + 2
        return [0xFF, marker, UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
    }

    /// `jpeg` (a whole JPEG file's bytes) with `segments` inserted right after its SOI marker.
    static func inserting(_ segments: [[UInt8]], into jpeg: [UInt8]) -> [UInt8] {
        Array(jpeg[0..<2]) + segments.flatMap { $0 } + Array(jpeg[2...])
    }

    /// The offset and length of the first segment with `marker` whose body starts with `prefix`.
    static func findSegment(_ bytes: [UInt8], marker: UInt8, prefix: [UInt8]) -> (offset: Int, length: Int)? {
        var i = 2
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if bytes[i + 1] == marker, MetadataText.has(bytes, prefix, at: i + 4) { return (i, length + 2) }
            if bytes[i + 1] == 0xDA { return nil }
            i += 2 + length
        }
        return nil
    }
}
