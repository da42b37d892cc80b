import Foundation
import XCTest
import KioskCore
@testable import KioskOutput
@testable import KioskPlayer
import KioskRender

/// The display output's decisions and the CLI's DRM options and errors, on a machine without /dev/dri
/// (the display itself is tested on a real kernel by Kiosk/vm/vm-test.sh).
final class DRMDisplayTests: XCTestCase {
    private let report = DisplayReport(cards: [
        CardReport(path: "/dev/dri/card0", driver: "bochs-drm", connectors: [
            ConnectorReport(id: 35, name: "Virtual-1", status: .connected, modes: [
                DisplayMode(width: 1024, height: 768, refreshHz: 60, preferred: true),
                DisplayMode(width: 640, height: 480, refreshHz: 60, preferred: false),
            ]),
        ]),
    ])

    func testOutputRequestParsesOptions() throws {
        let r = try OutputRequest(output: "drm", device: "/dev/dri/card1", connector: "HDMI-A-1",
                                  mode: "1280x720@50", rotate: "270")
        XCTAssertEqual(r.kind, .drm)
        XCTAssertEqual(r.drm, DRMOutputOptions(devicePath: "/dev/dri/card1", connectorName: "HDMI-A-1",
                                               mode: ModeRequest(width: 1280, height: 720, refreshHz: 50)))
        XCTAssertEqual(r.rotation, .clockwise270)
        let d = try OutputRequest(output: nil, device: nil, connector: nil, mode: nil, rotate: nil)
        XCTAssertEqual(d, OutputRequest(kind: .auto))
        XCTAssertThrowsError(try OutputRequest(output: nil, device: nil, connector: nil, mode: "1280", rotate: nil)) {
            XCTAssertEqual("\($0)", "--drm-mode: '1280' is not WxH or WxH@Hz (e.g. 1920x1080, 1280x720@60)")
        }
        XCTAssertThrowsError(try OutputRequest(output: nil, device: nil, connector: nil, mode: nil, rotate: "45")) {
            XCTAssertEqual("\($0)", "--rotate: '45' is not 0, 90, 180 or 270")
        }
    }

    func testChoosingTheDisplayExplainsInOneLine() throws {
        let none = DisplayReport(cards: [])
        XCTAssertEqual(try? OutputRequest().chooseDisplay(report, directory: "/dev/dri").get().mode.name, "1024x768@60")
        XCTAssertEqual(error(OutputRequest().chooseDisplay(none, directory: "/dev/dri")),
                       "no DRM device: /dev/dri has no cards (no DRM driver loaded?)")
        let named = OutputRequest(kind: .drm, drm: DRMOutputOptions(devicePath: "/dev/dri/card3"))
        XCTAssertEqual(error(named.chooseDisplay(none, directory: "/dev/dri")),
                       "DRM device /dev/dri/card3 not found: /dev/dri has no cards (no DRM driver loaded?)")
        XCTAssertEqual(error(named.chooseDisplay(report, directory: "/dev/dri")),
                       "DRM device /dev/dri/card3 not found; cards: /dev/dri/card0")
        let connector = OutputRequest(kind: .drm, drm: DRMOutputOptions(connectorName: "HDMI-A-1"))
        XCTAssertEqual(error(connector.chooseDisplay(report, directory: "/dev/dri")),
                       "connector HDMI-A-1 not found; cards: /dev/dri/card0: Virtual-1 (connected)")
        let mode = OutputRequest(kind: .drm, drm: DRMOutputOptions(mode: ModeRequest(width: 800, height: 600)))
        XCTAssertEqual(error(mode.chooseDisplay(report, directory: "/dev/dri")),
                       "mode 800x600 not offered by Virtual-1 on /dev/dri/card0; modes: 1024x768@60 (preferred), 640x480@60")
        let denied = DisplayReport(cards: [CardReport(path: "/dev/dri/card0", driver: "", connectors: [],
            error: "open on /dev/dri/card0: permission denied: the user needs the `video` group or a logind seat session")])
        XCTAssertTrue(error(OutputRequest().chooseDisplay(denied, directory: "/dev/dri")).contains("`video` group"))
    }

    private func error(_ r: Result<DisplaySelection, PlayerError>) -> String {
        if case .failure(let e) = r { return e.description }
        return "no error"
    }

