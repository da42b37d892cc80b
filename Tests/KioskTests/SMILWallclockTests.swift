import Foundation
import KioskCore
import KioskMedia
import XCTest

/// `wallclock()` begins: the values read, their repeats listed across summer-time changes (instants worked out
/// by hand from the zone's rules: Europe/Berlin is UTC+1, UTC+2 from 2026-03-29 01:00Z to 2026-10-25 01:00Z), and
/// an hourly promotion in a layout's timeline that pauses the loop, which resumes with the time it had left.
final class SMILWallclockTests: XCTestCase {
    private let berlin = TimeZone(identifier: "Europe/Berlin") ?? .current

    private func value(_ text: String) throws -> SMILWallclock {
        switch SMILWallclock.parse(text) {
        case .success(let v)?: return v
        case .failure(let why)?: throw why
        case nil: throw NotAWallclock(text: text)
        }
    }

    private func utc(_ text: String) -> Date {
        let f = ISO8601DateFormatter()
        return f.date(from: text) ?? Date(timeIntervalSince1970: 0)
    }

    private func iso(_ dates: [Date]) -> [String] {
        let f = ISO8601DateFormatter()
        return dates.map { f.string(from: $0) }
    }

    private struct NotAWallclock: Error { var text: String }

    func testValuesAndTheirErrors() throws {
        let v = try value("wallclock(R/2026-12-24T09:00:00/PT1H)")
        XCTAssertEqual(v.date, CivilDate(year: 2026, month: 12, day: 24))
        XCTAssertEqual(v.second, 9 * 3600)
        XCTAssertEqual(v.count, .max)
        XCTAssertEqual(v.period.seconds, 3600)
        XCTAssertNil(v.utcOffset)
        XCTAssertEqual(try value("wallclock(R3/2026-12-24T09:00/P1DT30M)").count, 3)
        XCTAssertEqual(try value("wallclock(R3/2026-12-24T09:00/P1DT30M)").period, SMILWallclock.Period(months: 0, days: 1, seconds: 1800))
        XCTAssertEqual(try value("wallclock( 2026-12-24T08:00:00Z )").utcOffset, 0)
        XCTAssertEqual(try value("wallclock(2026-12-24T08:00:00-05:30)").utcOffset, -(5 * 3600 + 1800))
        XCTAssertNil(try value("wallclock(13:45:30.5)").date, "a time alone: the day the layout begins")
        XCTAssertEqual(try value("wallclock(13:45:30.5)").second, 13 * 3600 + 45 * 60 + 30.5)
        XCTAssertNil(SMILWallclock.parse("5s"), "an offset is no wallclock value")
        for bad in ["wallclock(25:00)", "wallclock(2026-02-30T09:00)", "wallclock(R0/2026-12-24T09:00/PT1H)",
                    "wallclock(R/2026-12-24T09:00/PT0S)", "wallclock(R/2026-12-24T09:00/1H)", "wallclock(tomorrow)"] {
            guard case .failure? = SMILWallclock.parse(bad) else { return XCTFail("\(bad) read") }
        }
    }

    func testHourlyRepeatsStayOnTheHourThroughTheAutumnChange() throws {
        // 2026-10-25 in Berlin: 00:00 CEST = 22:00Z on the 24th; +1 h each: 23:00Z, 00:00Z (02:00 CEST), 01:00Z
        // (02:00 CET: the wall clock's second 02:00), 02:00Z (03:00 CET)
        let hourly = try value("wallclock(R/2026-10-25T00:00:00/PT1H)")
        XCTAssertEqual(iso(hourly.instants(from: utc("2026-10-24T22:00:00Z"), until: utc("2026-10-25T02:30:00Z"), in: berlin)),
                       ["2026-10-24T22:00:00Z", "2026-10-24T23:00:00Z", "2026-10-25T00:00:00Z", "2026-10-25T01:00:00Z",
                        "2026-10-25T02:00:00Z"])
        // from the middle: the one just before `from` comes first (an interrupt may still be playing)
        XCTAssertEqual(iso(hourly.instants(from: utc("2026-10-25T00:30:00Z"), until: utc("2026-10-25T01:30:00Z"), in: berlin)),
                       ["2026-10-25T00:00:00Z", "2026-10-25T01:00:00Z"])
    }

