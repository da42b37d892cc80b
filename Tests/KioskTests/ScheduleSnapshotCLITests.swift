import Foundation
import KioskCore
import XCTest

/// `kiosk snapshot --schedule FILE --start-time T`: the frame play shows at T, read back with ffmpeg: black while
/// the screen is off, the window's folder inside its window, the fallback outside every window, an item outside
/// its own `#EXTKIOSK` window passed over; bad combinations are usage errors.
final class ScheduleSnapshotCLITests: XCTestCase {
    private let size = PixelSize(width: 64, height: 48)

    /// The centre colour of `kiosk snapshot --schedule` at `time`.
    private func shot(_ dir: TempDir, _ schedule: String, _ time: String, _ extra: [String] = []) throws -> [Int] {
        let out = dir.file("shot-\(time).png")
        let r = try CLITests.run(["snapshot", "--schedule", schedule, "--start-time", time, "--timezone", "Europe/Berlin",
                                  "--size", "64x48", "--output", out, "--log-level", "info"] + extra, timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        guard let image = try FFmpegCLI.referenceFrames(out, size: size).first else {
            XCTFail("no picture at \(time): \(r.stderr)")
            return []
        }
        return ColourPictures.centre(image)
    }

    func testTheFrameAtAStartTime() throws {
        let dir = try TempDir()
        let fallback = try ColourPictures.make(dir, "fallback.png", "red")
        Files.mkdir(dir.file("day"))
        _ = try ColourPictures.make(dir, "day/a-green.png", "0x00ff00")
        _ = try ColourPictures.make(dir, "day/b-blue.png", "blue")
        _ = try ColourPictures.make(dir, "morning.png", "yellow")
        _ = try ColourPictures.make(dir, "white.png", "white")
        try "#EXTM3U\n#EXTKIOSK:from=06:00,to=07:00\nmorning.png\nwhite.png\n"
            .write(toFile: dir.file("evening.m3u"), atomically: true, encoding: .utf8)
        let schedule = dir.file("schedule")
        try """
        *  09:00-10:00  day
        *  22:00-06:00  off
        *  18:00-20:00  evening.m3u
        """.write(toFile: schedule, atomically: true, encoding: .utf8)
        XCTAssertTrue(ColourPictures.near(try shot(dir, schedule, "2026-12-24T09:30:00", [fallback]), [0, 255, 0]), "the window's first item")
        XCTAssertTrue(ColourPictures.near(try shot(dir, schedule, "2026-12-24T12:00:00", [fallback]), [255, 0, 0]), "the fallback")
        XCTAssertTrue(ColourPictures.near(try shot(dir, schedule, "2026-12-24T23:59:00", [fallback]), [0, 0, 0]), "off: black")
        XCTAssertTrue(ColourPictures.near(try shot(dir, schedule, "2026-12-24T18:30:00", [fallback]), [255, 255, 255]),
                      "morning.png is outside its own window at 18:30: the next item shows")
    }

    func testBadCombinations() throws {
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "red")
        let r = try CLITests.run(["snapshot", a, "--start-time", "2026-12-24T09:00", "--output", dir.file("x.png")], timeout: 30)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--start-time and --timezone go with --schedule"), r.stderr)
        let empty = dir.file("empty")
        Files.mkdir(empty)
        let schedule = dir.file("schedule")
        try "*  00:00-23:59  \(empty)\n".write(toFile: schedule, atomically: true, encoding: .utf8)
        let e = try CLITests.run(["snapshot", "--schedule", schedule, "--start-time", "2026-12-24T09:00", "--timezone", "UTC",
                                  "--output", dir.file("y.png")], timeout: 30)
        XCTAssertEqual(e.status, 1, e.stderr)
        XCTAssertTrue(e.stderr.contains("nothing to show at Thu 2026-12-24 09:00:00: \(empty) has no item that plays then"), e.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("y.png")))
    }
}
