import XCTest
@testable import KioskCore

/// Daylight-saving changes in Europe/Berlin and America/New_York: an edge at wall-clock time W happens the first
/// time the clock reads W or later, so a window inside a spring-forward gap is empty that day, a window starting
/// in the gap starts at the change, and an edge in a fall-back hour happens once, the first time.
final class ScheduleDSTTests: XCTestCase {
    typealias C = ScheduleClock

    private func schedule(_ text: String) throws -> Schedule { try Schedule.parse(text: text, file: "s", base: "/") }

    func testBerlinSpringForwardSkipsTheWindowInTheGap() throws {
        // 2026-03-29 02:00 CET becomes 03:00 CEST (01:00 UTC): 02:00-03:00 does not exist that day.
        let s = try schedule("* 02:00-03:00 /two")
        XCTAssertEqual(C.changes(s, from: C.utc("2026-03-28T00:00:00Z"), to: C.utc("2026-03-31T00:00:00Z")), [
            "Sat 2026-03-28 01:00 fallback:-", "Sat 2026-03-28 02:00 two:1", "Sat 2026-03-28 03:00 fallback:-",
            "Mon 2026-03-30 02:00 two:1", "Mon 2026-03-30 03:00 fallback:-",
        ])
        XCTAssertEqual(s.decision(at: C.utc("2026-03-29T00:30:00Z"), timeZone: C.berlin).nextChange, C.utc("2026-03-30T00:00:00Z"))
    }

    func testBerlinSpringForwardStartsAWindowAtTheChange() throws {
        let s = try schedule("* 02:30-04:00 /late\n* 01:00-02:30 /early")
        XCTAssertEqual(C.changes(s, from: C.utc("2026-03-28T23:30:00Z"), to: C.utc("2026-03-29T03:00:00Z")), [
            "Sun 2026-03-29 00:30 fallback:-",
            "Sun 2026-03-29 01:00 early:2",  // 00:00 UTC
            "Sun 2026-03-29 03:00 late:1",  // 01:00 UTC: the clock jumps past 02:30, so early ends and late starts
            "Sun 2026-03-29 04:00 fallback:-",  // 02:00 UTC
        ])
        XCTAssertEqual(s.decision(at: C.utc("2026-03-29T00:00:00Z"), timeZone: C.berlin).nextChange, C.utc("2026-03-29T01:00:00Z"))
        XCTAssertEqual(s.decision(at: C.utc("2026-03-29T01:00:00Z"), timeZone: C.berlin).nextChange, C.utc("2026-03-29T02:00:00Z"))
    }

    func testBerlinFallBackEdgeHappensOnce() throws {
        // 2026-10-25 03:00 CEST becomes 02:00 CET (01:00 UTC): 02:00-03:00 is read twice.
        let s = try schedule("* 02:30-05:00 /x")
        let d = s.decision(at: C.utc("2026-10-25T00:30:00Z"), timeZone: C.berlin)  // 02:30 CEST, the first time
        XCTAssertEqual(d.action, .play("/x", line: 1))
        XCTAssertEqual(d.nextChange, C.utc("2026-10-25T04:00:00Z"))  // 05:00 CET: no second start at 02:30 CET
        XCTAssertEqual(s.decision(at: C.utc("2026-10-25T00:29:59Z"), timeZone: C.berlin).nextChange, C.utc("2026-10-25T00:30:00Z"))
        // A window that ends at 02:30 ends the first time and stays ended through the repeated hour.
        let early = try schedule("* 01:00-02:30 /a")
        XCTAssertEqual(early.decision(at: C.utc("2026-10-24T23:00:00Z"), timeZone: C.berlin).nextChange, C.utc("2026-10-25T00:30:00Z"))
        let repeated = early.decision(at: C.utc("2026-10-25T01:15:00Z"), timeZone: C.berlin)  // 02:15 CET
        XCTAssertEqual(repeated.action, .fallback(nil))
        XCTAssertEqual(repeated.nextChange, C.utc("2026-10-26T00:00:00Z"))  // Monday 01:00 CET
        // A window up to 03:00 runs through both passes: the clock first reads 03:00 at 03:00 CET.
        let half = try schedule("* 02:30-03:00 /h")
        XCTAssertEqual(half.decision(at: C.utc("2026-10-25T00:30:00Z"), timeZone: C.berlin).nextChange, C.utc("2026-10-25T02:00:00Z"))
    }

