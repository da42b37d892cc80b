import Foundation
import KioskCore
import XCTest

/// Issue 23 item 3: a stop signal stops `kiosk play` within 2 s even while the frame loop is stuck. The loop is
/// really blocked (`KIOSK_TEST_STALL_FRAME`: one frame sleeps 60 s on the loop's thread) and a real process gets
/// the signal; before the watchdog it ran on until the frame ended, 60 s later. An unstuck kiosk still stops the
/// clean way (its end report, status 0, the state saved).
final class StuckStopTests: XCTestCase {
    private static let stuckLine = "the frame loop is stuck"

    /// A picture, and a kiosk playing it with its state kept in `state` (stalled with `stall` seconds).
    private func start(_ dir: TempDir, state: String, stall: Double?) throws -> LiveProcess {
        let picture = dir.file("a.png")
        if !FileManager.default.fileExists(atPath: picture) {
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240", "-frames:v", "1", picture])
        }
        let play = [CLITests.kiosk, "play", picture, "--length", "600", "--state-dir", state, "--log-level", "info",
                    "--output", "headless", "--size", "320x240"]
        // env execs kiosk, so the process watched and signalled is kiosk itself.
        return try LiveProcess((stall.map { ["KIOSK_TEST_STALL_FRAME=\($0)"] } ?? []) + play, executable: "/usr/bin/env")
    }

    /// The state file kiosk saved in `state`, as text ("" when there is none).
    private func savedState(_ state: String) -> String {
        (try? String(contentsOfFile: state + "/state.json", encoding: .utf8)) ?? ""
    }

    /// SIGTERM (sent twice) and SIGINT while one frame is stuck for 60 s: kiosk exits within 2.5 s of the first
    /// signal with 128 + the signal's number, after one line saying the loop was stuck, and leaves its state file.
    func testStopSignalEndsAStuckFrameLoopWithinTwoSeconds() throws {
        let dir = try TempDir()
        for (sig, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            let state = dir.file("state-\(name)")
            let p = try start(dir, state: state, stall: 60)
            XCTAssertTrue(p.waitFor("this frame stalls the loop", timeout: 60), "\(name): never stalled: \(p.stderr)")
            usleep(200_000)  // well inside the stalled frame
            p.send(sig)
            let sent = Date()
            if sig == SIGTERM {
                usleep(300_000)
                p.send(sig)  // a second SIGTERM must not start a second watchdog
            }
            let end = p.finish(timeout: 15, from: sent)
            XCTAssertLessThan(end.seconds, 2.5, "\(name): kiosk took \(end.seconds) s to stop a stuck loop: \(p.stderr)")
            XCTAssertFalse(end.killedBySignal, "\(name): \(p.stderr)")
            XCTAssertEqual(end.status, 128 + sig, "\(name): \(p.stderr)")
            let lines = p.stderr.split(separator: "\n").filter { $0.contains(Self.stuckLine) }
            XCTAssertEqual(lines.count, 1, "\(name): one line says the loop was stuck: \(p.stderr)")
            XCTAssertTrue(lines.first?.contains(name) == true && lines.first?.contains("without a clean stop") == true,
                          "\(name): \(p.stderr)")
            XCTAssertFalse(p.stderr.contains("the stalled frame ended"), "\(name): the frame was still stuck")
            XCTAssertFalse(p.stderr.contains("played "), "\(name): no clean end report from a stuck loop")
            XCTAssertTrue(savedState(state).contains("a.png"), "\(name): the state as last saved: '\(savedState(state))'")
        }
    }

