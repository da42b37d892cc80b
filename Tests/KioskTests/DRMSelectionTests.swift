import Foundation
import XCTest
@testable import KioskOutput

/// Choosing card, connector and mode from options, and the DRM device errors, without a DRM device.
final class DRMSelectionTests: XCTestCase {
    private let virtual = ConnectorReport(id: 35, name: "Virtual-1", status: .connected, modes: [
        DisplayMode(width: 1024, height: 768, refreshHz: 75.03, preferred: false),
        DisplayMode(width: 800, height: 600, refreshHz: 60, preferred: true),
        DisplayMode(width: 1024, height: 768, refreshHz: 60.004, preferred: false),
    ])
    private let hdmi = ConnectorReport(id: 40, name: "HDMI-A-1", status: .disconnected, modes: [])

    private var report: DisplayReport {
        DisplayReport(cards: [
            CardReport(path: "/dev/dri/card0", driver: "simple", connectors: [hdmi]),
            CardReport(path: "/dev/dri/card1", driver: "bochs-drm", connectors: [hdmi, virtual]),
        ])
    }

    func testModeRequestParsing() {
        XCTAssertEqual(ModeRequest(parsing: "1920x1080"), ModeRequest(width: 1920, height: 1080))
        XCTAssertEqual(ModeRequest(parsing: "1280x720@59.94"), ModeRequest(width: 1280, height: 720, refreshHz: 59.94))
        for bad in ["", "1920", "1920x", "x1080", "0x10", "10x10@", "10x10@0", "10x10@x", "10x10@60@60", "axb"] {
            XCTAssertNil(ModeRequest(parsing: bad), bad)
        }
        XCTAssertEqual(ModeRequest(width: 800, height: 600, refreshHz: 60).description, "800x600@60")
    }

    func testModeNames() {
        XCTAssertEqual(virtual.modes[0].name, "1024x768@75.03")
        XCTAssertEqual(virtual.modes[1].description, "800x600@60 (preferred)")
    }

    func testDefaultsPickFirstConnectedCardConnectorAndPreferredMode() throws {
        let s = try report.select(DRMOutputOptions())
        XCTAssertEqual(s.path, "/dev/dri/card1")
        XCTAssertEqual(s.connector.name, "Virtual-1")
        XCTAssertEqual(s.modeIndex, 1)
    }

    func testModeRequestWithoutRefreshPicksHighestRefresh() throws {
        let s = try report.select(DRMOutputOptions(mode: ModeRequest(width: 1024, height: 768)))
        XCTAssertEqual(s.mode.name, "1024x768@75.03")
        let at60 = try report.select(DRMOutputOptions(mode: ModeRequest(parsing: "1024x768@60")))
        XCTAssertEqual(at60.modeIndex, 2)
    }

    func testConnectorByNameFindsItsCard() throws {
        let s = try report.select(DRMOutputOptions(connectorName: "Virtual-1"))
        XCTAssertEqual(s.path, "/dev/dri/card1")
    }

    func testUnknownConnectorListsTheExistingOnes() {
        XCTAssertThrowsError(try report.select(DRMOutputOptions(devicePath: "/dev/dri/card1", connectorName: "DP-3"))) {
            XCTAssertEqual("\($0)", "connector DP-3 not found on /dev/dri/card1; connectors: HDMI-A-1 (disconnected), Virtual-1 (connected)")
        }
        XCTAssertThrowsError(try report.select(DRMOutputOptions(connectorName: "DP-3"))) {
            XCTAssertEqual("\($0)", "connector DP-3 not found; cards: /dev/dri/card0: HDMI-A-1 (disconnected); /dev/dri/card1: HDMI-A-1 (disconnected), Virtual-1 (connected)")
        }
    }

    func testModeNotOfferedListsTheModes() {
        XCTAssertThrowsError(try report.select(DRMOutputOptions(mode: ModeRequest(parsing: "1920x1080")))) {
            XCTAssertEqual("\($0)", "mode 1920x1080 not offered by Virtual-1 on /dev/dri/card1; modes: 1024x768@75.03, 800x600@60 (preferred), 1024x768@60")
        }
    }

    func testDisconnectedOrMissingDisplays() {
        XCTAssertThrowsError(try report.select(DRMOutputOptions(devicePath: "/dev/dri/card0"))) {
            XCTAssertEqual("\($0)", "no connected connector on /dev/dri/card0; connectors: HDMI-A-1 (disconnected)")
        }
        XCTAssertThrowsError(try report.select(DRMOutputOptions(devicePath: "/dev/dri/card7"))) {
            XCTAssertEqual("\($0)", "DRM device /dev/dri/card7 not found; cards: /dev/dri/card0, /dev/dri/card1")
        }
        XCTAssertThrowsError(try DisplayReport(cards: []).select(DRMOutputOptions())) {
            XCTAssertEqual("\($0)", "no DRM card with a connected connector; no DRM cards")
        }
    }

    func testReportText() {
        XCTAssertEqual(report.description, """
            /dev/dri/card0 (simple)
              HDMI-A-1 disconnected
            /dev/dri/card1 (bochs-drm)
              HDMI-A-1 disconnected
              Virtual-1 connected: 1024x768@75.03, 800x600@60 (preferred), 1024x768@60
            """)
    }

    func testOpeningAMissingDeviceSaysSo() {
        XCTAssertThrowsError(try DRMDevice(path: "/nonexistent/card0")) {
            XCTAssertEqual("\($0)", "open on /nonexistent/card0: no such device (is a DRM driver loaded?)")
        }
    }

    func testOpeningANonDRMFileSaysSo() {
        XCTAssertThrowsError(try DRMDevice(path: "/dev/null")) {
            XCTAssertEqual("\($0)", "drmGetVersion on /dev/null: not a DRM device")
        }
    }

    func testReportOfAFolderWithoutCardsIsEmpty() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-dri-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("card0").path, contents: Data())
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("renderD128").path, contents: Data())
        let r = DRMDevice.report(directory: dir.path)
        XCTAssertEqual(r.cards.map(\.path), [dir.path + "/card0"])
        XCTAssertEqual(r.cards.first?.error, "drmGetVersion on \(dir.path)/card0: not a DRM device")
        XCTAssertEqual(DRMDevice.report(directory: dir.path + "/none").description, "no DRM cards")
    }
}
