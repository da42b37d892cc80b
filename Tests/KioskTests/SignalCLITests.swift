import Foundation
import KioskCore
import XCTest

/// Signals and the end of a run, end to end on the built binary: `record` leaves a finalised file or none, `play`
/// survives SIGHUP and a closed stderr, and stops on SIGINT, SIGTERM and SIGQUIT with status 0.
final class SignalCLITests: XCTestCase {
    private func picture(_ dir: TempDir, _ name: String = "a.png") throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240", "-frames:v", "1", path])
        return path
    }

    private static let headless = ["--output", "headless", "--size", "320x240"]

    /// SIGINT and SIGTERM in the middle of a long record: status 0 and a file ffprobe reads, with the frames
    /// recorded until then. Before: a 48-byte mp4 with no moov atom.
    func testRecordFinalisesTheFileOnSIGINTAndSIGTERM() throws {
        let dir = try TempDir()
        let a = try picture(dir)
        for (sig, name) in [(SIGINT, "int"), (SIGTERM, "term"), (SIGQUIT, "quit")] {
            let out = dir.file("rec-\(name).mp4")
            let p = try LiveProcess([a, "--output", out, "--size", "320x240", "--fps", "25", "--length", "3600",
                                     "--log-level", "info"].withCommand("record"))
            XCTAssertTrue(p.waitFor("showing", count: 3, timeout: 60), "record never got going: \(p.stderr)")
            p.send(sig)
            let sent = Date()
            let end = p.finish(timeout: 30)
            XCTAssertFalse(end.killedBySignal, "\(name): killed by its signal: \(p.stderr)")
            XCTAssertEqual(end.status, 0, "\(name): \(p.stderr)")
            XCTAssertLessThan(Date().timeIntervalSince(sent), 10)
            let duration = Double(try FFmpegCLI.probe(out, "format=duration")) ?? 0
            XCTAssertGreaterThan(duration, 10, "\(name): the file holds the frames recorded before the signal")
            let frames = Int(try FFmpegCLI.probe(out, "stream=nb_frames")) ?? 0
            XCTAssertEqual(Double(frames) / 25, duration, accuracy: 0.05, "\(name): frames and duration agree")
            XCTAssertTrue(p.stderr.contains("recorded \(frames) frames"), p.stderr)
        }
    }

    /// A record with nothing playable (only a broken file) exits 1 and leaves no file. Before: a 48-byte mp4.
    func testRecordWithNothingToWriteLeavesNoFile() throws {
        let dir = try TempDir()
        let broken = dir.file("broken.png")
        try Data("not a png at all".utf8).write(to: URL(fileURLWithPath: broken))
        let out = dir.file("nothing.mp4")
        let r = try CLITests.run(["record", broken, "--output", out, "--size", "320x240", "--fps", "25"], timeout: 60)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "no file for a recording with no frame")
        XCTAssertTrue(r.stderr.contains("nothing playable"), r.stderr)
    }

    /// The output disk fills up mid-record (a 256 KiB file size limit): kiosk is not killed by SIGXFSZ, it says
    /// in one line which file could not be finished and why, and leaves no unplayable file behind.
    func testRecordPastTheFileSizeLimitFailsInOneLineAndLeavesNoBrokenFile() throws {
        let dir = try TempDir()
        let noise = dir.file("noise.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "nullsrc=size=320x240:rate=25,geq=random(1)*255:128:128",
                              "-t", "4", "-pix_fmt", "yuv420p", noise])
        let out = dir.file("full.mp4")
        // dash's ulimit -f counts 512-byte blocks: 512 blocks = 256 KiB.
        let p = try LiveProcess(["-c", "ulimit -f 512; exec \"$0\" \"$@\"", CLITests.kiosk, "record", noise,
                                 "--output", out, "--size", "320x240", "--fps", "25"], executable: "/bin/sh")
        let end = p.finish(timeout: 120)
        XCTAssertFalse(end.killedBySignal, "killed (SIGXFSZ?): \(p.stderr)")
        XCTAssertEqual(end.status, 1, p.stderr)
        let lines = p.stderr.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.contains(out) && $0.contains("File too large") }, p.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "an mp4 cut off before its index plays nowhere")
    }

    /// SIGQUIT ends play like SIGTERM: status 0 within a second, no crash backtrace. Before: a backtrace, and the
    /// process carried on.
    func testSIGQUITEndsPlayCleanlyLikeSIGTERM() throws {
        let dir = try TempDir()
        let a = try picture(dir)
        for sig in [SIGQUIT, SIGTERM, SIGINT] {
            let p = try LiveProcess(["play", a, "--length", "600", "--log-level", "info"] + Self.headless)
            XCTAssertTrue(p.waitFor("showing", timeout: 60), p.stderr)
            usleep(300_000)
            p.send(sig)
            let sent = Date()
            let end = p.finish(timeout: 20, from: sent)
            XCTAssertFalse(end.killedBySignal, "signal \(sig) killed play: \(p.stderr)")
            XCTAssertEqual(end.status, 0, p.stderr)
            XCTAssertLessThan(end.seconds, 1.0, "signal \(sig): play took \(end.seconds) s to stop")
            XCTAssertFalse(p.stderr.lowercased().contains("backtrace") || p.stderr.contains("Crash"), p.stderr)
            XCTAssertTrue(p.stderr.contains("played "), "signal \(sig): play ran to its end report: \(p.stderr)")
        }
    }

    /// SIGHUP reloads what the command line named and play goes on to its --length with status 0. Before: killed
    /// by SIGHUP.
    func testSIGHUPIsLoggedAndPlayGoesOn() throws {
        let dir = try TempDir()
        let a = try picture(dir)
        let p = try LiveProcess(["play", a, "--length", "4", "--log-level", "info"] + Self.headless)
        XCTAssertTrue(p.waitFor("showing", timeout: 60), p.stderr)
        let sent = Date()
        p.send(SIGHUP)
        let end = p.finish(timeout: 60, from: sent)
        XCTAssertFalse(end.killedBySignal, p.stderr)
        XCTAssertEqual(end.status, 0, p.stderr)
        XCTAssertEqual(p.stderr.components(separatedBy: "SIGHUP: reloading the config").count - 1, 1, p.stderr)
        XCTAssertTrue(p.stderr.contains("SIGHUP: reloaded: 1 item"), p.stderr)
        XCTAssertTrue(p.stderr.contains("played "), p.stderr)
    }

    /// Standard error's reader goes away after 100 bytes: play keeps playing (debug logging writes every frame)
    /// and exits 0 at --length, not killed by SIGPIPE. Before: killed by SIGPIPE at the next log line.
    func testPlayGoesOnWhenStderrIsClosed() throws {
        let dir = try TempDir()
        let a = try picture(dir)
        let p = try LiveProcess(["play", a, "--length", "3", "--duration", "1", "--log-level", "debug"] + Self.headless,
                                closeStderrAfter: 100)
        let end = p.finish(timeout: 60)
        XCTAssertFalse(end.killedBySignal, "killed by a signal (SIGPIPE?)")
        XCTAssertEqual(end.status, 0)
        XCTAssertGreaterThanOrEqual(end.seconds, 3, "played to its --length")
    }
}

private extension Array where Element == String {
    /// The arguments with `command` first.
    func withCommand(_ command: String) -> [String] { [command] + self }
}