    func testDailyRepeatsKeepTheirLocalTimeAcrossBothChanges() throws {
        // 09:00 every day: 07:00Z in summer, 08:00Z from 2026-10-25 on
        let daily = try value("wallclock(R/2026-10-24T09:00:00/P1D)")
        XCTAssertEqual(iso(daily.instants(from: utc("2026-10-24T00:00:00Z"), until: utc("2026-10-26T12:00:00Z"), in: berlin)),
                       ["2026-10-24T07:00:00Z", "2026-10-25T08:00:00Z", "2026-10-26T08:00:00Z"])
        // 02:30 does not exist on 2026-03-29 (02:00 CET jumps to 03:00 CEST = 01:00Z): it comes at 03:00 CEST
        let early = try value("wallclock(R3/2026-03-28T02:30:00/P1D)")
        XCTAssertEqual(iso(early.instants(from: utc("2026-03-28T00:00:00Z"), until: utc("2026-04-10T00:00:00Z"), in: berlin)),
                       ["2026-03-28T01:30:00Z", "2026-03-29T01:00:00Z", "2026-03-30T00:30:00Z"], "three times in all")
        // a month on keeps the day, cut to the month's last
        let monthly = try value("wallclock(R3/2026-01-31T12:00:00Z/P1M)")
        XCTAssertEqual(iso(monthly.instants(from: utc("2026-01-01T00:00:00Z"), until: utc("2027-01-01T00:00:00Z"), in: berlin)),
                       ["2026-01-31T12:00:00Z", "2026-02-28T12:00:00Z", "2026-03-31T12:00:00Z"])
    }

    /// The promotion on the hour (dur 30 s, first class) over a loop of a (10 s) and b (10 s), for a layout that
    /// begins at 08:59:00 in Berlin. The promo begins at 60 s: the loop, 60 s in (a, third pass), pauses; at 90 s it
    /// resumes 60 s in; at 95 s it is 65 s in: a, 5 s. At 10:00 (3660 s) it has played 3630 s: b from its start, and
    /// pauses again; at 3690 it resumes there.
    func testAnHourlyPromotionPausesTheLoopWhichResumesWithItsTimeLeft() throws {
        let text = """
            <smil><head><layout><region regionName="main"/></layout></head><body><excl>
            <priorityClass id="promo"><img src="promo" begin="wallclock(R/2026-12-24T09:00:00/PT1H)" dur="30s"/></priorityClass>
            <priorityClass id="loop"><seq begin="0s" repeatCount="indefinite"><img src="a" dur="10s"/><img src="b" dur="10s"/></seq>
            </priorityClass></excl></body></smil>
            """
        let doc = try SMILReader.read(try MarkupReader.parse(Array(text.utf8), file: "h.smil"), file: "h.smil")
        let start = utc("2026-12-24T07:59:00Z")  // 08:59 CET
        let tl = SMILTimeline(document: doc, stillDuration: 5, anchor: SMILTimeline.WallAnchor(start: start, zone: berlin)) { _ in .still }
        func at(_ t: Double) -> String {
            guard let a = tl.byRegion(at: t)["main"] else { return "-" }
            return "\(a.media.src)@\(String(format: "%g", (a.offset * 1000).rounded() / 1000))"
        }
        XCTAssertEqual(tl.wallclockProblems, [])
        XCTAssertEqual(at(55), "b@5")
        XCTAssertEqual(at(61), "promo@1")
        XCTAssertEqual(at(95), "a@5")
        XCTAssertEqual(at(3661), "promo@1")
        XCTAssertEqual(at(3691), "b@1")
        XCTAssertEqual(tl.nextChange(after: 3650), 3660, "the next promotion")
        // a wallclock begin in a seq child, where its begin cannot be placed, is one line and never begins
        let seq = try SMILReader.read(try MarkupReader.parse(Array("""
            <smil><head><layout><region regionName="main"/></layout></head><body>
            <img src="a" dur="10s"/><img src="b" begin="wallclock(09:00)" dur="10s"/></body></smil>
            """.utf8), file: "s.smil"), file: "s.smil")
        let never = SMILTimeline(document: seq, stillDuration: 5, anchor: SMILTimeline.WallAnchor(start: start, zone: berlin)) { _ in .still }
        XCTAssertEqual(never.wallclockProblems, ["s.smil:2: wallclock, syncbase and event begins are read in <par> and <excl> children; this one does not begin by them"])
        XCTAssertEqual(never.byRegion(at: 15)["main"]?.media.src, nil)
    }

    func testABadWallclockNamesItsLine() throws {
        let text = """
            <smil><head><layout><region regionName="main"/></layout></head><body>
            <excl><img src="a" begin="wallclock(2026-13-01T09:00)" dur="10s"/></excl></body></smil>
            """
        XCTAssertThrowsError(try SMILReader.read(try MarkupReader.parse(Array(text.utf8), file: "b.smil"), file: "b.smil")) { error in
            XCTAssertTrue("\(error)".hasPrefix("b.smil:2: begin=\"wallclock(2026-13-01T09:00)\": "), "\(error)")
        }
    }
}
