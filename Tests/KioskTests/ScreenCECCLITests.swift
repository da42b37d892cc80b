import Foundation
import XCTest

/// HDMI-CEC per screen (issue 40) through the real `kiosk` binary, with no adapter on the machine: a screen's own
/// `cec` and `cec-name` lines are checked where they stand (one line naming the section's `FILE:LINE`, by `play`
/// and by `check-config`), `cec = off` is off, and at start each screen's adapter that cannot be had is one line
/// naming the screen: one that is missing or no adapter, one another screen took first; the screens play on.
final class ScreenCECCLITests: XCTestCase {
    private func write(_ lines: [String], _ path: String) throws {
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    func testASectionsBadCECValueIsOneLineAtItsLine() throws {
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "red")
        let conf = dir.file("kiosk.conf")
        for (line, reason) in [("cec = hdmi", "--cec: 'hdmi' is not auto, off or a /dev/cecN path"),
                               ("cec = on", "--cec: 'on' is not auto, off or a /dev/cecN path"),
                               ("cec-name = a-name-far-too-long", "--cec-name: 'a-name-far-too-long' is not 1 to 14 printable ASCII characters"),
                               ("cec-standby = sometimes", "--cec-standby")] {
            try write(["screen = door:HDMI-A-1:\(a)", "screen = lobby:HDMI-A-2:\(a)", "[screen lobby]", "duration = 4", line], conf)
            let r = try CLITests.run(["play", "--config", conf, "--output", "headless", "--length", "1", "--no-state"], timeout: 30)
            XCTAssertEqual(r.status, 2, "\(line): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix("kiosk: \(conf):5: \(reason)"), "\(line): \(r.stderr)")
            let check = try CLITests.run(["check-config", conf], timeout: 30)
            XCTAssertEqual(check.status, 2, check.stderr)
            XCTAssertTrue(check.stderr.hasPrefix("kiosk: \(conf):5: \(reason)"), "\(line): \(check.stderr)")
            XCTAssertTrue(check.stderr.hasSuffix("kiosk: \(conf): 1 problem\n"), check.stderr)
        }
        // a global line's bad value is every screen's: check-config says it once, at its line
        try write(["cec = hdmi", "screen = door:HDMI-A-1:\(a)", "screen = lobby:HDMI-A-2:\(a)"], conf)
        let check = try CLITests.run(["check-config", conf], timeout: 30)
        XCTAssertEqual(check.status, 2, check.stderr)
        XCTAssertEqual(check.stderr, "kiosk: \(conf):1: --cec: 'hdmi' is not auto, off or a /dev/cecN path\nkiosk: \(conf): 1 problem\n")
    }

    func testCheckConfigListsEachScreensOwnAdapter() throws {
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "red")
        let conf = dir.file("kiosk.conf")
        try write(["screen = door:HDMI-A-1:\(a)", "screen = lobby:HDMI-A-2:\(a)", "[screen door]", "cec = off",
                   "[screen lobby]", "cec = /dev/cec3", "cec-name = Lobby"], conf)
        let r = try CLITests.run(["check-config", conf], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("screen door: single HDMI-A-1\n  source: \(a)\n  cec = off"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  cec = /dev/cec3"), r.stdout)
        XCTAssertTrue(r.stdout.contains("  cec-name = Lobby"), r.stdout)
    }

    /// Global `cec = /dev/null` (no adapter) is every screen's: door tries it (one line), hall has it after door
    /// (one line: door's already); lobby's own path is missing (one line); office's `cec = off` says nothing.
    func testEachScreensAdapterThatCannotBeHadIsOneLineNamingTheScreen() throws {
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "red"), b = try ColourPictures.make(dir, "b.png", "blue")
        let conf = dir.file("kiosk.conf"), missing = dir.file("cec9")
        try write(["cec = /dev/null", "size = 32x24",
                   "screen = door:HDMI-A-1:\(a)", "screen = lobby:HDMI-A-2:\(b)", "screen = office:HDMI-A-3:\(b)",
                   "screen = hall:HDMI-A-4:\(a)",
                   "[screen lobby]", "cec = \(missing)", "[screen office]", "cec = off"], conf)
        let r = try CLITests.run(["play", "--config", conf, "--output", "headless", "--length", "1.5", "--no-state",
                                  "--log-level", "info"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("cec") }
        XCTAssertEqual(lines.count, 3, r.stderr)
        func line(_ screen: String) -> String { lines.first { $0.hasPrefix("kiosk: info: screen \(screen): cec: ") }.map(String.init) ?? "" }
        XCTAssertTrue(line("door").contains("/dev/null: not a CEC adapter"), r.stderr)
        XCTAssertTrue(line("lobby").contains("\(missing): No such file or directory"), r.stderr)
        XCTAssertEqual(line("hall"), "kiosk: info: screen hall: cec: /dev/null is screen door's already: the screen's power is DPMS alone")
        for screen in ["door", "lobby"] { XCTAssertTrue(line(screen).hasSuffix("the screen's power is DPMS alone"), r.stderr) }
        for screen in ["door", "lobby", "office", "hall"] { XCTAssertTrue(r.stderr.contains("screen \(screen): showing "), r.stderr) }
    }
}
