import XCTest
@testable import KioskCore

/// Reading schedule files: every kind of problem as `FILE:LINE: reason`, all of them at once, and the forms a
/// good file may take (comments, quotes, relative paths, full day names, wrapping ranges).
final class ScheduleParseTests: XCTestCase {
    private func problems(_ text: String) -> [String] {
        do {
            _ = try Schedule.parse(text: text, file: "s.txt", base: "/srv/kiosk")
            return []
        } catch {
            return error.lines
        }
    }

    func testEveryProblemIsListedWithFileAndLine() {
        let text = """
        # days  time  target  [dates]
        mun 07:00-18:00 /a
        mon 25:00-26:00 /a
        mon 07:00-07:00 /a
        mon 07:00-08:00 /a 2026-02-30..2026-03-01
        mon 07:00-08:00 /a 2026-12-26..2026-12-01
        mon 07:00-08:00
        mon 07:00-08:00 /my pics
        mon 07:00-08:00 /a 2026-12-01..2026-12-02 extra
        fallback /d
        fallback /e
        fallbak /d
        mon 07:00-08:00 "/a
        mun 7:00-26:00 /a
        fallback
        fallback off
        mon-fri 07:00-08:00 2026-12-01..2026-12-02
        mon 24:00-07:00 /a
        mon,,fri 07:00-08:00 /a
        mon 07:00-08:00 /a 2026-12-01
        mon
        """
        XCTAssertEqual(problems(text), [
            "s.txt:2: unknown day name 'mun'",
            "s.txt:3: bad time '25:00-26:00' (expected HH:MM-HH:MM, 00:00 to 24:00)",
            "s.txt:4: start equals end in '07:00-07:00' (00:00-24:00 is the whole day)",
            "s.txt:5: bad date '2026-02-30' (expected a real day as YYYY-MM-DD)",
            "s.txt:6: date range backwards: 2026-12-26 is after 2026-12-01",
            "s.txt:7: missing target (a rule is 'days time target [dates]')",
            "s.txt:8: too many fields from 'pics' on (quote a path with spaces: \"...\")",
            "s.txt:9: too many fields from 'extra' on (quote a path with spaces: \"...\")",
            "s.txt:11: second fallback line (the first is line 10)",
            "s.txt:12: unknown keyword 'fallbak' (a line is 'days time target [dates]' or 'fallback target')",
            "s.txt:13: unterminated quote",
            "s.txt:14: unknown day name 'mun'",
            "s.txt:14: bad time '7:00-26:00' (expected HH:MM-HH:MM, 00:00 to 24:00)",
            "s.txt:15: missing target after fallback",
            "s.txt:16: fallback cannot be off (start the file with '* 00:00-24:00 off' instead)",
            "s.txt:17: missing target before the dates '2026-12-01..2026-12-02'",
            "s.txt:18: bad time '24:00-07:00': 24:00 is only an end",
            "s.txt:19: bad days 'mon,,fri' (expected names like mon, ranges like mon-fri, lists like sat,sun, or *)",
            "s.txt:20: bad date range '2026-12-01' (expected YYYY-MM-DD..YYYY-MM-DD)",
            "s.txt:21: missing time and target (a rule is 'days time target [dates]')",
        ])
    }

    func testMoreProblemsOneLineEach() {
        XCTAssertEqual(problems("fallback /a /b\n\"x\"y 07:00-08:00 /a\ndefault /x\nmon 7-8 /a\nmon 07:00-08:00 \"\""), [
            "s.txt:1: too many fields from '/b' on (fallback takes one target; quote a path with spaces: \"...\")",
            "s.txt:2: text right after a closing quote: '\"x\"y 07:00-08:00 /a'",
            "s.txt:3: unknown keyword 'default' (a line is 'days time target [dates]' or 'fallback target')",
            "s.txt:4: bad time '7-8' (expected HH:MM-HH:MM, 00:00 to 24:00)",
            "s.txt:5: empty target \"\"",
        ])
        XCTAssertEqual(problems("mon-fri-sat 07:00-08:00 /a\nmon 07:00-08:00 /a 2026-1-01..2026-01-02\nmon /a\nmun 7-8 /a"), [
            "s.txt:1: bad days 'mon-fri-sat' (expected names like mon, ranges like mon-fri, lists like sat,sun, or *)",
            "s.txt:2: bad date '2026-1-01' (expected a real day as YYYY-MM-DD)",
            "s.txt:3: bad time '/a' (expected HH:MM-HH:MM)",
            "s.txt:4: unknown day name 'mun'",
            "s.txt:4: bad time '7-8' (expected HH:MM-HH:MM, 00:00 to 24:00)",
        ])
        let error = ScheduleError(problems: [.init(file: "f", line: 1, reason: "a"), .init(file: "f", line: 2, reason: "b")])
        XCTAssertEqual(error.description, "f:1: a\nf:2: b")
    }

