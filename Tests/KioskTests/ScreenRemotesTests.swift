import Foundation
import KioskCore
import XCTest

/// A remote addresses a screen of several (issue 40): with `--input-ipc-server PATH`, the first screen answers on
/// PATH and each further screen on `PATH.NAME` (`kiosk ctl --screen NAME`); each socket reads its own screen's
/// properties and its commands act on that screen only; an alert naming no screen shows on every screen; a screen
/// that is not there is one line.
final class ScreenRemotesTests: XCTestCase {
    func testEachScreenHasItsSocketAndAnAlertReachesEvery() throws {
        let dir = try TempDir()
        let files = try ["red.png", "green.png", "blue.png"].map { try ColourPictures.make(dir, $0, String($0.dropLast(4))) }
        let sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", "--screen", "door:HDMI-A-1:\(files[0])", "--screen", "lobby:HDMI-A-2:\(dir.path)",
                                 "--output", "headless", "--size", "64x48", "--duration", "30", "--no-state",
                                 "--input-ipc-server", sock, "--log-level", "info"])
        defer {
            p.send(SIGTERM)
            XCTAssertEqual(p.finish(timeout: 15).status, 0, p.stderr)
        }
        XCTAssertTrue(p.waitFor("screen lobby: showing", timeout: 20), p.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: sock + ".lobby"), "the second screen's socket")
        let door = try IPCConnection(path: sock), lobby = try IPCConnection(path: sock + ".lobby")
        XCTAssertEqual(try door.get("playlist-count"), .int(1))
        XCTAssertEqual(try lobby.get("playlist-count"), .int(3), "lobby plays the folder's three pictures")
        XCTAssertEqual(try door.get("path"), .string(files[0]))
        // each socket's screenshot is its own screen's picture (the screens share one GL context, each its framebuffer)
        let size = PixelSize(width: 64, height: 48)
        for (c, name) in [(door, "door"), (lobby, "lobby")] {
            let shot = dir.file("shot-\(name).png")
            XCTAssertEqual(try c.request(#"["screenshot-to-file","\#(shot)"]"#)["error"], .string("success"))
            guard case .string(let path)? = try c.get("path") else { return XCTFail("no path on \(name)") }
            let got = try FFmpegCLI.referenceRGBA(shot, size: size), want = try FFmpegCLI.referenceRGBA(path, size: size)
            XCTAssertGreaterThan(RenderTestSupport.psnr(got, want), 35, "\(name)'s screenshot shows \(path)")
        }
        // a command on lobby's socket acts on lobby only
        XCTAssertEqual(try lobby.request(#"["set_property","pause",true]"#)["error"], .string("success"))
        XCTAssertEqual(try lobby.get("pause"), .bool(true))
        XCTAssertEqual(try door.get("pause"), .bool(false), "door plays on")
        XCTAssertEqual(try lobby.request(#"["playlist-next"]"#)["error"], .string("success"))
        XCTAssertTrue(p.waitFor("screen lobby: showing", count: 2, timeout: 10), p.stderr)
        XCTAssertEqual(try door.get("path"), .string(files[0]), "door still shows its one picture")
        // kiosk ctl --screen reads the same socket
        let status = try CLITests.run(["ctl", "--socket", sock, "--screen", "lobby", "get", "playlist-count"], timeout: 20)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertEqual(status.stdout, "3\n")
        let missing = try CLITests.run(["ctl", "--socket", sock, "--screen", "hall", "get", "path"], timeout: 20)
        XCTAssertEqual(missing.status, 1, missing.stderr)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.contains(sock + ".hall"), missing.stderr)
        // an alert naming no screen (the first screen's socket) shows on every screen
        XCTAssertEqual(try door.request(#"["alert","fire drill"]"#)["error"], .string("success"))
        for c in [door, lobby] {
            XCTAssertTrue(try eventually(5) { (try? c.get("kiosk-alert")) == .string("fire drill") }, "both screens show the alert")
        }
    }

    /// SIGHUP reads the config again for every screen: each gets its own section's paths and settings, and a
    /// section that no longer parses changes nothing on any screen (one line naming its FILE:LINE).
    func testAReloadGivesEachScreenItsOwnSection() throws {
        let dir = try TempDir()
        let files = try ["red.png", "green.png", "blue.png"].map { try ColourPictures.make(dir, $0, String($0.dropLast(4))) }
        let conf = dir.file("kiosk.conf"), sock = dir.file("ipc.sock")
        func config(_ lobby: [String]) throws {
            try (["duration = 30", "screen = door:HDMI-A-1:", "screen = lobby:HDMI-A-2:", "[screen door]", "path = \(files[0])",
                  "[screen lobby]"] + lobby).joined(separator: "\n").write(toFile: conf, atomically: true, encoding: .utf8)
        }
        try config(["path = \(files[1])"])
        let p = try LiveProcess(["play", "--config", conf, "--output", "headless", "--size", "32x24", "--no-state",
                                 "--input-ipc-server", sock, "--log-level", "info"])
        defer {
            p.send(SIGTERM)
            XCTAssertEqual(p.finish(timeout: 15).status, 0, p.stderr)
        }
        XCTAssertTrue(p.waitFor("screen lobby: showing \(files[1])", timeout: 20), p.stderr)
        let door = try IPCConnection(path: sock), lobby = try IPCConnection(path: sock + ".lobby")
        try config(["path = \(files[1])", "path = \(files[2])", "duration = 12"])
        p.send(SIGHUP)
        XCTAssertTrue(p.waitFor("SIGHUP: reloaded screen lobby: 2 items", timeout: 10), p.stderr)
        XCTAssertTrue(p.waitFor("SIGHUP: reloaded screen door: 1 item", timeout: 10), p.stderr)
        XCTAssertTrue(try eventually(5) { (try? lobby.get("playlist-count")) == .int(2) }, "lobby's section's two paths")
        XCTAssertEqual(try lobby.get("image-display-duration"), .double(12))
        XCTAssertEqual(try door.get("playlist-count"), .int(1))
        XCTAssertEqual(try door.get("image-display-duration"), .double(30), "door keeps the global duration")
        try config(["path = \(files[2])", "duration = -1"])
        p.send(SIGHUP)
        XCTAssertTrue(p.waitFor("SIGHUP: not reloaded: \(conf):8: --duration", timeout: 10), p.stderr)
        XCTAssertEqual(try lobby.get("playlist-count"), .int(2), "nothing changed")
    }

    /// The state file keeps where every screen was: after a restart each screen shows the item it showed, paused
    /// if it was; the file's top level is the first screen's (a one-screen file is unchanged) and `screens` the rest.
    func testEachScreenComesBackWhereItWasAfterARestart() throws {
        let dir = try TempDir()
        let files = try ["red.png", "green.png", "blue.png"].map { try ColourPictures.make(dir, $0, String($0.dropLast(4))) }
        let sock = dir.file("ipc.sock"), state = dir.file("state")
        let args = ["play", "--screen", "door:HDMI-A-1:\(dir.path)", "--screen", "lobby:HDMI-A-2:\(dir.path)", "--output", "headless",
                    "--size", "32x24", "--duration", "30", "--transition", "none", "--input-ipc-server", sock, "--state-dir", state,
                    "--log-level", "info"]
        do {
            let p = try LiveProcess(args)
            XCTAssertTrue(p.waitFor("screen lobby: showing", timeout: 20), p.stderr)
            let door = try IPCConnection(path: sock), lobby = try IPCConnection(path: sock + ".lobby")
            // the folder plays by name: blue, green, red; each step waits for the one before (two nexts within one
            // decode may land as one)
            XCTAssertEqual(try door.request(#"["playlist-next"]"#)["error"], .string("success"))  // door: green
            for want in [files[1], files[0]] {  // lobby: green, then red
                XCTAssertEqual(try lobby.request(#"["playlist-next"]"#)["error"], .string("success"))
                XCTAssertTrue(try eventually(10) { (try? lobby.get("path")) == .string(want) }, "lobby on \(want)")
            }
            XCTAssertEqual(try lobby.request(#"["set_property","pause",true]"#)["error"], .string("success"))
            XCTAssertTrue(try eventually(5) { (try? lobby.get("path")) == .string(files[0]) && (try? door.get("path")) == .string(files[1]) })
            p.send(SIGTERM)
            XCTAssertEqual(p.finish(timeout: 15).status, 0, p.stderr)
        }
        let saved = try String(contentsOfFile: state + "/state.json", encoding: .utf8)
        let json = try JSONValue.parse(Array(saved.utf8))
        XCTAssertEqual(json["path"], .string(files[1]), saved)
        XCTAssertEqual(json["screens"]?["lobby"]?["path"], .string(files[0]), saved)
        XCTAssertEqual(json["screens"]?["lobby"]?["paused"], .bool(true), saved)
        let p = try LiveProcess(args)
        defer {
            p.send(SIGTERM)
            XCTAssertEqual(p.finish(timeout: 15).status, 0, p.stderr)
        }
        XCTAssertTrue(p.waitFor("screen lobby: showing \(files[0])", timeout: 20), p.stderr)
        XCTAssertTrue(p.waitFor("screen door: showing \(files[1])", timeout: 20), p.stderr)
        let lobby = try IPCConnection(path: sock + ".lobby"), door = try IPCConnection(path: sock)
        XCTAssertEqual(try lobby.get("pause"), .bool(true), "lobby comes back paused")
        XCTAssertEqual(try door.get("pause"), .bool(false))
    }
}
