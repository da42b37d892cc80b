import XCTest
@testable import KioskCore

/// Times and zones for the schedule tests, written as the wall clock reads them.
enum ScheduleClock {
    static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt
    static let newYork = TimeZone(identifier: "America/New_York") ?? .gmt

    /// `2026-03-02T07:00[:SS]` on the wall clock of `zone`.
    static func local(_ text: String, _ zone: TimeZone = berlin) -> Date {
        (try? ClockOptions.startTime(text, timeZone: zone)) ?? .distantPast
    }

    /// `2026-03-02T06:00:00Z`.
    static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text) ?? .distantPast }

    /// `Mon 2026-03-02 07:00` (seconds when not zero) on the wall clock of `zone`.
    static func show(_ date: Date, _ zone: TimeZone = berlin) -> String {
        let (day, second) = LocalClock.wallClock(of: date, in: zone)
        let s = Int(second) % 60
        return "\(day.weekday.shortName) \(day) \(DailyWindow.clock(Int(second) / 60))" + (s == 0 ? "" : ":\(s)")
    }

    /// The action as short text: `day:2`, `off:5`, `fallback:/srv/kiosk/default`.
    static func name(_ a: ScheduleDecision.Action) -> String {
        switch a {
        case .play(let p, let line): return "\((p as NSString).lastPathComponent):\(line)"
        case .off(let line): return "off:\(line)"
        case .fallback(let p): return "fallback:\(p ?? "-")"
        }
    }

    /// Follows `nextChange` from `start` until `end`: each change as `show(time) action`, checking that the action
    /// holds up to a millisecond before each change and differs from the change on.
    static func changes(_ s: Schedule, from start: Date, to end: Date, _ zone: TimeZone = berlin,
                        file: StaticString = #filePath, line: UInt = #line) -> [String] {
        var d = s.decision(at: start, timeZone: zone)
        var out = ["\(show(start, zone)) \(name(d.action))"]
        while let next = d.nextChange, next < end, out.count < 500 {
            XCTAssertEqual(s.decision(at: next - 0.001, timeZone: zone).action, d.action, show(next, zone), file: file, line: line)
            let n = s.decision(at: next, timeZone: zone)
            XCTAssertNotEqual(n.action, d.action, show(next, zone), file: file, line: line)
            d = n
            out.append("\(show(next, zone)) \(name(d.action))")
        }
        return out
    }
}

/// Schedules on a virtual clock: a week of decisions jumping from change to change, overnight windows, dates,
/// overlaps, the fallback, an untrusted clock, and `off` waking exactly at the next window.
final class ScheduleTests: XCTestCase {
    typealias C = ScheduleClock

    /// The issue's example.
    static let example = """
    # days     time         target                   [dates]
    mon-fri    07:00-18:00  /srv/kiosk/day
    sat,sun    09:00-17:00  /srv/kiosk/weekend
    *          18:00-23:00  /srv/kiosk/evening.m3u
    *          23:00-07:00  off
    *          08:00-09:00  /srv/kiosk/xmas         2026-12-01..2026-12-26
    fallback                /srv/kiosk/default
    """

    private func example() throws -> Schedule { try Schedule.parse(text: Self.example, file: "s", base: "/") }

    /// The changes of a week of the example, Monday 00:00 to the next Monday 00:00, from the first day given.
    private func expectedWeek(_ days: [String]) -> [String] {
        var out = ["\(days[0]) 00:00 off:5"]
        for (i, day) in days.enumerated() {
            if i < 5 {
                out += ["\(day) 07:00 day:2", "\(day) 18:00 evening.m3u:4", "\(day) 23:00 off:5"]
            } else {
                out += ["\(day) 07:00 fallback:/srv/kiosk/default", "\(day) 09:00 weekend:3",
                        "\(day) 17:00 fallback:/srv/kiosk/default", "\(day) 18:00 evening.m3u:4", "\(day) 23:00 off:5"]
            }
        }
        return out
    }

    private func week(from first: Int, month: String) -> [String] {
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        return (0..<7).map { i in "\(names[i]) 2026-\(month)-\(first + i < 10 ? "0" : "")\(first + i)" }
    }

