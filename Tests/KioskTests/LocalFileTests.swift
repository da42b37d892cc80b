import Foundation
import KioskCore
@testable import KioskMedia
import XCTest

/// The pieces of the local-media policy in process: the interrupt callback's deadline on open, a pipe behind a
/// `/proc/self/fd` path, and which playlist entries are URLs.
final class LocalFileTests: XCTestCase {
    /// A 1 s MPEG-TS clip made with ffmpeg.
    private func clip(_ dir: TempDir) throws -> String {
        let path = dir.file("clip.ts")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=10", "-t", "1", "-c:v", "mpeg2video", path])
        return path
    }

    /// The interrupt callback is on the open: an open whose deadline has passed ends with "opening took too
    /// long", and the default deadline is `LocalMediaPolicy.readTimeout` (what `--decode-timeout` sets).
    func testInterruptCallbackEndsAnOpenPastItsDeadline() throws {
        let dir = try TempDir()
        let path = try clip(dir)
        let format = try FormatSniffer.format(path: path, head: try FileBytes.read(path, count: 1 << 20))
        XCTAssertNoThrow(try FFmpegInput(path: path, format: format, timeLimit: 5, findStreamInfo: true))
        XCTAssertThrowsError(try FFmpegInput(path: path, format: format, timeLimit: -1, findStreamInfo: true)) {
            XCTAssertEqual(($0 as? MediaError)?.reason, "opening took too long")
        }
        let saved = LocalMediaPolicy.readTimeout
        defer { LocalMediaPolicy.readTimeout = saved }
        LocalMediaPolicy.readTimeout = -1
        XCTAssertThrowsError(try FFmpegInput(path: path, format: format, findStreamInfo: true)) {
            XCTAssertEqual(($0 as? MediaError)?.reason, "opening took too long")
        }
        XCTAssertThrowsError(try MediaFile.probe(path)) {
            XCTAssertEqual(($0 as? MediaError)?.reason, "opening took too long")
        }
    }

    /// A pipe reached through `/proc/self/fd/N` (a symlink to a pipe) is refused at once as not a regular file
    /// (before: the head read blocked until the writer closed).
    func testPipeBehindAProcFDPathIsRefusedAtOnce() throws {
        let pipe = Pipe()
        let path = "/proc/self/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            do { outcome.set("probed: \(try MediaFile.probe(path))") } catch { outcome.set("\(error)") }
            done.signal()
        }
        let finished = done.wait(timeout: .now() + 5) == .success
        try? pipe.fileHandleForWriting.close()   // frees a reader stuck on the pipe, so no thread is left behind
        if !finished { done.wait() }
        XCTAssertTrue(finished, "probe of a pipe must not block: \(outcome.get())")
        XCTAssertTrue(outcome.get().hasSuffix("not a regular file (a FIFO)"), outcome.get())
    }

    /// Which entries are URLs (skipped) and which are local paths, `file://` URIs decoded.
    func testLocalPathOfPlaylistEntries() {
        XCTAssertNil(M3U.localPath("http://127.0.0.1:8080/x.png"))
        XCTAssertNil(M3U.localPath("rtmp://host/live"))
        XCTAssertNil(M3U.localPath("HTTPS://host/x.jpg"))
        XCTAssertNil(M3U.localPath("file://otherhost/x.png"), "a file URI on another machine is not local")
        XCTAssertEqual(M3U.localPath("file:///abs/a%20b.png"), "/abs/a b.png")
        XCTAssertEqual(M3U.localPath("file://localhost/abs/x.png"), "/abs/x.png")
        XCTAssertEqual(M3U.localPath("http:/x.png"), "http:/x.png", "a folder named http: is a path")
        XCTAssertEqual(M3U.localPath("subfile,,start,0,end,0,,:/etc/hostname"), "subfile,,start,0,end,0,,:/etc/hostname")
        XCTAssertEqual(M3U.localPath("a%d.png"), "a%d.png")
        XCTAssertEqual(M3U.localPath("dir/x://y.png"), "dir/x://y.png", "not a scheme: a path with odd characters")
    }

    /// The M3U parser warns once per URL line, naming the playlist and the line, and keeps the other entries.
    func testM3UWarnsOncePerURLEntry() {
        let lines = LineSink()
        let log = Log(level: .warn, sink: { lines.append($0) })
        let text = "#EXTINF:3,\nhttp://h/x.png\nrtmp://h/live\nfile:///abs/ok.png\nok2.png\n"
        let items = M3U.entries(in: text, base: "/base", source: "list.m3u", log: log)
        XCTAssertEqual(items.map(\.path), ["/abs/ok.png", "/base/ok2.png"])
        XCTAssertNil(items.first?.duration, "the #EXTINF before a skipped URL does not move to the next entry")
        XCTAssertEqual(lines.all.count, 2, "\(lines.all)")
        XCTAssertTrue(lines.all.allSatisfy { $0.contains("list.m3u") && $0.contains("a URL; kiosk plays local files here") }, "\(lines.all)")
    }

    /// A playlist the content fetcher got: every entry is a URL (relative ones against the playlist's), played from its
    /// cache file; one not fetched, or of another scheme, is skipped with one line and takes its #EXTINF with it.
    func testM3UFromAServerPlaysItsEntriesFromTheContentCache() {
        let lines = LineSink()
        let log = Log(level: .warn, sink: { lines.append($0) })
        let map = ContentMap(indexURL: "https://cms.example/screens/lobby.m3u8?k=1",
                             files: ["https://cms.example/screens/a.png": "/cache/files/a-1.png",
                                     "https://cdn.example/b.mp4?sig=2": "/cache/files/b-1.mp4"])
        let text = "#EXTINF:7,A\na.png\n#EXTINF:9,missing\nmissing.png\nhttps://cdn.example/b.mp4?sig=2#t=3\nfile:///etc/passwd\n"
        let items = M3U.entries(in: text, base: "/ignored", source: "lobby.m3u8", log: log, content: map)
        XCTAssertEqual(items.map(\.path), ["/cache/files/a-1.png", "/cache/files/b-1.mp4"])
        XCTAssertEqual(items.map(\.duration), [7, nil], "the #EXTINF of the skipped entry does not move on")
        XCTAssertEqual(lines.all, ["kiosk: warn: lobby.m3u8: missing.png: skipped: not in the content cache",
                                   "kiosk: warn: lobby.m3u8: file:///etc/passwd: skipped: not an http or https URL"])
    }
}

/// A string set on one thread and read on another.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var text = "(nothing yet)"
    func set(_ t: String) { lock.lock(); text = t; lock.unlock() }
    func get() -> String { lock.lock(); defer { lock.unlock() }; return text }
}

/// Log lines collected from any thread.
private final class LineSink: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
