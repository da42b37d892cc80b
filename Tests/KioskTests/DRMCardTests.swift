import Foundation
import KioskCore
import XCTest
@testable import KioskOutput

/// The card shared by several screens' outputs without a DRM device: master taken by the first output and given
/// back by the last, and the lines for screens that can't share one card.
final class DRMCardTests: XCTestCase {
    private struct Refused: Error {}

    func testTheFirstJoinTakesMasterAndTheLastLeaveGivesItBack() throws {
        var events: [String] = []
        let hold = MasterHold(take: { events.append("take") }, release: { events.append("release") })
        try hold.join()
        try hold.join()
        XCTAssertEqual(events, ["take"])
        hold.leave()
        XCTAssertEqual(events, ["take"], "one output still shows")
        hold.leave()
        XCTAssertEqual(events, ["take", "release"])
        hold.leave()  // a close too many
        XCTAssertEqual(events, ["take", "release"])
        XCTAssertEqual(hold.holders, 0)
        try hold.join()
        XCTAssertEqual(events, ["take", "release", "take"], "a card used again is taken again")
    }

    func testAFailedTakeJoinsNobodyAndTheNextJoinTriesAgain() throws {
        var refuse = true, takes = 0, releases = 0
        let hold = MasterHold(take: {
            takes += 1
            if refuse { throw Refused() }
        }, release: { releases += 1 })
        XCTAssertThrowsError(try hold.join())
        XCTAssertEqual(hold.holders, 0)
        hold.leave()
        XCTAssertEqual(releases, 0, "nothing was taken, nothing is given back")
        refuse = false
        try hold.join()
        XCTAssertEqual(takes, 2)
        XCTAssertEqual(hold.holders, 1)
    }

    private func connector(_ id: UInt32, _ name: String, connected: Bool = true) -> ConnectorReport {
        ConnectorReport(id: id, name: name, status: connected ? .connected : .disconnected,
                        modes: connected ? [DisplayMode(width: 640, height: 480, refreshHz: 60, preferred: true)] : [])
    }

    private var report: DisplayReport {
        DisplayReport(cards: [
            CardReport(path: "/nonexistent/card0", driver: "virtio_gpu",
                       connectors: [connector(35, "Virtual-1"), connector(36, "Virtual-2")]),
            CardReport(path: "/nonexistent/card1", driver: "bochs-drm", connectors: [connector(40, "Virtual-3")]),
        ])
    }

    private func open(_ names: [String]) -> String {
        let screens = names.map { DRMScreenRequest(options: DRMOutputOptions(connectorName: $0)) }
        do {
            _ = try DRMDisplayOutput.open(screens: screens, report: report)
            return "opened"
        } catch {
            return "\(error)"
        }
    }

    func testAMissingConnectorIsOneLineNamingTheOnesThatExist() {
        let line = open(["Virtual-1", "HDMI-A-9"])
        XCTAssertTrue(line.contains("connector HDMI-A-9 not found"), line)
        XCTAssertTrue(line.contains("Virtual-1 (connected), Virtual-2 (connected)"), line)
        XCTAssertFalse(line.contains("\n"), line)
    }

    func testScreensOverTwoCardsAreOneLine() {
        let line = open(["Virtual-1", "Virtual-3"])
        XCTAssertEqual(line, "several screens over several cards are not built yet (issue 40): Virtual-1 on /nonexistent/card0, "
                       + "Virtual-3 on /nonexistent/card1; give connectors of one card")
    }

    func testOneConnectorForTwoScreensIsOneLine() {
        XCTAssertEqual(open(["Virtual-2", "Virtual-2"]),
                       "connector Virtual-2 is given to two screens")
    }

    func testACardThatIsNotThereSaysSoBeforeAnythingIsTaken() {
        let line = open(["Virtual-1", "Virtual-2"])
        XCTAssertTrue(line.contains("/nonexistent/card0"), line)
        XCTAssertTrue(line.contains("no such device"), line)
    }

    func testACardThatIsNoDRMDeviceIsRefused() {
        XCTAssertThrowsError(try DRMCard(path: "/dev/null")) { error in
            XCTAssertTrue("\(error)".contains("not a DRM device"), "\(error)")
        }
    }
}
