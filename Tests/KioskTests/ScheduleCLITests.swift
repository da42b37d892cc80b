import Foundation
import KioskCore
import XCTest

/// `--schedule` end to end: `kiosk record --schedule --start-time` on its virtual clock shows the screen off
/// (black), then the scheduled folder from the frame of the window's edge; bad schedule files and flags are
/// usage errors naming the file and line.
final class ScheduleCLITests: XCTestCase {
    private let size = PixelSize(width: 64, height: 48)

    func testRecordShowsOffThenTheWindowFromItsEdge() throws {
        let dir = try TempDir()
        _ = try ColourPictures.make(dir, "fallback.png", "red")
        try FileManager.default.createDirectory(atPath: dir.file("day"), withIntermediateDirectories: true)
        _ = try ColourPictures.make(dir, "day/green.png", "0x00ff00")
        let schedule = dir.file("schedule")
        try """
        # days  time         target
        *       09:00-10:00  day
        *       08:00-09:00  off
        fallback             fallback.png
        """.write(toFile: schedule, atomically: true, encoding: .utf8)
        let out = dir.file("out.y4m")
        // 08:59:58 Berlin time: two seconds of `off`, then the 09:00 window, at 10 frames/s.
        let r = try CLITests.run(["record", "--schedule", schedule, "--start-time", "2026-12-24T08:59:58",
                                  "--timezone", "Europe/Berlin", "--size", "64x48", "--fps", "10", "--length", "4",
                                  "--transition", "none", "--output", out, "--log-level", "info"], timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("schedule: line 3: screen off until Thu 2026-12-24 09:00:00"), r.stderr)
        XCTAssertTrue(r.stderr.contains("schedule: line 2: playing \(dir.file("day")) (1 item) until Thu 2026-12-24 10:00:00"), r.stderr)
        let frames = try FFmpegCLI.referenceFrames(out, size: size)
        XCTAssertEqual(frames.count, 40)
        for (i, f) in frames.enumerated() {
            let want = i < 20 ? [0, 0, 0] : [0, 255, 0]
            XCTAssertTrue(ColourPictures.near(ColourPictures.centre(f), want), "frame \(i) (\(Double(i) / 10) s): \(ColourPictures.centre(f)), want \(want)")
        }
        // The window's edge to the frame: nothing but black before it, the folder from it on.
    }

    /// `#EXTKIOSK:days=…,from=…,to=…` in a playlist: an item plays only inside its window; when its window
    /// closes while it shows, the slideshow moves on at that frame.
    func testItemWindowsInAPlaylist() throws {
        let dir = try TempDir()
        _ = try ColourPictures.make(dir, "morning.png", "red")
        _ = try ColourPictures.make(dir, "always.png", "0x00ff00")
        _ = try ColourPictures.make(dir, "weekend.png", "blue")
        try "#EXTM3U\n#EXTKIOSK:from=06:00,to=09:00\nmorning.png\n#EXTKIOSK:days=sat,sun\nweekend.png\nalways.png\n"
            .write(toFile: dir.file("list.m3u"), atomically: true, encoding: .utf8)
        let out = dir.file("out.y4m")
        // Thursday 08:59:58: the morning item shows until 09:00, then the one without a window; the weekend item
        // never comes on a Thursday.
        let r = try CLITests.run(["record", dir.file("list.m3u"), "--start-time", "2026-12-24T08:59:58", "--timezone", "UTC",
                                  "--size", "64x48", "--fps", "10", "--length", "4", "--duration", "30", "--transition", "none",
                                  "--output", out], timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        let frames = try FFmpegCLI.referenceFrames(out, size: size)
        XCTAssertEqual(frames.count, 40)
        for (i, f) in frames.enumerated() {
            let want = i < 20 ? [255, 0, 0] : [0, 255, 0]
            XCTAssertTrue(ColourPictures.near(ColourPictures.centre(f), want), "frame \(i): \(ColourPictures.centre(f)), want \(want)")
        }
    }

    func testFallbackPlaysOutsideWindowsAndWithoutAValidClock() throws {
        let dir = try TempDir()
        _ = try ColourPictures.make(dir, "fallback.png", "red")
        let schedule = dir.file("schedule")
        try "*  23:00-07:00  off\nfallback  fallback.png\n".write(toFile: schedule, atomically: true, encoding: .utf8)
        for start in ["2026-12-24T12:00", "1970-01-01T23:30"] {  // midday; a clock never set (before 2020): never off
            let out = dir.file("out.y4m")
            let r = try CLITests.run(["record", "--schedule", schedule, "--start-time", start, "--timezone", "UTC",
                                      "--size", "64x48", "--fps", "5", "--length", "1", "--output", out, "--log-level", "info"],
                                     timeout: 120)
            XCTAssertEqual(r.status, 0, r.stderr)
            let frames = try FFmpegCLI.referenceFrames(out, size: size)
            XCTAssertEqual(frames.count, 5, start)
            XCTAssertTrue(frames.allSatisfy { ColourPictures.near(ColourPictures.centre($0), [255, 0, 0]) }, "\(start): \(frames.map(ColourPictures.centre))")
        }
    }

    func testBadScheduleFilesAndFlags() throws {
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "red")
        let bad = dir.file("bad")
        try "mon-fry  07:00-18:00  /srv/a\n*  25:00-26:00  /srv/b\n*  09:00-09:00  /srv/c\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let r = try CLITests.run(["play", "--schedule", bad, "--output", "headless", "--length", "1", a], timeout: 30)
        XCTAssertEqual(r.status, 2, r.stderr)
        for line in 1...3 { XCTAssertTrue(r.stderr.contains("\(bad):\(line): "), "line \(line): \(r.stderr)") }
        XCTAssertTrue(r.stderr.contains("--schedule: 3 problems in '\(bad)'"), r.stderr)
        for (args, needle) in [(["--start-time", "2026-12-24 8 o'clock"], "--start-time"),
                               (["--schedule", dir.file("missing")], "--schedule: cannot read"),
                               (["--schedule", bad, "--timezone", "Mars/Olympus"], "--timezone"),
                               (["--schedule", bad, "--start-time", "yesterday"], "--start-time")] {
            let r = try CLITests.run(["record", "--output", dir.file("x.y4m"), "--length", "1"] + args + [a], timeout: 30)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(needle), "\(args): \(r.stderr)")
        }
    }
}