    func testAWeekChangesExactlyAtTheWindowEdges() throws {
        let s = try example()
        let changes = C.changes(s, from: C.local("2026-03-02T00:00"), to: C.local("2026-03-09T00:00"))
        XCTAssertEqual(changes, expectedWeek(week(from: 2, month: "03")))
        XCTAssertEqual(changes.count, 1 + 5 * 3 + 2 * 5)
        // Edges are absolute instants: Monday 07:00 in Berlin in winter is 06:00 UTC.
        XCTAssertEqual(s.decision(at: C.local("2026-03-02T00:00"), timeZone: C.berlin).nextChange, C.utc("2026-03-02T06:00:00Z"))
    }

    func testEverySampleAgreesWithTheChanges() throws {
        // Every 17 minutes through the week: the action is the last change's, and the next change is the next one.
        let s = try example()
        let start = C.local("2026-03-02T00:00")
        var edges: [Date] = [start]
        while let n = s.decision(at: edges[edges.count - 1], timeZone: C.berlin).nextChange, n < start + 8 * 86400 { edges.append(n) }
        var t = start
        while t < start + 7 * 86400 {
            let d = s.decision(at: t, timeZone: C.berlin)
            let i = edges.lastIndex { $0 <= t } ?? 0
            XCTAssertEqual(d.action, s.decision(at: edges[i], timeZone: C.berlin).action, C.show(t))
            XCTAssertEqual(d.nextChange, edges[i + 1], C.show(t))
            t += 17 * 60
        }
    }

    func testOvernightWindowBelongsToTheDayItStartsOn() throws {
        let s = try Schedule.parse(text: "fri 23:00-07:00 /night\n", file: "s", base: "/")
        func at(_ t: String) -> String { C.name(s.decision(at: C.local(t), timeZone: C.berlin).action) }
        XCTAssertEqual(at("2026-03-05T23:30"), "fallback:-")  // Thursday night: not Friday's
        XCTAssertEqual(at("2026-03-06T22:59:59"), "fallback:-")
        XCTAssertEqual(at("2026-03-06T23:00"), "night:1")
        XCTAssertEqual(at("2026-03-07T06:59:59"), "night:1")  // Saturday morning: still Friday's window
        XCTAssertEqual(at("2026-03-07T07:00"), "fallback:-")
        XCTAssertEqual(at("2026-03-07T23:30"), "fallback:-")  // Saturday night: not a Friday
        XCTAssertEqual(C.changes(s, from: C.local("2026-03-06T12:00"), to: C.local("2026-03-14T12:00")), [
            "Fri 2026-03-06 12:00 fallback:-", "Fri 2026-03-06 23:00 night:1", "Sat 2026-03-07 07:00 fallback:-",
            "Fri 2026-03-13 23:00 night:1", "Sat 2026-03-14 07:00 fallback:-",
        ])
    }

    func testDateRangesApplyToTheDaysTheyName() throws {
        let s = try example()
        XCTAssertEqual(C.changes(s, from: C.local("2026-11-30T07:30"), to: C.local("2026-12-01T10:00")), [
            "Mon 2026-11-30 07:30 day:2", "Mon 2026-11-30 18:00 evening.m3u:4", "Mon 2026-11-30 23:00 off:5",
            "Tue 2026-12-01 07:00 day:2", "Tue 2026-12-01 08:00 xmas:6", "Tue 2026-12-01 09:00 day:2",
        ])
        XCTAssertEqual(C.changes(s, from: C.local("2026-12-26T06:00"), to: C.local("2026-12-27T10:00")), [
            "Sat 2026-12-26 06:00 off:5", "Sat 2026-12-26 07:00 fallback:/srv/kiosk/default", "Sat 2026-12-26 08:00 xmas:6",
            "Sat 2026-12-26 09:00 weekend:3", "Sat 2026-12-26 17:00 fallback:/srv/kiosk/default",
            "Sat 2026-12-26 18:00 evening.m3u:4", "Sat 2026-12-26 23:00 off:5",
            "Sun 2026-12-27 07:00 fallback:/srv/kiosk/default", "Sun 2026-12-27 09:00 weekend:3",
        ])
        // A rule far ahead: the next change is found however far it is, and none after its last day.
        let later = try Schedule.parse(text: "* 10:00-11:00 /x 2027-06-01..2027-06-01", file: "s", base: "/")
        XCTAssertEqual(later.decision(at: C.local("2026-03-02T00:00"), timeZone: C.berlin).nextChange, C.utc("2027-06-01T08:00:00Z"))
        XCTAssertEqual(later.decision(at: C.local("2027-06-01T10:30"), timeZone: C.berlin).nextChange, C.utc("2027-06-01T09:00:00Z"))
        XCTAssertNil(later.decision(at: C.local("2027-06-01T11:00"), timeZone: C.berlin).nextChange)
    }

