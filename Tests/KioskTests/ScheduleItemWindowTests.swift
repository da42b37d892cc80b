import XCTest
@testable import KioskCore

/// A playlist item's `#EXTKIOSK:` window (days, from, to, start, end) and the `--timezone` and `--start-time`
/// values.
final class ScheduleItemWindowTests: XCTestCase {
    typealias C = ScheduleClock

    private func error(_ payload: String) -> String {
        do {
            _ = try ItemWindow.split(payload: payload)
            return "no error"
        } catch {
            return error.description
        }
    }

    func testTheIssuesExample() throws {
        let w = try ItemWindow(parsing: "days=mon-fri,from=09:00,to=17:30,start=2026-12-24,end=2027-01-02")
        func at(_ t: String) -> Bool { w.contains(C.local(t), timeZone: C.berlin) }
        XCTAssertFalse(at("2026-12-23T10:00"))  // before start
        XCTAssertFalse(at("2026-12-24T08:59:59"))
        XCTAssertTrue(at("2026-12-24T09:00"))
        XCTAssertTrue(at("2026-12-24T17:29:59"))
        XCTAssertFalse(at("2026-12-24T17:30"))
        XCTAssertFalse(at("2026-12-26T10:00"))  // Saturday
        XCTAssertTrue(at("2027-01-01T10:00"))
        XCTAssertFalse(at("2027-01-04T10:00"))  // after end
        func next(_ t: String) -> String? { w.nextChange(after: C.local(t), timeZone: C.berlin).map { C.show($0) } }
        XCTAssertEqual(next("2026-03-02T10:00"), "Thu 2026-12-24 09:00")
        XCTAssertEqual(next("2026-12-24T10:00"), "Thu 2026-12-24 17:30")
        XCTAssertEqual(next("2026-12-25T18:00"), "Mon 2026-12-28 09:00")
        XCTAssertNil(next("2027-01-01T18:00"))
    }

    func testOpenEndsOvernightAndDaysLists() throws {
        let all = try ItemWindow(parsing: "")
        XCTAssertTrue(all.contains(C.local("2026-03-02T03:00"), timeZone: C.berlin))
        XCTAssertNil(all.nextChange(after: C.local("2026-03-02T03:00"), timeZone: C.berlin))
        let evening = try ItemWindow(parsing: "from=18:00")
        XCTAssertEqual(evening.window.time, try DailyWindow.parse("18:00-24:00").get())
        XCTAssertEqual(try ItemWindow(parsing: "to=12:00").window.time, try DailyWindow.parse("00:00-12:00").get())
        XCTAssertEqual(try ItemWindow(parsing: "start=2026-12-24").window.dates.description, "2026-12-24..")
        // Overnight belongs to the day it starts on; a days list goes on after commas.
        let night = try ItemWindow(parsing: "days=fri,sat,from=22:00,to=02:00")
        XCTAssertEqual(night.window.days.description, "fri,sat")
        XCTAssertTrue(night.contains(C.local("2026-03-08T01:59"), timeZone: C.berlin))  // Saturday's night, on Sunday
        XCTAssertFalse(night.contains(C.local("2026-03-09T01:00"), timeZone: C.berlin))  // Sunday's: not listed
        XCTAssertEqual(night.nextChange(after: C.local("2026-03-08T01:00"), timeZone: C.berlin), C.local("2026-03-08T02:00"))
        XCTAssertEqual(night.nextChange(after: C.local("2026-03-08T02:00"), timeZone: C.berlin), C.local("2026-03-13T22:00"))
    }

    func testSplittingAPayloadLeavesTheProjectionKeys() throws {
        let (window, rest) = try ItemWindow.split(payload: "projection=equirect,days=sat,sun,from=10:00,yaw=30")
        XCTAssertEqual(window, try ItemWindow(parsing: "days=sat,sun,from=10:00"))
        XCTAssertEqual(rest, "projection=equirect,yaw=30")
        XCTAssertEqual(try ProjectionOverride(parsing: rest).yaw, 30)
        let none = try ItemWindow.split(payload: "projection=fisheye,input-fov=200")
        XCTAssertNil(none.window)
        XCTAssertEqual(none.rest, "projection=fisheye,input-fov=200")
    }

    func testErrorsNameTheKey() {
        XCTAssertEqual(error("from=9"), "from: '9' is not a time HH:MM (00:00 to 23:59)")
        XCTAssertEqual(error("from=24:00"), "from: '24:00' is not a time HH:MM (00:00 to 23:59)")
        XCTAssertEqual(error("to=25:00"), "to: '25:00' is not a time HH:MM (00:00 to 24:00)")
        XCTAssertEqual(error("days=mun"), "days: unknown day name 'mun'")
        XCTAssertEqual(error("from=10:00,to=10:00"), "from/to: start equals end in '10:00-10:00' (00:00-24:00 is the whole day)")
        XCTAssertEqual(error("start=2027-01-02,end=2026-12-24"), "start/end: date range backwards: 2027-01-02 is after 2026-12-24")
        XCTAssertEqual(error("end=2026-02-29"), "end: '2026-02-29' is not a real day as YYYY-MM-DD")
        XCTAssertEqual(error("yaw=30,sun"), "'sun' is not key=value")
        XCTAssertEqual(error("from="), "'from=' is not key=value")
        XCTAssertThrowsError(try ItemWindow(parsing: "colour=red")) {
            XCTAssertEqual(($0 as? FieldError)?.description, "unknown key 'colour' (known: days, from, to, start, end)")
        }
    }

    func testTimeZoneFlag() {
        XCTAssertEqual(try ClockOptions.timeZone("America/New_York").identifier, "America/New_York")
        for bad in ["Mars/Base", ""] {
            XCTAssertThrowsError(try ClockOptions.timeZone(bad)) {
                XCTAssertEqual(($0 as? UsageError)?.message,
                               "--timezone: '\(bad)' is not a time zone (expected Area/City, e.g. Europe/Berlin)")
            }
        }
    }

    func testStartTimeFlag() throws {
        XCTAssertEqual(try ClockOptions.startTime("2026-12-24T08:59:50", timeZone: C.berlin), C.utc("2026-12-24T07:59:50Z"))
        XCTAssertEqual(try ClockOptions.startTime("2026-07-01T12:00", timeZone: C.newYork), C.utc("2026-07-01T16:00:00Z"))
        XCTAssertEqual(try ClockOptions.startTime("2026-03-29T02:30", timeZone: C.berlin), C.utc("2026-03-29T01:00:00Z"))  // the gap
        XCTAssertEqual(try ClockOptions.startTime("2026-10-25T02:30", timeZone: C.berlin), C.utc("2026-10-25T00:30:00Z"))  // the first
        for bad in ["2026-12-24 08:59", "2026-13-01T00:00", "2026-12-24T24:00", "2026-12-24T8:59", "2026-12-24T08:59:5", "tomorrow"] {
            XCTAssertThrowsError(try ClockOptions.startTime(bad, timeZone: C.berlin)) {
                XCTAssertEqual(($0 as? UsageError)?.message,
                               "--start-time: '\(bad)' is not a local time YYYY-MM-DDTHH:MM[:SS] (e.g. 2026-12-24T08:59:50)")
            }
        }
        XCTAssertThrowsError(try ClockOptions.startTime("2026-12-24T08:59:60", timeZone: C.berlin)) {
            XCTAssertEqual(($0 as? UsageError)?.message,
                           "--start-time: '2026-12-24T08:59:60' is not a local time YYYY-MM-DDTHH:MM[:SS] (seconds 00 to 59)")
        }
    }
}
