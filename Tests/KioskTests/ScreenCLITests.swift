import Foundation
import XCTest

/// Several screens (issue 40) through the real `kiosk` binary: `check-config` lists each screen as it resolves
/// (or each problem at its FILE:LINE, exit 2), and `play --screen` plays one screen on one connector (under
/// `--output headless` a connector is only a label) and several screens in one loop (a span composed across its
/// panels, a mirror at one's size), and refuses a bad spec with one line; a further screen follows its own schedule.
/// (A URL on a further screen: `ContentScreensTests`.)
final class ScreenCLITests: XCTestCase {
    private func write(_ text: String, _ path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func testCheckConfigListsTwoScreensAsTheyResolve() throws {
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "red"), b = try ColourPictures.make(dir, "b.png", "blue")
        let conf = dir.file("kiosk.conf")
        try write("""
        # lobby and a two-panel wall
        duration = 5
        clock = %H:%M
        screen = lobby:HDMI-A-1:\(a)
        screen = wall:DP-1+DP-2:
        screen = menu:HDMI-A-2,DP-3:https://cms.example:8443/menu.smil

        [screen lobby]
        duration = 8
        rotate = 90
        [screen wall]
        bezel = 40
        path = \(b)
        path = \(dir.path)
        clock = off
        """, conf)
        let r = try CLITests.run(["check-config", conf], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(r.stdout, """
        \(conf): ok
        no schedule above the screens
        screens: 3
        screen lobby: single HDMI-A-1
          source: \(a)
          rotate = 90 (global off)
          duration = 8 (global 5)
        screen wall: span DP-1+DP-2, bezel 40 px
          sources: \(b) \(dir.path)
          clock = off (global %H:%M)
        screen menu: mirror HDMI-A-2,DP-3
          source: https://cms.example:8443/menu.smil
          (the global options, none of its own)

        """)
    }

    func testCheckConfigNamesEveryScreenProblemAtItsLine() throws {
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "red")
        let conf = dir.file("kiosk.conf")
        try write("""
        screen = lobby:HDMI-A-1:\(a)
        screen = wall:DP-1+DP-2,DP-3:
        screen = side:HDMI-A-2:\(dir.file("missing.png"))
        [screen lobby]
        output = headless
        bezel = 10
        transition = spin
        [screen nobody]
        duration = 2
        [settings]
        """, conf)
        let r = try CLITests.run(["check-config", conf], timeout: 30)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(r.stdout, "")
        let expected = [
            "\(conf):2: --screen wall: 'DP-1+DP-2,DP-3' mixes + (a span) and , (a mirror)",
            "\(conf):3: '\(dir.file("missing.png"))': no such file or folder",
            "\(conf):5: 'output' applies to the whole player, not to one screen (move it above the first [screen] section)",
            "\(conf):6: --screen lobby: bezel is for a span (A+B); lobby is single HDMI-A-1",
            "\(conf):7: --transition: 'spin' is not one of",
            "\(conf):8: [screen nobody]: no --screen or 'screen =' line names screen 'nobody'",
            "\(conf):10: expected 'name = value', got '[settings]'",
        ]
        for e in expected { XCTAssertTrue(r.stderr.contains("kiosk: " + e), "missing '\(e)' in:\n\(r.stderr)") }
        XCTAssertTrue(r.stderr.hasSuffix("kiosk: \(conf): \(expected.count) problems\n"), r.stderr)
    }

