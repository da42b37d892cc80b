import Foundation
import KioskCore
@testable import KioskMedia
@testable import KioskPlayer
import XCTest

/// What a long run gets right: a file retried once it changes, a one-frame video timed like a still, log lines a
/// file name cannot forge, config errors naming FILE:LINE, and a recording that fails after it began kept.
final class RunCorrectnessTests: XCTestCase {
    private static let headless = ["--output", "headless", "--size", "320x240"]

    /// A picture that fails (half copied) plays in the same run once its copy completes. Before: skipped for
    /// the rest of the run.
    func testAFailedFilePlaysOnceItsCopyCompletes() throws {
        let dir = try TempDir()
        let folder = dir.file("show")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240", "-frames:v", "1", folder + "/a.png"])
        let whole = dir.file("b.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240,hue=h=90", "-frames:v", "1", whole])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let b = folder + "/b.png"
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: b))
        let p = try LiveProcess(["play", folder, "--duration", "0.5", "--transition", "none", "--length", "60",
                                 "--log-level", "info"] + Self.headless)
        XCTAssertTrue(p.waitFor("b.png", timeout: 60), "the half file fails first: \(p.stderr)")
        XCTAssertTrue(p.waitFor("skipped", timeout: 10), p.stderr)
        XCTAssertFalse(p.stderr.contains("showing \(b)"), p.stderr)
        try bytes.write(to: URL(fileURLWithPath: b))
        let completed = Date()
        XCTAssertTrue(p.waitFor("showing \(b)", timeout: 15), "the completed file never played: \(p.stderr)")
        let seconds = Date().timeIntervalSince(completed)
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
        XCTAssertTrue(p.stderr.contains("\(b): changed since it failed; trying it again"), p.stderr)
        // A retry look (1 s) and a pass of the slideshow take ~2 s; the bound is loose for a shared 2-core machine and
        // still catches a file retried only by the 15 s wait's luck.
        XCTAssertLessThan(seconds, 10, "shown within a retry look (1 s) and a pass of the slideshow")
    }

    /// A file that fails and does not change is not decoded again (the failure memory still holds).
    func testAFailedFileThatDoesNotChangeIsNotRetried() throws {
        let dir = try TempDir()
        let bad = dir.file("bad.png")
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: bad))
        let attempts = Counter()
        let cache = DecodeCache(items: [PlaylistItem(path: bad)], timeout: 5, log: Log(level: .error, sink: { _ in })) { item in
            attempts.add()
            return try MediaFile.decode(item.path, targetSize: { $0 })
        }
        cache.wait(for: 0)
        XCTAssertTrue(cache.hasFailed(0))
        XCTAssertEqual(cache.retryChanged(), [], "unchanged: no retry")
        usleep(1_100_000)
        XCTAssertEqual(cache.retryChanged(), [], "still unchanged after the retry interval")
        try Data("not a picture either, longer".utf8).write(to: URL(fileURLWithPath: bad))
        XCTAssertEqual(cache.retryChanged(), [], "looked less than a second ago")
        usleep(1_100_000)
        XCTAssertEqual(cache.retryChanged(), [0], "changed: retried")
        cache.wait(for: 0)
        XCTAssertEqual(attempts.value, 2)
        // A file that failed and then went away is not retried while it is gone (one line per missing file),
        // and is retried once it is back.
        try FileManager.default.removeItem(atPath: bad)
        usleep(1_100_000)
        XCTAssertEqual(cache.retryChanged(), [], "gone: nothing to retry")
        try Data("back, still not a picture".utf8).write(to: URL(fileURLWithPath: bad))
        usleep(1_100_000)
        XCTAssertEqual(cache.retryChanged(), [0], "back: retried")
    }

    /// A one-frame video is one item shown for --duration: recorded alone for one pass it lasts --duration
    /// (2 s, 50 frames at 25 fps), and played it is decoded once, not reopened every frame. Before: 0.04 s.
    func testAOneFrameVideoIsOneItemForDuration() throws {
        let dir = try TempDir()
        let one = dir.file("one.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "1", "-pix_fmt", "yuv420p", one])
        XCTAssertEqual(try FFmpegCLI.probe(one, "stream=nb_frames"), "1")
        let out = dir.file("rec.mp4")
        let r = try CLITests.run(["record", one, "--output", out, "--size", "320x240", "--fps", "25", "--duration", "2",
                                  "--no-loop"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(Double(try FFmpegCLI.probe(out, "format=duration")) ?? 0, 2.0, accuracy: 0.05)
        XCTAssertEqual(try FFmpegCLI.probe(out, "stream=nb_frames"), "50")
        let p = try CLITests.run(["play", one, "--duration", "1", "--length", "3", "--log-level", "debug"] + Self.headless,
                                 timeout: 60)
        XCTAssertEqual(p.status, 0, p.stderr)
        let opens = p.stderr.components(separatedBy: "one frame, held like a still").count - 1
        let slots = p.stderr.components(separatedBy: "showing \(one)").count - 1
        XCTAssertEqual(opens, 1, "decoded once: \(p.stderr.suffix(2000))")
        XCTAssertTrue((2...4).contains(slots), "about 3 one-second slots in 3 s, got \(slots)")
    }

    /// A file name holding a newline cannot forge a log line: it is escaped, and every line is one event.
    func testAFileNameCannotForgeALogLine() throws {
        let dir = try TempDir()
        let name = "a\nkiosk: error: forged\u{1b}[31m.png"
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: dir.file(name)))
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240", "-frames:v", "1", dir.file("b.png")])
        let r = try CLITests.run(["play", dir.path, "--no-loop", "--duration", "0.2", "--log-level", "debug"] + Self.headless,
                                 timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertFalse(lines.contains { $0.hasPrefix("kiosk: error: forged") }, r.stderr)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("kiosk: ") }, r.stderr)
        XCTAssertFalse(r.stderr.contains("\u{1b}"), "no terminal escape reaches the log")
        XCTAssertTrue(r.stderr.contains("a\\nkiosk: error: forged\\x1b[31m.png"), r.stderr)
        XCTAssertEqual(Log.escaped("tab\there\r\u{7f}\u{85}\u{2028}é"), "tab\\there\\r\\x7f\\x85\\u{2028}é")
    }

    /// Errors in a --config file name FILE:LINE, also those found after the file was read (a bad value, a bad
    /// transition); the command line's own errors name no file. Before: "--duration: 'abc' is not a number".
    func testConfigErrorsNameFileAndLine() throws {
        let dir = try TempDir()
        let conf = dir.file("kiosk.conf")
        try "# a comment\nfit = cover\nduration = abc\n".write(toFile: conf, atomically: true, encoding: .utf8)
        let bad = try CLITests.run(["play", "--config", conf], timeout: 30)
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "kiosk: \(conf):3: --duration: 'abc' is not a number\n")
        try "transition = nope\n".write(toFile: conf, atomically: true, encoding: .utf8)
        let later = try CLITests.run(["play", "--config", conf], timeout: 30)
        XCTAssertEqual(later.status, 2)
        XCTAssertTrue(later.stderr.hasPrefix("kiosk: \(conf):1: --transition: 'nope'"), later.stderr)
        try "zoomy = 3\n".write(toFile: conf, atomically: true, encoding: .utf8)
        let unknown = try CLITests.run(["play", "--config", conf], timeout: 30)
        XCTAssertTrue(unknown.stderr.hasPrefix("kiosk: \(conf):1: play: unknown option '--zoomy'"), unknown.stderr)
        let own = try CLITests.run(["play", "--config", conf, "--duration", "x"], timeout: 30)
        XCTAssertTrue(own.stderr.hasPrefix("kiosk: \(conf):1:"), "the config's error comes first: \(own.stderr)")
        let cli = try CLITests.run(["play", "--duration", "x"], timeout: 30)
        XCTAssertEqual(cli.stderr, "kiosk: --duration: 'x' is not a number\n")
    }

    /// A recording that fails after frames were written keeps them in a finalised file (the error still thrown);
    /// one that fails before any frame leaves no file.
    func testARecordingThatFailsMidwayKeepsItsFrames() throws {
        let dir = try TempDir()
        let size = PixelSize(width: 64, height: 48)
        let frame = RGBAImage(size: size, fill: (200, 40, 40, 255))
        let log = Log(level: .error, sink: { _ in })
        let kept = dir.file("kept.mp4")
        let encoder = try VideoEncoder(path: kept, size: size, fps: 25)
        let finisher = RecordingFinisher(encoder: encoder, path: kept, fps: 25, log: log)
        XCTAssertThrowsError(try finisher.run {
            for _ in 0..<30 { try encoder.append(frame) }
            throw PlayerError("the renderer failed")
        }) { XCTAssertEqual("\($0)", "the renderer failed") }
        XCTAssertEqual(try FFmpegCLI.probe(kept, "stream=nb_frames"), "30")
        XCTAssertEqual(Double(try FFmpegCLI.probe(kept, "format=duration")) ?? 0, 1.2, accuracy: 0.01)
        let none = dir.file("none.mp4")
        let empty = try VideoEncoder(path: none, size: size, fps: 25)
        XCTAssertTrue(FileManager.default.fileExists(atPath: none), "the header is written at the start")
        XCTAssertThrowsError(try RecordingFinisher(encoder: empty, path: none, fps: 25, log: log).run {
            throw PlayerError("nothing playable")
        })
        XCTAssertFalse(FileManager.default.fileExists(atPath: none))
    }
}

/// A count shared with decode threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}
