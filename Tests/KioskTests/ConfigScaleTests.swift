import Foundation
import XCTest
@testable import KioskCore

/// Issue 23 item 5: `kiosk check-config` and schedule loading stay linear in the size of what they read, a rule
/// dated 9999-12-31 is answered by arithmetic (not a day-by-day walk to it), and an error quotes at most
/// `ErrorQuote.limit` scalars of a bad value. Growth is judged by the ratio of N to 8N lines in one test (linear
/// is about 8, quadratic about 64), with generous absolute caps, so a loaded 2-core machine does not flake.
final class ConfigScaleTests: XCTestCase {
    private typealias C = ScheduleClock

    /// The most the 8N run may take over the N run: well under the 64 of quadratic growth.
    private let growthLimit = 20.0

    /// A `check-config` run of `conf` from a fixed start in UTC, bounded by `timeout` seconds; the quicker of
    /// two runs, so that one stall of a loaded machine is not taken for growth.
    private func checkSeconds(_ conf: String, timeout: Double = 60) throws -> (seconds: Double, run: CLITests.Run) {
        var best: (seconds: Double, run: CLITests.Run)?
        for _ in 0..<2 {
            let r = try CLITests.run(["check-config", conf, "--timezone", "UTC", "--start-time", "2026-12-26T00:00"],
                                     timeout: timeout)
            if best.map({ r.seconds < $0.seconds }) ?? true { best = (r.seconds, r) }
        }
        guard let best else { throw CocoaError(.featureUnsupported) }
        return best
    }

    /// `lines` schedule rules with distinct windows (each minute of the day a window starts, on weekdays).
    private func scheduleText(rules lines: Int) -> String {
        var text = ""
        text.reserveCapacity(lines * 32)
        for i in 0..<lines {
            let start = i % 1440, end = (start + 60) % 1440
            text += "mon-fri  \(DailyWindow.clock(start))-\(DailyWindow.clock(end))  off\n"
        }
        return text
    }

    // MARK: growth through the real binary

    func testCommentLinesGrowLinearly() throws {
        let dir = try TempDir()
        let n = 4000
        for count in [n, 8 * n] {
            try String(repeating: "# a comment line of the lobby screen's config\n", count: count)
                .write(toFile: dir.file("c\(count).conf"), atomically: true, encoding: .utf8)
        }
        let small = try checkSeconds(dir.file("c\(n).conf"))
        let large = try checkSeconds(dir.file("c\(8 * n).conf"))
        XCTAssertEqual(large.run.status, 0, large.run.stderr)
        XCTAssertTrue(large.run.stdout.hasPrefix(dir.file("c\(8 * n).conf") + ": ok"), large.run.stdout)
        // Process start dominates the small run; a floor of 0.1 s keeps the ratio about the parsing.
        let ratio = large.seconds / max(small.seconds, 0.1)
        XCTAssertLessThan(ratio, growthLimit, "\(n) lines \(small.seconds) s, \(8 * n) lines \(large.seconds) s")
        XCTAssertLessThan(large.seconds, 10, "\(8 * n) comment lines")
    }

    func testAHundredThousandLineScheduleChecksWithinTenSeconds() throws {
        let dir = try TempDir()
        let n = 12_500
        for count in [n, 8 * n] {
            try scheduleText(rules: count).write(toFile: dir.file("s\(count)"), atomically: true, encoding: .utf8)
            try "schedule = \(dir.file("s\(count)"))\n".write(toFile: dir.file("s\(count).conf"), atomically: true, encoding: .utf8)
        }
        let small = try checkSeconds(dir.file("s\(n).conf"))
        let large = try checkSeconds(dir.file("s\(8 * n).conf"))
        XCTAssertEqual(large.run.status, 0, large.run.stderr)
        // A window starts every minute of every weekday, each an hour long: off from Monday 00:00 until the
        // window Friday 23:59 starts ends, past the table's end (Saturday 00:00); so too the Friday before.
        XCTAssertEqual(large.run.stdout.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ").joined(separator: " ") },
                       ["Sat 2026-12-26 00:00 00:59 off", "Sat 2026-12-26 00:59 Mon 00:00 (fallback: the paths on the command line)",
                        "Mon 2026-12-28 00:00 Sat 00:00 off"],
                       large.run.stdout)
        let ratio = large.seconds / max(small.seconds, 0.1)
        XCTAssertLessThan(ratio, growthLimit, "\(n) rules \(small.seconds) s, \(8 * n) rules \(large.seconds) s")
        XCTAssertLessThan(large.seconds, 10, "\(8 * n) schedule rules")
    }

    // MARK: growth in process (no process start in the way)