    func testPlayOneScreenOnOneConnectorWithItsSectionsOptions() throws {
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "red")
        let conf = dir.file("kiosk.conf")
        try write("size = 48x32\n[screen lobby]\nsize = 64x36\n", conf)
        let r = try CLITests.run(["play", "--config", conf, "--screen", "lobby:HDMI-A-9:\(a)", "--output", "headless",
                                  "--length", "1", "--no-state", "--log-level", "info"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("output: headless 64x36"), "the section's size, not the global 48x32: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("showing \(a)"), r.stderr)
        XCTAssertLessThan(r.seconds, 30)
    }

    /// Two screens from one `kiosk play`: each its own canvas (the section's size for lobby), its own picture, in one
    /// loop, each line naming its screen.
    func testPlayTwoScreensEachWithItsOwnSourceAndSize() throws {
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "red"), b = try ColourPictures.make(dir, "b.png", "blue")
        let conf = dir.file("kiosk.conf")
        try write("size = 48x32\n[screen lobby]\nsize = 64x36\n", conf)
        let r = try CLITests.run(["play", "--config", conf, "--screen", "door:HDMI-A-1:\(a)", "--screen", "lobby:HDMI-A-2:\(b)",
                                  "--output", "headless", "--length", "1.5", "--no-state", "--log-level", "info"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("output: headless 48x32 for screen door"), r.stderr)
        XCTAssertTrue(r.stderr.contains("output: headless 64x36 for screen lobby"), "the section's size: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("kiosk: info: screen door: showing \(a)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("kiosk: info: screen lobby: showing \(b)"), r.stderr)
        XCTAssertFalse(r.stderr.contains("screen door: showing \(b)") || r.stderr.contains("screen lobby: showing \(a)"), r.stderr)
        XCTAssertLessThan(r.seconds, 30)
    }

    func testPlayComposesASpanAcrossItsPanelsAndAMirrorAtItsSizeAndRefusesBadSpecsInOneLine() throws {
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "red")
        // headless, a span composes on its panels side by side (the bezel between them), a mirror at one's size
        let shapes: [([String], [String])] = [
            (["w:DP-1+DP-2:\(a)", "--bezel", "4"], ["output: headless 100x32"]),
            (["m:DP-1,DP-2:\(a)"], ["output: headless 48x32"]),
            (["a:HDMI-A-1:\(a)", "--screen", "w:DP-1+DP-2+DP-3:\(a)"],
             ["output: headless 48x32 for screen a", "output: headless 144x32 for screen w"]),
        ]
        for (screens, lines) in shapes {
            let r = try CLITests.run(["play", "--output", "headless", "--size", "48x32", "--length", "1", "--no-state",
                                      "--log-level", "info", "--screen"] + screens, timeout: 30)
            XCTAssertEqual(r.status, 0, "\(screens): \(r.stderr)")
            for line in lines { XCTAssertTrue(r.stderr.contains(line), "\(screens): \(line) in \(r.stderr)") }
        }
        let cases: [([String], String)] = [
            (["--screen", "Lobby:HDMI-A-1:\(a)"], "kiosk: --screen 'Lobby:HDMI-A-1:\(a)': a screen NAME is"),
            (["--screen", "a:HDMI-A-1:\(a)", "--drm-connector", "HDMI-A-1"], "kiosk: --drm-connector and --screen do not go together"),
            (["--screen", "a:HDMI-A-1:"], "kiosk: --screen a: no SOURCE"),
        ]
        for (args, line) in cases {
            let r = try CLITests.run(["play", "--output", "headless", "--length", "1", "--no-state"] + args, timeout: 30)
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix(line), "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, "one line: \(r.stderr)")
        }
    }

    /// A further screen follows its own schedule (its section's `schedule`): at the window's edge it turns to the
    /// window's folder while the first screen plays on with its own picture.
    func testAFurtherScreenFollowsItsOwnSchedule() throws {
        let dir = try TempDir()
        let door = try ColourPictures.make(dir, "door.png", "red")
        _ = try ColourPictures.make(dir, "fallback.png", "blue")
        try FileManager.default.createDirectory(atPath: dir.file("day"), withIntermediateDirectories: true)
        _ = try ColourPictures.make(dir, "day/green.png", "green")
        let schedule = dir.file("lobby.schedule")
        try write("*       09:00-10:00  \(dir.file("day"))\nfallback             \(dir.file("fallback.png"))\n", schedule)
        let conf = dir.file("kiosk.conf")
        try write("screen = door:HDMI-A-1:\(door)\nscreen = lobby:HDMI-A-2:\n[screen lobby]\nschedule = \(schedule)\n", conf)
        let r = try CLITests.run(["play", "--config", conf, "--output", "headless", "--size", "32x24", "--length", "4", "--no-state",
                                  "--start-time", "2026-12-24T08:59:58", "--timezone", "UTC", "--log-level", "info"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        let fallback = lines.firstIndex { $0.contains("screen lobby: showing \(dir.file("fallback.png"))") }
        let day = lines.firstIndex { $0.contains("screen lobby: showing \(dir.file("day/green.png"))") }
        XCTAssertNotNil(fallback, r.stderr)
        XCTAssertNotNil(day, "the 09:00 window: \(r.stderr)")
        XCTAssertLessThan(fallback ?? .max, day ?? -1, "the fallback first, then the window")
        XCTAssertTrue(r.stderr.contains("screen door: showing \(door)"), r.stderr)
        XCTAssertFalse(lines.contains { $0.contains("screen door: showing") && !$0.contains(door) }, "door keeps its own: \(r.stderr)")
    }
}
