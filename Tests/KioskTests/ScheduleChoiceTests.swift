import Foundation
import KioskCore
import KioskPlayer
import XCTest

/// A target chosen by a remote (MQTT's `playlist`) plays through the schedule's driver: at its next turn, as a
/// window's target, until the schedule's next edge.
final class ScheduleChoiceTests: XCTestCase {
    func testAChosenTargetPlaysAtTheNextTurnUntilTheEdge() throws {
        let schedule = try Schedule.parse(text: "*  08:00-09:00  /m/morning\n*  09:00-10:00  /m/late\nfallback /m/default\n",
                                          file: "s", base: "/")
        let zone = try XCTUnwrap(TimeZone(identifier: "UTC"))
        let start = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-06-01T08:30:00Z"))
        var heard: [[String]] = []
        let driver = ScheduleDriver(schedule: schedule, timeZone: zone, wall: { start.addingTimeInterval($0) },
                                    fallbackItems: [], log: Log(level: .error), onPlay: { paths, _ in heard.append(paths) },
                                    load: { [PlaylistItem(path: $0 + "/x.png")] })
        XCTAssertEqual(driver.startingItems(at: 0).map(\.path), ["/m/morning/x.png"])
        _ = driver.turn(at: 0)
        XCTAssertEqual(driver.turn(at: 1), [], "nothing new within the window")
        driver.choose("/m/default")
        XCTAssertEqual(driver.turn(at: 2), [.screen(on: true), .load([PlaylistItem(path: "/m/default/x.png")], .replace)])
        XCTAssertEqual(heard.last, ["/m/default"], "its folders are watched and the fleet hears of it")
        XCTAssertEqual(driver.turn(at: 3), [], "chosen once")
        XCTAssertEqual(driver.turn(at: 1799), [], "kept until the edge")
        // At 09:00 the next window's target takes over from the choice.
        XCTAssertEqual(driver.turn(at: 1800), [.screen(on: true), .load([PlaylistItem(path: "/m/late/x.png")], .replace)])
    }

    func testAChoiceOnTheFirstTurnIsNotUndoneByTheNext() throws {
        let schedule = try Schedule.parse(text: "*  08:00-09:00  /m/morning\nfallback /m/default\n", file: "s", base: "/")
        let zone = try XCTUnwrap(TimeZone(identifier: "UTC"))
        let start = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-06-01T08:30:00Z"))
        let driver = ScheduleDriver(schedule: schedule, timeZone: zone, wall: { start.addingTimeInterval($0) },
                                    fallbackItems: [], log: Log(level: .error), onPlay: { _, _ in },
                                    load: { [PlaylistItem(path: $0 + "/x.png")] })
        driver.choose("/m/default")
        XCTAssertEqual(driver.turn(at: 0), [.screen(on: true), .load([PlaylistItem(path: "/m/default/x.png")], .replace)])
        XCTAssertEqual(driver.turn(at: 1), [], "the window's own target does not come back before its edge")
    }
}