    func testRotationTurnsTheCanvas() {
        let screen = PixelSize(width: 640, height: 480)
        XCTAssertEqual(Rotation.clockwise90.canvasSize(forScreen: screen), PixelSize(width: 480, height: 640))
        XCTAssertEqual(Rotation.clockwise180.canvasSize(forScreen: screen), screen)
    }

    func testLostMasterIsLoggedOnceRetriedEveryHalfSecondAndRedrawsWhenBack() {
        var link = DisplayLink(now: 0)
        XCTAssertTrue(link.isShowing)
        XCTAssertTrue(link.masterLost(at: 10))
        XCTAssertFalse(link.masterLost(at: 10.1), "logged once")
        XCTAssertFalse(link.isShowing)
        XCTAssertEqual(link.due(at: 10.3), .none)
        XCTAssertEqual(link.due(at: 10.5), .retryMaster)
        XCTAssertFalse(link.masterRetried(regained: false, at: 10.5))
        XCTAssertEqual(link.due(at: 10.9), .none)
        XCTAssertEqual(link.generation, 0)
        XCTAssertTrue(link.masterRetried(regained: true, at: 11))
        XCTAssertTrue(link.isShowing)
        XCTAssertEqual(link.generation, 1, "the player redraws")
    }

    func testDisconnectIdlesAndReconnectSetsTheModeAgain() {
        var link = DisplayLink(now: 0)
        XCTAssertEqual(link.due(at: 0.5), .none)
        XCTAssertEqual(link.due(at: 1), .pollConnector, "polled while showing")
        XCTAssertNil(link.connector(connected: true, at: 1))
        XCTAssertEqual(link.connector(connected: false, at: 2), .disconnected)
        XCTAssertFalse(link.isShowing)
        XCTAssertEqual(link.due(at: 2.5), .none)
        XCTAssertNil(link.connector(connected: false, at: 3))
        XCTAssertEqual(link.connector(connected: true, at: 4), .showing)
        XCTAssertEqual(link.generation, 1)
    }

    func testPresentationClockPredictsTheNextVblankAndNeverGoesBack() {
        let clock = PresentationClock()
        let a = clock.now
        let flip = MonotonicClock.seconds()
        clock.flipped(at: flip, interval: 0.5)
        let b = clock.now
        XCTAssertGreaterThanOrEqual(b, a)
        XCTAssertGreaterThan(b, (MonotonicClock.seconds() - flip) + a + 0.3, "reads the predicted flip, not now")
        clock.flipped(at: flip - 10, interval: 0.5)   // flips fell behind: plain time, not backward
        XCTAssertGreaterThanOrEqual(clock.now, b)
    }
}

/// `kiosk outputs` and `kiosk play --output` on a machine without DRM cards (KIOSK_DRM_DIR: an empty folder).
extension CLITests {
    func testOutputsWithoutCardsExitsOneWithOneLine() throws {
        let dir = try TempDir()
        let r = try kiosk(["outputs"], environment: ["KIOSK_DRM_DIR": dir.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "kiosk: error: no DRM cards in \(dir.path) (no DRM driver loaded, or no display hardware)\n")
        XCTAssertEqual(r.stdout, "")
    }

    func testOutputDrmWithoutDeviceExitsOneNamingIt() throws {
        let dir = try TempDir()
        let r = try kiosk(["play", "--output", "drm", "--drm-device", "\(dir.path)/card0"],
                              environment: ["KIOSK_DRM_DIR": dir.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "kiosk: error: DRM device \(dir.path)/card0 not found: \(dir.path) has no cards (no DRM driver loaded?)\n")
        let bad = try kiosk(["play", "--output", "drm", "--drm-mode", "wide"], environment: ["KIOSK_DRM_DIR": dir.path])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--drm-mode"), bad.stderr)
    }

    func testAutoFallsBackToHeadlessWithOneInfoLine() throws {
        let dir = try TempDir()
        let png = try picture(dir, "a.png", size: "64x48")
        let r = try kiosk(["play", png, "--size", "64x48", "--length", "0.3", "--log-level", "info"],
                              environment: ["KIOSK_DRM_DIR": dir.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("output:") }
        XCTAssertEqual(lines.count, 1, r.stderr)
        XCTAssertTrue(lines.first?.hasPrefix("kiosk: info: output: headless 64x48 (auto: no DRM device: \(dir.path) has no cards") ?? false, r.stderr)
    }
}