    func testALaterLineWinsWhereRulesOverlap() throws {
        let noon = try Schedule.parse(text: "* 00:00-24:00 /all\nmon 12:00-13:00 /noon", file: "s", base: "/")
        XCTAssertEqual(C.changes(noon, from: C.local("2026-03-02T00:00"), to: C.local("2026-03-10T00:00")), [
            "Mon 2026-03-02 00:00 all:1", "Mon 2026-03-02 12:00 noon:2", "Mon 2026-03-02 13:00 all:1",
            "Mon 2026-03-09 12:00 noon:2", "Mon 2026-03-09 13:00 all:1",
        ])
        let all = try Schedule.parse(text: "mon 12:00-13:00 /noon\n* 00:00-24:00 /all", file: "s", base: "/")
        let d = all.decision(at: C.local("2026-03-02T12:30"), timeZone: C.berlin)
        XCTAssertEqual(d, ScheduleDecision(action: .play("/all", line: 2), nextChange: nil))
    }

    func testFallbackFillsTheGaps() throws {
        let own = try Schedule.parse(text: "mon 12:00-13:00 /noon\nfallback default", file: "s", base: "/srv/kiosk")
        XCTAssertEqual(own.decision(at: C.local("2026-03-02T11:00"), timeZone: C.berlin),
                       ScheduleDecision(action: .fallback("/srv/kiosk/default"), nextChange: C.utc("2026-03-02T11:00:00Z")))
        let none = try Schedule.parse(text: "mon 12:00-13:00 /noon", file: "s", base: "/srv/kiosk")
        let d = none.decision(at: C.local("2026-03-02T13:00"), timeZone: C.berlin)
        XCTAssertEqual(d.action, .fallback(nil))  // the paths on the command line
        XCTAssertNil(d.target)
        XCTAssertEqual(d.nextChange, C.utc("2026-03-09T11:00:00Z"))
        XCTAssertEqual(try Schedule.parse(text: "", file: "s", base: "/").decision(at: C.local("2026-03-02T13:00"), timeZone: C.berlin),
                       ScheduleDecision(action: .fallback(nil), nextChange: nil))
    }

    func testNoValidClockPlaysTheFallbackAndNeverTurnsOff() throws {
        let s = try Schedule.parse(text: "* 00:00-24:00 off\nfallback /d", file: "s", base: "/")
        let boot = Date(timeIntervalSince1970: 0)
        XCTAssertEqual(s.decision(at: boot, timeZone: C.berlin),
                       ScheduleDecision(action: .fallback("/d"), nextChange: boot + 60, clockValid: false))
        let lastInvalid = C.utc("2019-12-31T23:59:59Z")
        XCTAssertEqual(s.decision(at: lastInvalid, timeZone: C.berlin).action, .fallback("/d"))
        XCTAssertFalse(s.decision(at: lastInvalid, timeZone: C.berlin).isOff)
        let valid = s.decision(at: C.utc("2020-01-01T00:00:00Z"), timeZone: C.berlin)
        XCTAssertEqual(valid, ScheduleDecision(action: .off(line: 1), nextChange: nil, clockValid: true))
        XCTAssertTrue(valid.isOff)
    }

    func testOffWakesExactlyAtTheNextWindow() throws {
        let s = try example()
        let night = s.decision(at: C.local("2026-03-03T02:17:43"), timeZone: C.berlin)
        XCTAssertEqual(night.action, .off(line: 5))
        XCTAssertEqual(night.target, .off)
        XCTAssertEqual(night.nextChange, C.utc("2026-03-03T06:00:00Z"))  // Tuesday 07:00 CET
        XCTAssertEqual(s.decision(at: C.utc("2026-03-03T06:00:00Z") - 0.001, timeZone: C.berlin).action, .off(line: 5))
        XCTAssertEqual(s.decision(at: C.utc("2026-03-03T06:00:00Z"), timeZone: C.berlin).action, .play("/srv/kiosk/day", line: 2))
        // Friday night into the weekend wakes to the fallback at Saturday 07:00.
        XCTAssertEqual(s.decision(at: C.local("2026-03-06T23:00"), timeZone: C.berlin).nextChange, C.local("2026-03-07T07:00"))
    }
}