    func testScheduleDecisionsGrowLinearlyInTheRules() throws {
        func seconds(rules: Int) throws -> Double {
            let schedule = try Schedule.parse(text: scheduleText(rules: rules), file: "s", base: "")
            let monday = C.local("2026-12-28T10:00:30", .gmt)
            let start = Date()
            let week = schedule.upcoming(from: C.local("2026-12-26T00:00", .gmt), days: 7, timeZone: .gmt)
            let decision = schedule.decision(at: monday, timeZone: .gmt)
            let took = Date().timeIntervalSince(start)
            XCTAssertEqual(week.map { C.show($0.start, .gmt) + " " + ($0.target?.description ?? "-") },
                           ["Sat 2026-12-26 00:00 off", "Sat 2026-12-26 00:59 -", "Mon 2026-12-28 00:00 off"])
            // The answer of asking every rule, minute by minute (all edges fall on whole minutes in UTC).
            let now = schedule.action(at: monday, timeZone: .gmt)
            let next = (1...2880).lazy.map { monday + Double($0 * 60 - 30) }.first { schedule.action(at: $0, timeZone: .gmt) != now }
            XCTAssertEqual(decision.action, now)
            XCTAssertEqual(decision.nextChange, next)
            return took
        }
        let small = try seconds(rules: 2000)
        let large = try seconds(rules: 16_000)
        XCTAssertLessThan(large / max(small, 0.02), growthLimit, "2000 rules \(small) s, 16000 rules \(large) s")
        XCTAssertLessThan(large, 10)
    }

    // MARK: far dates

    func testARuleDatedTheLastDayOfYear9999IsFoundWithoutWalkingToIt() throws {
        let schedule = try Schedule.parse(text: "*  10:00-11:00  off  9999-12-31..9999-12-31\n", file: "s", base: "")
        let start = Date()
        let now = schedule.decision(at: C.local("2026-12-26T00:00"), timeZone: C.berlin)
        let inside = schedule.decision(at: C.local("9999-12-31T10:30"), timeZone: C.berlin)
        let after = schedule.decision(at: C.local("9999-12-31T11:00"), timeZone: C.berlin)
        let took = Date().timeIntervalSince(start)
        XCTAssertEqual(now.action, .fallback(nil))
        XCTAssertEqual(now.nextChange.map { C.show($0) }, "Fri 9999-12-31 10:00")
        XCTAssertEqual(inside.action, .off(line: 1))
        XCTAssertEqual(inside.nextChange.map { C.show($0) }, "Fri 9999-12-31 11:00")
        XCTAssertEqual(after.action, .fallback(nil))
        XCTAssertNil(after.nextChange, "nothing after the last dated day")
        XCTAssertLessThan(took, 2, "three decisions about year 9999")
    }

    func testCheckConfigOfAFarDatedScheduleAnswersQuicklyAndRight() throws {
        let dir = try TempDir()
        try "*  10:00-11:00  off  9999-12-31..9999-12-31\n".write(toFile: dir.file("s"), atomically: true, encoding: .utf8)
        try "schedule = \(dir.file("s"))\n".write(toFile: dir.file("k.conf"), atomically: true, encoding: .utf8)
        let now = try CLITests.run(["check-config", dir.file("k.conf"), "--timezone", "Europe/Berlin",
                                    "--start-time", "2026-12-26T00:00"], timeout: 30)
        XCTAssertEqual(now.status, 0, now.stderr)
        XCTAssertTrue(now.stdout.contains("Sat 2026-12-26  00:00  2027-01-02 00:00  (fallback"), now.stdout)
        XCTAssertLessThan(now.seconds, 5, "a week of fallback before a rule of year 9999")
        let then = try CLITests.run(["check-config", dir.file("k.conf"), "--timezone", "Europe/Berlin",
                                     "--start-time", "9999-12-30T00:00"], timeout: 30)
        XCTAssertEqual(then.status, 0, then.stderr)
        XCTAssertTrue(then.stdout.contains("Fri 9999-12-31  10:00  11:00      off"), then.stdout)
    }

    // MARK: bounded error lines

    func testTenMegabyteBadValuesGiveShortLinesNamingTheFileAndLine() throws {
        let dir = try TempDir()
        let huge = String(repeating: "x", count: 10 << 20)
        let conf = dir.file("k.conf"), schedule = dir.file("s")
        try "# the lobby\nduration = \(huge)\n".write(toFile: conf, atomically: true, encoding: .utf8)
        let value = try CLITests.run(["check-config", conf], timeout: 60)
        try "fallback  /srv\nmon-fri  \(huge)  off\n".write(toFile: schedule, atomically: true, encoding: .utf8)
        try "schedule = \(schedule)\n".write(toFile: conf, atomically: true, encoding: .utf8)
        let field = try CLITests.run(["check-config", conf], timeout: 60)
        for (run, at) in [(value, "\(conf):2: --duration: '"), (field, "\(schedule):2: bad time '")] {
            XCTAssertEqual(run.status, 2, String(run.stderr.prefix(400)))
            let lines = run.stderr.split(separator: "\n")
            XCTAssertTrue(lines.allSatisfy { $0.utf8.count <= 300 + conf.utf8.count },
                          "a line of \(lines.map(\.utf8.count).max() ?? 0) bytes")
            let line = lines.first { $0.contains(at) }
            XCTAssertNotNil(line, String(run.stderr.prefix(600)))
            XCTAssertTrue(line?.contains(String(repeating: "x", count: 200) + "… (10485760 bytes)") ?? false,
                          String(line?.prefix(600) ?? ""))
        }
    }