    /// `kiosk record` stuck in a frame (the same watchdog as play): SIGTERM ends it with 143 within the grace
    /// and one line, and its partial file (an MP4 the encoder never finished, so without its trailer) is removed,
    /// which that line says.
    func testStopSignalEndsAStuckRecordingAndRemovesItsPartialFile() throws {
        let dir = try TempDir()
        let picture = dir.file("a.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240", "-frames:v", "1", picture])
        let out = dir.file("out.mp4")
        let record = [CLITests.kiosk, "record", picture, "--output", out, "--size", "320x240", "--length", "600",
                      "--log-level", "info"]
        let p = try LiveProcess(["KIOSK_TEST_STALL_FRAME=60"] + record, executable: "/usr/bin/env")
        XCTAssertTrue(p.waitFor("this frame stalls the loop", timeout: 60), "never stalled: \(p.stderr)")
        usleep(200_000)  // well inside the stalled frame
        p.send(SIGTERM)
        let sent = Date()
        let end = p.finish(timeout: 15, from: sent)
        XCTAssertLessThan(end.seconds, 2.5, "record took \(end.seconds) s to stop a stuck loop: \(p.stderr)")
        XCTAssertFalse(end.killedBySignal, p.stderr)
        XCTAssertEqual(end.status, 128 + SIGTERM, p.stderr)
        let lines = p.stderr.split(separator: "\n").filter { $0.contains(Self.stuckLine) }
        XCTAssertEqual(lines.count, 1, "one line says the loop was stuck: \(p.stderr)")
        XCTAssertTrue(lines.first?.contains("SIGTERM") == true
                      && lines.first?.contains("removed the partial recording \(out)") == true, p.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "the unfinished recording is gone")
        XCTAssertFalse(p.stderr.contains("recorded "), "no clean end report from a stuck loop: \(p.stderr)")
    }

    /// No stall: SIGTERM and SIGINT still end play the clean way, through the loop (end report, status 0, state
    /// saved), and the watchdog says nothing.
    func testUnstuckPlayStillStopsCleanly() throws {
        let dir = try TempDir()
        for (sig, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            let state = dir.file("state-\(name)")
            let p = try start(dir, state: state, stall: nil)
            XCTAssertTrue(p.waitFor("showing", timeout: 60), "\(name): \(p.stderr)")
            usleep(300_000)
            p.send(sig)
            let sent = Date()
            let end = p.finish(timeout: 15, from: sent)
            XCTAssertEqual(end.status, 0, "\(name): \(p.stderr)")
            XCTAssertLessThan(end.seconds, 2.5, "\(name): \(p.stderr)")
            XCTAssertTrue(p.stderr.contains("played 1 items"), "\(name): the clean end report: \(p.stderr)")
            XCTAssertFalse(p.stderr.contains(Self.stuckLine), "\(name): \(p.stderr)")
            XCTAssertTrue(savedState(state).contains("a.png"), "\(name): '\(savedState(state))'")
        }
    }

    /// A stall the loop ends by itself before the grace period is over: the watchdog stands down and kiosk stops
    /// the clean way (so the watchdog waits for the loop, it does not exit at once).
    func testAShortStallStillStopsCleanly() throws {
        let dir = try TempDir()
        let state = dir.file("state")
        let p = try start(dir, state: state, stall: 0.5)
        XCTAssertTrue(p.waitFor("this frame stalls the loop", timeout: 60), p.stderr)
        p.send(SIGTERM)
        let end = p.finish(timeout: 15)
        XCTAssertEqual(end.status, 0, p.stderr)
        XCTAssertTrue(p.stderr.contains("the stalled frame ended") && p.stderr.contains("played 1 items"), p.stderr)
        XCTAssertFalse(p.stderr.contains(Self.stuckLine), p.stderr)
    }
    /// The list the watchdog gives back from: each undo runs once, newest first, and one removed by its owner's
    /// clean release does not run.
    func testExitRestoreRunsWhatIsStillHeldOnceNewestFirst() {
        let restore = ExitRestore()
        let ran = RanUndos()
        restore.add("console mode") { ran.note("console") }
        let released = restore.add("released") { ran.note("released") }
        restore.add("DRM master") { ran.note("drm") }
        restore.remove(released)
        XCTAssertEqual(restore.pending, ["console mode", "DRM master"])
        XCTAssertEqual(restore.runAll(), ["DRM master", "console mode"])
        XCTAssertEqual(ran.names, ["drm", "console"])
        XCTAssertEqual(restore.runAll(), [], "nothing runs twice")
    }
}

/// The undos a test saw run, in order (they may run on any thread).
private final class RanUndos: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    /// Notes that `name` ran.
    func note(_ name: String) { lock.lock(); list.append(name); lock.unlock() }
    /// The names in the order they ran.
    var names: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
