import Foundation
import KioskCore
import XCTest

/// `kiosk check-config FILE`: each kind of problem as one `FILE:LINE: reason` line (exit 2), and with none the
/// effective schedule for the next 7 days (exit 0).
final class ConfigCheckTests: XCTestCase {
    private func write(_ text: String, _ path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func testAGoodConfigPrintsTheNextSevenDays() throws {
        let dir = try TempDir()
        try FileManager.default.createDirectory(atPath: dir.file("day"), withIntermediateDirectories: true)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=red:s=16x16", "-frames:v", "1", dir.file("day/a.png")])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=blue:s=16x16", "-frames:v", "1", dir.file("b.png")])
        try write("#EXTM3U\n#EXTINF:10,Menu\nday/a.png\n", dir.file("evening.m3u"))
        try write("mon-fri  09:00-17:00  day\n*  18:00-20:00  evening.m3u\n*  23:00-07:00  off\nfallback  b.png\n", dir.file("schedule"))
        try write("# the lobby screen\nschedule = \(dir.file("schedule"))\nduration = 8\npath = \(dir.file("b.png"))\n", dir.file("kiosk.conf"))
        let r = try CLITests.run(["check-config", dir.file("kiosk.conf"), "--timezone", "UTC", "--start-time", "2026-12-26T00:00"],
                                 timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "\(dir.file("kiosk.conf")): ok")
        // Saturday 26 December 2026: no weekday window; the evening and the night, the fallback around them.
        XCTAssertTrue(lines.contains { $0.hasPrefix("Sat 2026-12-26  18:00  20:00") && $0.hasSuffix(dir.file("evening.m3u")) }, r.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("Sat 2026-12-26  23:00  Sun 07:00") && $0.hasSuffix("off") }, r.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("Mon 2026-12-28  09:00  17:00") && $0.hasSuffix(dir.file("day")) }, r.stdout)
        XCTAssertTrue(lines.contains { $0.contains("(fallback)") }, r.stdout)
        XCTAssertFalse(lines.contains { $0.contains("2027-01-02") }, "7 days from the start only: \(r.stdout)")
    }

    func testEveryKindOfProblemIsOneLocatedLine() throws {
        let dir = try TempDir()
        try write("#EXTM3U\n/nowhere/a.png\n#EXTKIOSK:projection=cube\nb.png\n", dir.file("list.m3u"))
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=blue:s=16x16", "-frames:v", "1", dir.file("b.png")])
        let conf = dir.file("kiosk.conf")
        try write("""
        duration = -4
        bogus-key = 1
        no equals sign here
        transition = spin
        path = /no/such/folder
        path = https://example.com/feed
        path = \(dir.file("list.m3u"))
        schedule = \(dir.file("missing-schedule"))
        """, conf)
        let r = try CLITests.run(["check-config", conf], timeout: 30)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(r.stdout, "")
        let expected = [
            "\(conf):1: --duration: ",
            "\(conf):2: play: unknown option '--bogus-key'",
            "\(conf):3: expected 'name = value'",
            "\(conf):4: --transition: 'spin'",
            "\(conf):5: '/no/such/folder': no such file or folder",
            "\(conf):6: 'https://example.com/feed' is a URL",
            "\(conf):8: schedule '\(dir.file("missing-schedule"))': cannot read it",
            "\(dir.file("list.m3u")): entry '/nowhere/a.png': no such file or folder",
            "\(dir.file("list.m3u")): #EXTKIOSK:projection=cube: ignored",
        ]
        for e in expected { XCTAssertTrue(r.stderr.contains("kiosk: " + e), "missing '\(e)' in:\n\(r.stderr)") }
        XCTAssertTrue(r.stderr.hasSuffix("kiosk: \(conf): \(expected.count) problems\n"), r.stderr)
        // A schedule with problems: each of its lines, and its targets once it parses.
        try write("mon-fry  07:00-08:00  b.png\n*  10:00-10:00  b.png\n", dir.file("bad-schedule"))
        try write("schedule = \(dir.file("bad-schedule"))\n", conf)
        let s = try CLITests.run(["check-config", conf], timeout: 30)
        XCTAssertEqual(s.status, 2, s.stderr)
        XCTAssertTrue(s.stderr.contains("kiosk: \(dir.file("bad-schedule")):1: "), s.stderr)
        XCTAssertTrue(s.stderr.contains("kiosk: \(dir.file("bad-schedule")):2: "), s.stderr)
        try write("*  10:00-11:00  /nowhere\nfallback  \(dir.file("b.png"))\n", dir.file("schedule"))
        try write("schedule = \(dir.file("schedule"))\n", conf)
        let t = try CLITests.run(["check-config", conf], timeout: 30)
        XCTAssertEqual(t.status, 2, t.stderr)
        XCTAssertTrue(t.stderr.contains("kiosk: \(dir.file("schedule")):1: '/nowhere': no such file or folder"), t.stderr)
        let u = try CLITests.run(["check-config"], timeout: 30)
        XCTAssertEqual(u.status, 2, u.stderr)
        let missing = try CLITests.run(["check-config", dir.file("nope.conf")], timeout: 30)
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("\(dir.file("nope.conf")): cannot read it"), missing.stderr)
    }

    /// An unknown name holding any character (`zo+om`, `shuf' x`: the config fuzz target's finds), or one so long that the
    /// error cuts it, is still located at its FILE:LINE, by check-config and by play.
    func testAnUnknownNameWithAnyCharacterOrCutIsStillLocated() throws {
        let dir = try TempDir()
        let cases = [("plus.conf", "duration = 2\nzo+om = 2\n"), ("quote.conf", "duration = 2\nshuf' x = yes\n"),
                     ("long.conf", "duration = 2\n" + String(repeating: "x", count: 300) + " = 1\n")]
        for (name, body) in cases {
            let conf = dir.file(name)
            try body.write(toFile: conf, atomically: true, encoding: .utf8)
            for args in [["check-config", conf], ["play", "--config", conf, "--output", "headless", "--length", "1"]] {
                let r = try CLITests.run(args, timeout: 30)
                XCTAssertEqual(r.status, 2, r.stderr)
                let line = r.stderr.split(separator: "\n").first { $0.contains("unknown option") }
                XCTAssertTrue(line?.hasPrefix("kiosk: \(conf):2: play: unknown option '--") == true, "\(args): \(r.stderr)")
                XCTAssertLessThan(line?.utf8.count ?? .max, 400, "the name is cut: \(args)")
            }
        }
    }
}
