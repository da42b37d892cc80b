import Foundation
import KioskCore
import XCTest

/// SIGHUP reloads the config of a running `kiosk play --config FILE`: the playlist, the settings and the
/// schedule; the item on screen stays (same entry, no end-file) while it is still listed; a config that no longer
/// parses changes nothing (one warn line naming the line).
final class ConfigReloadTests: XCTestCase {
    func testSIGHUPReloadsTheConfigKeepingTheItemOnScreen() throws {
        let dir = try TempDir()
        let files = try ["red", "green", "blue"].map { c -> String in
            let p = dir.file("\(c).png")
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=\(c):s=32x24", "-frames:v", "1", p])
            return p
        }
        let conf = dir.file("kiosk.conf"), sock = dir.file("ipc.sock")
        func config(_ lines: [String]) throws { try lines.joined(separator: "\n").write(toFile: conf, atomically: true, encoding: .utf8) }
        try config(["duration = 30", "transition = none", "path = \(files[0])", "path = \(files[1])"])
        let p = try LiveProcess(["play", "--config", conf, "--output", "headless", "--size", "32x24", "--no-state",
                                 "--input-ipc-server", sock, "--log-level", "info"])
        defer {
            p.send(SIGTERM)
            XCTAssertEqual(p.finish(timeout: 15).status, 0, p.stderr)
        }
        XCTAssertTrue(p.waitFor("showing \(files[0])", timeout: 20), p.stderr)
        let c = try IPCConnection(path: sock)
        XCTAssertEqual(try c.request(#"["observe_property",1,"image-display-duration"]"#)["error"], .string("success"))
        XCTAssertEqual(try c.request(#"["observe_property",2,"path"]"#)["error"], .string("success"))
        // 1. The item on screen is still listed: it stays (same entry id); the new list and duration apply.
        try config(["duration = 12", "transition = none", "path = \(files[0])", "path = \(files[2])"])
        p.send(SIGHUP)
        XCTAssertTrue(p.waitFor("SIGHUP: reloaded: 2 items", timeout: 10), p.stderr)
        XCTAssertNotNil(try c.waitForEvent("property-change") { $0["id"] == .int(1) && $0["data"] == .double(12) }, "\(c.events)")
        let list = try c.get("playlist")
        guard case .array(let entries)? = list else { return XCTFail("\(String(describing: list))") }
        XCTAssertEqual(entries.compactMap { $0["filename"]?.string }, [files[0], files[2]])
        XCTAssertEqual(entries.first?["id"], .int(1), "the same entry: it was not replaced")
        XCTAssertEqual(try c.get("path"), .string(files[0]))
        XCTAssertEqual(try c.get("image-display-duration"), .double(12))
        XCTAssertFalse(c.events.contains { $0["event"] == .string("end-file") }, "\(c.events)")
        // 2. A config that no longer parses: nothing changes, one warn line naming the line.
        try config(["duration = -1", "path = \(files[1])"])
        p.send(SIGHUP)
        XCTAssertTrue(p.waitFor("SIGHUP: not reloaded: \(conf):1: --duration", timeout: 10), p.stderr)
        XCTAssertEqual(try c.get("playlist-count"), .int(2))
        // 3. The item on screen is gone from the new config: the slideshow moves on to the new list.
        try config(["duration = 12", "transition = none", "path = \(files[1])"])
        p.send(SIGHUP)
        XCTAssertNotNil(try c.waitForEvent("property-change") { $0["id"] == .int(2) && $0["data"] == .string(files[1]) }, "\(c.events)")
        XCTAssertEqual(try c.get("playlist-count"), .int(1))
    }

    /// The health alerts' thresholds are reloaded too: storage alerts off, then at 100 % (any disk is below it):
    /// raised at the next rounds; a bad threshold changes nothing (one line naming the line); off again: cleared once.
    func testSIGHUPReloadsTheHealthThresholds() throws {
        let dir = try TempDir()
        let still = dir.file("red.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=red:s=32x24", "-frames:v", "1", still])
        let conf = dir.file("kiosk.conf")
        func config(_ storage: String) throws {
            try ["duration = 30", "health-interval = 0.5", "health-alert-storage = \(storage)", "path = \(still)"]
                .joined(separator: "\n").write(toFile: conf, atomically: true, encoding: .utf8)
        }
        try config("off")
        // the play log's folder is a folder whose free space is read
        let p = try LiveProcess(["play", "--config", conf, "--output", "headless", "--size", "32x24", "--no-state",
                                 "--play-log", dir.file("plays.sqlite"), "--log-level", "info"])
        defer {
            p.send(SIGTERM)
            XCTAssertEqual(p.finish(timeout: 15).status, 0, p.stderr)
        }
        XCTAssertTrue(p.waitFor("showing \(still)", timeout: 20), p.stderr)
        Thread.sleep(forTimeInterval: 1.5)  // three rounds with the storage alert off
        XCTAssertFalse(p.stderr.contains("health: raised storage-low"), p.stderr)
        try config("100")
        p.send(SIGHUP)
        XCTAssertTrue(p.waitFor("SIGHUP: reloaded: 1 item and the health thresholds", timeout: 10), p.stderr)
        XCTAssertTrue(p.waitFor("health: raised storage-low", timeout: 10), p.stderr)
        try config("150")
        p.send(SIGHUP)
        XCTAssertTrue(p.waitFor("SIGHUP: not reloaded: \(conf):3: --health-alert-storage", timeout: 10), p.stderr)
        try config("off")
        p.send(SIGHUP)
        XCTAssertTrue(p.waitFor("health: cleared storage-low", timeout: 10), p.stderr)
        let raised = p.stderr.components(separatedBy: "health: raised storage-low").count - 1
        let cleared = p.stderr.components(separatedBy: "health: cleared storage-low").count - 1
        XCTAssertEqual(raised, 1, "raised once, not again after the bad config: \(p.stderr)")
        XCTAssertEqual(cleared, 1, p.stderr)
        // the same config again: nothing to say about the thresholds
        p.send(SIGHUP)
        XCTAssertTrue(p.waitFor("SIGHUP: reloaded: 1 item\n", timeout: 10), p.stderr)
    }
}
