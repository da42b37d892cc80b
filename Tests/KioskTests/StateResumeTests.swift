import Foundation
import KioskCore
@testable import KioskPlayer
@testable import KioskRemote
import XCTest

/// `kiosk play --state-dir` across restarts, end to end: a real kiosk (headless, software GL) driven over its
/// IPC socket, stopped with SIGTERM and started again on the same folder. An 8-minute clip continues where it
/// was (the 7-minute rule now holds across restarts, for the clip on screen and for one left earlier); a
/// 30-second clip starts from its beginning; volume, mute and a pause come back. Every process and wait is
/// bounded.
final class StateResumeTests: XCTestCase {
    /// A 64x48 clip of `seconds` at 1 frame/s, every frame a keyframe (exact, cheap seeks), no sound.
    private func clip(_ dir: TempDir, _ name: String, seconds: Int) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x48:rate=1", "-t", "\(seconds)",
                              "-c:v", "mpeg4", "-g", "1", "-q:v", "10", path])
        return path
    }

    /// Starts kiosk on `files` with the IPC server and the state folder, and waits for it to listen.
    private func start(_ socket: String, state: String, _ files: [String]) throws -> LiveProcess {
        let p = try LiveProcess(["play", "--output", "headless", "--size", "64x48", "--transition", "none",
                                 "--input-ipc-server", socket, "--state-dir", state, "--log-level", "info"] + files)
        XCTAssertTrue(p.waitFor("ipc: listening on \(socket)", timeout: 20), p.stderr)
        return p
    }

    /// SIGTERM, a clean exit, and no warning about the state.
    private func stop(_ p: LiveProcess) {
        p.send(SIGTERM)
        let end = p.finish(timeout: 15)
        XCTAssertEqual(end.status, 0, p.stderr)
        XCTAssertFalse(p.stderr.contains("warn: state"), p.stderr)
    }

    /// Waits (bounded) until `property` reads a value `match` accepts; returns the last value read.
    @discardableResult
    private func waitFor(_ c: IPCConnection, _ property: String, timeout: Double = 15,
                         _ match: (JSONValue) -> Bool) -> JSONValue? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var last: JSONValue?
        while Date() < deadline {
            last = try? c.get(property)
            if let v = last, match(v) { return v }
            usleep(50_000)
        }
        XCTFail("\(property) never matched; last \(String(describing: last))")
        return last
    }

    /// Waits (bounded) until the state file holds a state `match` accepts.
    @discardableResult
    private func saved(_ folder: String, timeout: Double = 10, _ match: (PlayerState) -> Bool) -> PlayerState? {
        let store = StateStore(directory: folder, log: Log(level: .error, sink: { _ in }))
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if let s = store.load(), match(s) { return s }
            usleep(50_000)
        }
        XCTFail("the state file never matched; it holds \(String(describing: store.load()))")
        return nil
    }

    private func number(_ v: JSONValue?) -> Double { v?.number ?? -1 }

    func testLongClipVolumeMuteAndPauseSurviveRestarts() throws {
        let dir = try TempDir()
        let long = try clip(dir, "long.mp4", seconds: 480)
        let short = try clip(dir, "short.mp4", seconds: 30)
        let sock = dir.file("ipc.sock")
        let folder = dir.file("state")

        // Run 1: the long clip moved to 200 s, volume 30, muted; the state is saved (the seek is a jump of more
        // than 10 s); then SIGTERM.
        var p = try start(sock, state: folder, [long, short])
        var c = try IPCConnection(path: sock)
        waitFor(c, "path") { $0 == .string(long) }
        XCTAssertEqual(try c.request(#"["seek",200,"absolute"]"#)["error"], .string("success"))
        XCTAssertEqual(try c.request(#"["set_property","volume",30]"#)["error"], .string("success"))
        XCTAssertEqual(try c.request(#"["set_property","mute",true]"#)["error"], .string("success"))
        saved(folder) { $0.path == long && ($0.position ?? 0) >= 199 && $0.volume == 30 && $0.muted }
        stop(p)
        let afterFirst = saved(folder) { $0.path == long }
        XCTAssertGreaterThanOrEqual(afterFirst?.position ?? 0, 200, "saved at exit where it was")
        XCTAssertEqual(afterFirst?.paused, false)

        // Run 2: continues in the long clip near 200 s, at volume 30, muted, playing. Then the short clip, moved
        // to 20 s and paused (by the remote), is saved; SIGTERM.
        p = try start(sock, state: folder, [long, short])
        c = try IPCConnection(path: sock)
        XCTAssertTrue(p.waitFor("state: continuing at \(long) from ", timeout: 15), p.stderr)
        waitFor(c, "path") { $0 == .string(long) }
        let resumed = number(waitFor(c, "time-pos") { ($0.number ?? 0) >= 199 })
        XCTAssertLessThan(resumed, 220, "the long clip continues near where it was, not later")
        XCTAssertEqual(number(try c.get("volume")), 30)
        XCTAssertEqual(try c.get("mute"), .bool(true))
        XCTAssertEqual(try c.get("pause"), .bool(false))
        XCTAssertEqual(try c.request(#"["playlist-next"]"#)["error"], .string("success"))
        waitFor(c, "path") { $0 == .string(short) }
        XCTAssertEqual(try c.request(#"["seek",20,"absolute"]"#)["error"], .string("success"))
        XCTAssertEqual(try c.request(#"["set_property","pause",true]"#)["error"], .string("success"))
        let paused = saved(folder) { $0.path == short && $0.paused }
        XCTAssertGreaterThanOrEqual(paused?.resume[long] ?? 0, 199, "the long clip left is in the resume book")
        stop(p)

        // Run 3: the short clip, from its beginning (under 7 minutes: no resume), paused, volume 30, muted. The
        // long clip, asked for again, continues where run 2 left it.
        p = try start(sock, state: folder, [long, short])
        c = try IPCConnection(path: sock)
        waitFor(c, "path") { $0 == .string(short) }
        XCTAssertEqual(try c.get("pause"), .bool(true))
        XCTAssertLessThan(number(try c.get("time-pos")), 5, "a 30-second clip starts over")
        XCTAssertEqual(number(try c.get("volume")), 30)
        XCTAssertEqual(try c.get("mute"), .bool(true))
        XCTAssertEqual(try c.request(#"["playlist-prev"]"#)["error"], .string("success"))
        waitFor(c, "path") { $0 == .string(long) }
        let again = number(waitFor(c, "time-pos") { ($0.number ?? 0) >= 199 })
        XCTAssertLessThan(again, 220)
        stop(p)
        // beside the state, the folder holds the play log (plays.sqlite and SQLite's WAL files), nothing else
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix("plays.sqlite") },
                       [StateDirectory.fileName])
    }

    /// `--no-state` with `--state-dir` is a usage error; a state folder that cannot be made is one warn line and
    /// the player plays on.
    func testStateOptions() throws {
        let dir = try TempDir()
        let short = try clip(dir, "short.mp4", seconds: 2)
        let both = try CLITests.run(["play", "--output", "headless", "--size", "64x48", "--length", "0.5",
                                     "--state-dir", dir.file("s"), "--no-state", short], timeout: 30)
        XCTAssertEqual(both.status, 2, both.stderr)
        XCTAssertTrue(both.stderr.contains("--state-dir and --no-state"), both.stderr)
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir.file("file")))
        let bad = try CLITests.run(["play", "--output", "headless", "--size", "64x48", "--length", "1",
                                    "--state-dir", dir.file("file/state"), short], timeout: 30)
        XCTAssertEqual(bad.status, 0, bad.stderr)
        XCTAssertEqual(bad.stderr.split(separator: "\n").filter { $0.contains("state") }.count, 1, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("warn: state: mkdir \(dir.file("file/state"))"), bad.stderr)
        let none = try CLITests.run(["play", "--output", "headless", "--size", "64x48", "--length", "0.5", "--no-state", short],
                                    timeout: 30, environment: ["STATE_DIRECTORY": dir.file("unused")])
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("unused")), "--no-state writes nothing")
    }
}