    func testNewYorkBothDirections() throws {
        // 2026-03-08 02:00 EST becomes 03:00 EDT (07:00 UTC); 2026-11-01 02:00 EDT becomes 01:00 EST (06:00 UTC).
        // On the 9th the later line (ny) wins until 02:30, then gap plays its last half hour.
        let s = try schedule("* 02:00-03:00 /gap\n* 01:30-02:30 /ny")
        XCTAssertEqual(C.changes(s, from: C.utc("2026-03-08T05:00:00Z"), to: C.utc("2026-03-09T12:00:00Z"), C.newYork), [
            "Sun 2026-03-08 00:00 fallback:-", "Sun 2026-03-08 01:30 ny:2", "Sun 2026-03-08 03:00 fallback:-",
            "Mon 2026-03-09 01:30 ny:2", "Mon 2026-03-09 02:30 gap:1", "Mon 2026-03-09 03:00 fallback:-",
        ])
        XCTAssertEqual(s.decision(at: C.utc("2026-03-08T06:30:00Z"), timeZone: C.newYork).nextChange, C.utc("2026-03-08T07:00:00Z"))
        let fall = try schedule("* 01:30-03:00 /x\n* 00:00-01:30 /y")
        XCTAssertEqual(C.changes(fall, from: C.utc("2026-11-01T03:00:00Z"), to: C.utc("2026-11-01T09:00:00Z"), C.newYork), [
            "Sat 2026-10-31 23:00 fallback:-", "Sun 2026-11-01 00:00 y:2",
            "Sun 2026-11-01 01:30 x:1",  // 05:30 UTC, the first 01:30 (EDT)
            "Sun 2026-11-01 03:00 fallback:-",  // 08:00 UTC: x ran through the repeated hour
        ])
        XCTAssertEqual(fall.decision(at: C.utc("2026-11-01T05:30:00Z"), timeZone: C.newYork).nextChange, C.utc("2026-11-01T08:00:00Z"))
    }

    func testAWeekAcrossEachChangeKeepsTheWallClockEdges() throws {
        let s = try Schedule.parse(text: ScheduleTests.example, file: "s", base: "/")
        func check(_ monday: String, _ zone: TimeZone, line: UInt = #line) {
            guard let first = CivilDate(parsing: monday) else { return XCTFail("bad day", line: line) }
            let days = (0..<7).map { first.adding(days: $0) }.map { "\($0.weekday.shortName) \($0)" }
            var expected = ["\(days[0]) 00:00 off:5"]
            for (i, day) in days.enumerated() {
                expected += i < 5 ? ["\(day) 07:00 day:2", "\(day) 18:00 evening.m3u:4", "\(day) 23:00 off:5"]
                                  : ["\(day) 07:00 fallback:/srv/kiosk/default", "\(day) 09:00 weekend:3",
                                     "\(day) 17:00 fallback:/srv/kiosk/default", "\(day) 18:00 evening.m3u:4", "\(day) 23:00 off:5"]
            }
            let from = LocalClock.instant(first, second: 0, in: zone)
            let to = LocalClock.instant(first.adding(days: 7), second: 0, in: zone)
            XCTAssertEqual(C.changes(s, from: from, to: to, zone), expected, line: line)
        }
        check("2026-03-23", C.berlin)
        check("2026-10-19", C.berlin)
        check("2026-03-02", C.newYork)
        check("2026-10-26", C.newYork)
        // The Saturday night off window is an hour shorter in spring and an hour longer in autumn.
        func offHours(_ saturday: String) -> Double? {
            let start = C.local(saturday)
            return s.decision(at: start, timeZone: C.berlin).nextChange.map { $0.timeIntervalSince(start) / 3600 }
        }
        XCTAssertEqual(offHours("2026-03-21T23:00"), 8)
        XCTAssertEqual(offHours("2026-03-28T23:00"), 7)
        XCTAssertEqual(offHours("2026-10-24T23:00"), 9)
    }
}