    func testAGoodFileInAllItsForms() throws {
        let text = "\u{FEFF}# the week\r\n"
            + "Monday-FRI   07:00-18:00  day   # relative to the file's folder\r\n"
            + "\r\n"
            + "   sat,sun 09:00-17:00 \"/srv/kiosk/week end\"\n"
            + "fri-mon 23:00-07:00 off\n"
            + "mon-wed,fri 12:00-13:00 \"off\" 2026-12-01..2026-12-26 #a quoted off is a path\n"
            + "* 00:00-24:00 /srv/a#b.m3u8\n"
            + "FALLBACK ../default\n"
        let s = try Schedule.parse(text: text, file: "s.txt", base: "/srv/kiosk")
        XCTAssertEqual(s.rules.map(\.line), [2, 4, 5, 6, 7])
        XCTAssertEqual(s.rules.map(\.window.days.description), ["mon,tue,wed,thu,fri", "sat,sun", "mon,fri,sat,sun", "mon,tue,wed,fri", "*"])
        XCTAssertEqual(s.rules.map(\.window.time.description), ["07:00-18:00", "09:00-17:00", "23:00-07:00", "12:00-13:00", "00:00-24:00"])
        XCTAssertEqual(s.rules.map(\.target), [.path("/srv/kiosk/day"), .path("/srv/kiosk/week end"), .off,
                                               .path("/srv/kiosk/off"), .path("/srv/a#b.m3u8")])
        XCTAssertEqual(s.rules.map(\.window.dates.description), ["..", "..", "..", "2026-12-01..2026-12-26", ".."])
        XCTAssertEqual(s.rules.map(\.target.isPlaylist), [false, false, false, false, true])
        XCTAssertEqual(s.rules[2].window.time.crossesMidnight, true)
        XCTAssertEqual(s.fallback, "/srv/kiosk/../default")  // as the playlist reader does: joined, not resolved
        XCTAssertEqual(s.fallbackLine, 8)
        let empty = try Schedule.parse(text: "# nothing\n\n", file: "s.txt", base: "")
        XCTAssertEqual(empty, Schedule(rules: []))
    }

    func testDayNamesRangesAndTimes() {
        func days(_ t: String) -> String {
            switch WeekdaySet.parse(t) {
            case .success(let s): return s.description
            case .failure(let e): return e.description
            }
        }
        XCTAssertEqual(days("fri-mon"), "mon,fri,sat,sun")
        XCTAssertEqual(days("sun-sat"), "*")
        XCTAssertEqual(days("wed-wed"), "wed")
        XCTAssertEqual(days("Saturday,SUNDAY"), "sat,sun")
        XCTAssertEqual(days("thu,tue"), "tue,thu")
        XCTAssertEqual(days("mon-"), "bad days 'mon-' (expected names like mon, ranges like mon-fri, lists like sat,sun, or *)")
        XCTAssertEqual(days("tues"), "unknown day name 'tues'")
        XCTAssertEqual(DailyWindow.minutes("24:00"), 1440)
        XCTAssertNil(DailyWindow.minutes("24:01"))
        XCTAssertNil(DailyWindow.minutes("12:60"))
        XCTAssertNil(DailyWindow.minutes("12:5"))
        XCTAssertEqual(DailyWindow.minutes("7:05"), 425)
        XCTAssertEqual(try DailyWindow.parse("07:00-00:00").get().endSecond, 86400)
        XCTAssertEqual(try DailyWindow.parse("00:00-24:00").get(), .wholeDay)
        XCTAssertEqual(CivilDate(parsing: "2024-02-29")?.weekday, .thursday)
        XCTAssertNil(CivilDate(parsing: "2026-02-29"))
        XCTAssertEqual(CivilDate(dayNumber: -1).description, "1969-12-31")
        XCTAssertEqual(CivilDate(year: 2026, month: 12, day: 24)?.dayNumber, 20811)
    }
}