    func testErrorQuoteCutsLongTextAndKeepsShortText() {
        XCTAssertEqual(ErrorQuote.cut("mun"), "mun")
        let exactly = String(repeating: "a", count: ErrorQuote.limit)
        XCTAssertEqual(ErrorQuote.cut(exactly), exactly)
        XCTAssertEqual(ErrorQuote.cut(exactly + "b"), exactly + "… (201 bytes)")
        // One letter with 300,000 combining marks is one character: it is cut by scalars all the same.
        let marks = "e" + String(repeating: "\u{301}", count: 300_000)
        let cut = ErrorQuote.cut(marks)
        XCTAssertEqual(cut.unicodeScalars.count, ErrorQuote.limit + " (600001 bytes)".unicodeScalars.count + 1)
        XCTAssertTrue(cut.hasSuffix("… (600001 bytes)"), String(cut.suffix(40)))
    }

    /// Any error that quotes a value whole is cut at its making (`UsageError` through `ErrorQuote.line`): the
    /// config fuzz target found `--effect` echoing a value of any length.
    func testEveryUsageErrorQuotesAtMostTheLimit() throws {
        XCTAssertEqual(UsageError("--effect: 'short' is fine").message, "--effect: 'short' is fine")
        let huge = String(repeating: "\u{13}x", count: 500_000)
        let message = UsageError("--effect: '\(huge)' does not start with a name (NAME[:OPTION]...)").message
        XCTAssertTrue(message.hasPrefix("--effect: '"), String(message.prefix(40)))
        XCTAssertTrue(message.hasSuffix("… (1000000 bytes)' does not start with a name (NAME[:OPTION]...)"), String(message.suffix(80)))
        XCTAssertLessThan(message.utf8.count, 4 * ErrorQuote.limit)
        let value = String(repeating: "Mo", count: 50_000)  // 100 KB: one argument may hold at most 128 KiB
        for flag in ["--effect", "--transition"] {
            let r = try CLITests.run(["play", "--output", "headless", "--length", "1", flag, "1" + value], timeout: 30)
            XCTAssertEqual(r.status, 2, String(r.stderr.prefix(300)))
            XCTAssertTrue(r.stderr.hasPrefix("kiosk: \(flag): '1MoMo"), String(r.stderr.prefix(300)))
            XCTAssertLessThan(r.stderr.utf8.count, 600, String(r.stderr.prefix(300)))
        }
    }

    // MARK: numbers out of range

    func testOutOfRangeNumbersAreOneLocatedLineEach() throws {
        let dir = try TempDir()
        let conf = dir.file("k.conf"), schedule = dir.file("s")
        try """
        duration = 1e400
        transition-time = nan
        decode-timeout = -5
        seed = 99999999999999999999
        volume = 1e19
        max-pixels = -9223372036854775808
        schedule = \(schedule)
        """.write(toFile: conf, atomically: true, encoding: .utf8)
        try """
        *  99999999999999999999:00-10:00  off
        *  10:00-11:00  off  99999-01-01..99999-01-02
        *  10:00-11:00  off  2026-01-01..0000-01-01
        mon-99999  10:00-11:00  off
        """.write(toFile: schedule, atomically: true, encoding: .utf8)
        let r = try CLITests.run(["check-config", conf], timeout: 30)
        XCTAssertEqual(r.status, 2, r.stderr)
        for line in 1...6 { XCTAssertTrue(r.stderr.contains("kiosk: \(conf):\(line): --"), "line \(line):\n\(r.stderr)") }
        try "schedule = \(schedule)\n".write(toFile: conf, atomically: true, encoding: .utf8)
        let s = try CLITests.run(["check-config", conf], timeout: 30)
        XCTAssertEqual(s.status, 2, s.stderr)
        let expected = ["1: bad time '99999999999999999999:00-10:00'", "2: bad date '99999-01-01'",
                        "3: date range backwards", "4: unknown day name '99999'"]
        for e in expected { XCTAssertTrue(s.stderr.contains("kiosk: \(schedule):\(e)"), "missing \(e):\n\(s.stderr)") }
    }
}
