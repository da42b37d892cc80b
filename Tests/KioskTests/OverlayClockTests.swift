import Foundation
import KioskCore
import XCTest

/// The clock overlay on simulated wall-clock time (`--start-time`): its text, when it next changes, seconds
/// formats, a daylight-saving change, and where it sits.
final class OverlayClockTests: XCTestCase {
    typealias F = OverlayFixture

    private func start(_ local: String) throws -> Date { try ClockOptions.startTime(local, timeZone: F.berlin) }

    private func clockScene(_ text: String, anchor: OverlayAnchor = .topRight) -> OverlayScene {
        OverlayScene(texts: [OverlayText(role: .clock, text: text, anchor: anchor, area: F.area, sizeFraction: 0.045,
                                         maxWidthFraction: 0.5, box: true)])
    }

    private func state(_ format: String, anchor: OverlayAnchor = .topRight) throws -> OverlayState {
        let clock = try ClockFormat(parsing: format)
        return OverlayState(settings: F.settings { $0.clock = clock; $0.clockPosition = anchor })
    }

    func testMinutesChangeOnTheMinuteEdgeOfTheSimulatedWallClock() throws {
        let s = try state("%H:%M")
        let t0 = try start("2026-12-24T08:59:50")
        func at(_ t: Double) -> OverlayContext { F.context(nil, now: t0.addingTimeInterval(t)) }
        XCTAssertEqual(s.scene(at: 0, context: at(0)), clockScene("08:59"))
        XCTAssertEqual(s.scene(at: 9.99, context: at(9.99)), clockScene("08:59"))
        XCTAssertEqual(s.scene(at: 10, context: at(10)), clockScene("09:00"))
        XCTAssertEqual(s.nextChange(after: 0, context: at(0)), 10, "exactly the minute edge")
        XCTAssertEqual(s.nextChange(after: 10, context: at(10)), 70)
        XCTAssertEqual(s.nextChange(after: 100, context: at(0)), 110, "in player time, from the context's wall clock")
    }

    func testSecondsChangeEverySecond() throws {
        for format in ["%H:%M:%S", "%T"] {
            let s = try state(format)
            let t0 = try start("2026-12-24T08:59:58")
            func at(_ t: Double) -> OverlayContext { F.context(nil, now: t0.addingTimeInterval(t)) }
            XCTAssertEqual(s.scene(at: 0, context: at(0)), clockScene("08:59:58"), format)
            XCTAssertEqual(s.scene(at: 0.75, context: at(0.75)), clockScene("08:59:58"), format)
            XCTAssertEqual(s.scene(at: 1, context: at(1)), clockScene("08:59:59"), format)
            XCTAssertEqual(s.scene(at: 2, context: at(2)), clockScene("09:00:00"), format)
            XCTAssertEqual(s.nextChange(after: 0.25, context: at(0.25)), 1, format)
        }
        XCTAssertFalse(try ClockFormat(parsing: "%H:%M %%S").showsSeconds, "%%S is text")
    }

    func testTheSpringForwardChangeInBerlin() throws {
        let s = try state("%H:%M:%S")
        let t0 = try start("2026-03-29T01:59:59")
        func at(_ t: Double) -> OverlayContext { F.context(nil, now: t0.addingTimeInterval(t)) }
        XCTAssertEqual(s.scene(at: 0, context: at(0)), clockScene("01:59:59"))
        XCTAssertEqual(s.scene(at: 1, context: at(1)), clockScene("03:00:00"), "02:00 never shows that day")
        let minutes = try state("%a %e %b %R")
        XCTAssertEqual(minutes.scene(at: 0, context: at(0)), clockScene("Sun 29 Mar 01:59"))
        XCTAssertEqual(minutes.nextChange(after: 0, context: at(0)), 1)
        XCTAssertEqual(minutes.scene(at: 1, context: at(1)), clockScene("Sun 29 Mar 03:00"))
    }

    func testTheClockKeepsItsCornerAndAMessageStacksAfterIt() throws {
        let s = try state("%H:%M", anchor: .topLeft)
        let t0 = try start("2026-12-24T08:59:50")
        s.noteVolume(.set(5), volume: 5, muted: false, at: 0)
        let scene = s.scene(at: 0, context: F.context(nil, now: t0))
        XCTAssertEqual(scene, OverlayScene(texts: clockScene("08:59", anchor: .topLeft).texts + [F.osdText("Volume 5 %")]))
    }

    func testFormatErrorsNameTheConversion() {
        XCTAssertThrowsError(try ClockFormat(parsing: "%H:%q")) { XCTAssertTrue("\($0)".contains("%q"), "\($0)") }
        XCTAssertThrowsError(try ClockFormat(parsing: "%H:%")) { XCTAssertTrue("\($0)".contains("lone '%'"), "\($0)") }
        XCTAssertThrowsError(try ClockFormat(parsing: "%T %q")) { XCTAssertTrue("\($0)".hasPrefix("column 4:"), "in the text as written: \($0)") }
    }
}