/// The effective schedule for the next days, as `kiosk check-config` prints it.
final class ScheduleTableTests: XCTestCase {
    typealias C = ScheduleClock

    func testSevenDaysAsATable() throws {
        let s = try Schedule.parse(text: """
            mon-fri 08:00-17:00 /srv/day
            fri     22:00-02:00 off
            sat     10:00-12:00 "lunch break.m3u"
            sat     12:00-13:00 /srv/day
            fri     16:00-18:00 day   # the same target as line 1: one entry
            fallback /srv/default
            """, file: "s", base: "/srv")
        let entries = s.upcoming(from: C.local("2026-03-06T10:30:15"), days: 7, timeZone: C.berlin)
        XCTAssertEqual(Schedule.table(entries, timeZone: C.berlin), """
            day             from   to         target
            Fri 2026-03-06  10:30  18:00      /srv/day
            Fri 2026-03-06  18:00  22:00      /srv/default (fallback)
            Fri 2026-03-06  22:00  Sat 02:00  off
            Sat 2026-03-07  02:00  10:00      /srv/default (fallback)
            Sat 2026-03-07  10:00  12:00      /srv/lunch break.m3u
            Sat 2026-03-07  12:00  13:00      /srv/day
            Sat 2026-03-07  13:00  Mon 08:00  /srv/default (fallback)
            Mon 2026-03-09  08:00  17:00      /srv/day
            Mon 2026-03-09  17:00  Tue 08:00  /srv/default (fallback)
            Tue 2026-03-10  08:00  17:00      /srv/day
            Tue 2026-03-10  17:00  Wed 08:00  /srv/default (fallback)
            Wed 2026-03-11  08:00  17:00      /srv/day
            Wed 2026-03-11  17:00  Thu 08:00  /srv/default (fallback)
            Thu 2026-03-12  08:00  17:00      /srv/day
            Thu 2026-03-12  17:00  24:00      /srv/default (fallback)

            """)
        XCTAssertEqual(entries.first, ScheduleEntry(start: C.local("2026-03-06T10:30:15"), end: C.local("2026-03-06T18:00"),
                                                    target: .path("/srv/day"), isFallback: false))
        XCTAssertEqual(entries.last?.end, C.local("2026-03-13T00:00"))
        XCTAssertEqual(s.upcoming(from: C.local("2026-03-06T10:30"), days: 0, timeZone: C.berlin), [])
    }

    func testCommandLineFallbackLongEntriesAndAnUntrustedClock() throws {
        let s = try Schedule.parse(text: "sat 10:00-11:00 /x", file: "s", base: "/")
        XCTAssertEqual(Schedule.table(s.upcoming(from: C.local("2026-03-07T09:00"), days: 14, timeZone: C.berlin), timeZone: C.berlin), """
            day             from   to                target
            Sat 2026-03-07  09:00  10:00             (fallback: the paths on the command line)
            Sat 2026-03-07  10:00  11:00             /x
            Sat 2026-03-07  11:00  2026-03-14 10:00  (fallback: the paths on the command line)
            Sat 2026-03-14  10:00  11:00             /x
            Sat 2026-03-14  11:00  2026-03-21 00:00  (fallback: the paths on the command line)

            """)
        // The table shows what the rules say even when the clock reads 1970 (the decision would not trust it).
        let boot = s.upcoming(from: Date(timeIntervalSince1970: 0), days: 3, timeZone: .gmt)
        XCTAssertEqual(boot.map(\.target), [nil, .path("/x"), nil])
        XCTAssertEqual(boot.map { C.show($0.start, .gmt) }, ["Thu 1970-01-01 00:00", "Sat 1970-01-03 10:00", "Sat 1970-01-03 11:00"])
    }

    func testDaylightSavingInTheTable() throws {
        // On the spring-forward Sunday the window opening at 02:30 shows the 03:00 it really opens at.
        let s = try Schedule.parse(text: "sun 02:30-04:00 /x", file: "s", base: "/")
        XCTAssertEqual(Schedule.table(s.upcoming(from: C.local("2026-03-29T00:00"), days: 1, timeZone: C.berlin), timeZone: C.berlin), """
            day             from   to     target
            Sun 2026-03-29  00:00  03:00  (fallback: the paths on the command line)
            Sun 2026-03-29  03:00  04:00  /x
            Sun 2026-03-29  04:00  24:00  (fallback: the paths on the command line)

            """)
    }
}
