import Foundation
import KioskCore
import XCTest
@testable import KioskOutput

/// A span's and a mirror's geometry on one card, without a device: which mode each display takes (one size all
/// offer), where each CRTC scans out from in the shared framebuffer, and the one-line refusals. The scanout itself
/// (one atomic commit of both CRTCs) is checked in the VM (`Kiosk/vm/screens-test.sh`, two-head virtio-gpu).
final class DRMSpanLayoutTests: XCTestCase {
    private func mode(_ w: Int, _ h: Int, _ hz: Double = 60, preferred: Bool = false) -> DisplayMode {
        DisplayMode(width: w, height: h, refreshHz: hz, preferred: preferred)
    }

    private func selection(_ id: UInt32, _ name: String, _ modes: [DisplayMode]) throws -> DisplaySelection {
        let card = CardReport(path: "/nonexistent/card0", driver: "virtio_gpu",
                              connectors: [ConnectorReport(id: id, name: name, status: .connected, modes: modes)])
        return try DisplayReport(cards: [card]).select(DRMOutputOptions(connectorName: name))
    }

    func testDisplaysOfOneSizeKeepTheirOwnChoice() throws {
        let a = try selection(35, "HDMI-A-1", [mode(1920, 1080, preferred: true), mode(1280, 720)])
        let b = try selection(36, "HDMI-A-2", [mode(1280, 720), mode(1920, 1080, 50, preferred: true)])
        let both = try ModeAgreement.commonSize([a, b], label: "HDMI-A-1+HDMI-A-2")
        XCTAssertEqual(both.map(\.mode.name), ["1920x1080@60", "1920x1080@50"])
    }

    func testDisplaysOfTwoSizesMeetAtTheFirstSizeBothOffer() throws {
        // a 4K panel and a 1080p one: the 4K panel's own list, best first, down to a size the other has
        let a = try selection(35, "HDMI-A-1", [mode(3840, 2160, 30, preferred: true), mode(2560, 1440), mode(1920, 1080), mode(1280, 720)])
        let b = try selection(36, "HDMI-A-2", [mode(1280, 720), mode(1920, 1080, 60, preferred: true)])
        let both = try ModeAgreement.commonSize([a, b], label: "HDMI-A-1,HDMI-A-2")
        XCTAssertEqual(both.map(\.mode.name), ["1920x1080@60", "1920x1080@60"])
        XCTAssertEqual(both.map(\.connector.name), ["HDMI-A-1", "HDMI-A-2"])
    }

    func testDisplaysSharingNoSizeAreOneLineListingEachOnesSizes() throws {
        let a = try selection(35, "DP-1", [mode(1024, 768, preferred: true), mode(1024, 768, 75)])
        let b = try selection(36, "DP-2", [mode(1280, 720, preferred: true)])
        XCTAssertThrowsError(try ModeAgreement.commonSize([a, b], label: "DP-1+DP-2")) { error in
            XCTAssertEqual("\(error)", "DP-1+DP-2: the displays share no mode size (DP-1 1024x768; DP-2 1280x720)")
        }
    }

    func testASpanLaysItsPanelsSideBySideWithTheBezelBetweenAndAMirrorAllAtZero() throws {
        let a = try selection(35, "Virtual-1", [mode(640, 480, preferred: true)])
        let b = try selection(36, "Virtual-2", [mode(640, 480, preferred: true)])
        let c = try selection(37, "Virtual-3", [mode(640, 480, preferred: true)])
        let span = DRMDisplayOutput.layout([a, b, c], shape: .span(bezel: 24))
        XCTAssertEqual(span.0, PixelSize(width: 3 * 640 + 2 * 24, height: 480))
        XCTAssertEqual(span.1, [0, 664, 1328])
        // the same geometry as `kiosk snapshot --screen` cuts a span's parts with (ScreenConnectors.canvas)
        let cut = ScreenConnectors.span(["Virtual-1", "Virtual-2", "Virtual-3"], bezel: 24).canvas(outputSize: PixelSize(width: 640, height: 480))
        XCTAssertEqual(cut.size, span.0)
        XCTAssertEqual(cut.parts.map(\.rect.x), span.1)
        let mirror = DRMDisplayOutput.layout([a, b], shape: .mirror)
        XCTAssertEqual(mirror.0, PixelSize(width: 640, height: 480))
        XCTAssertEqual(mirror.1, [0, 0])
        let single = DRMDisplayOutput.layout([a], shape: .single)
        XCTAssertNil(single.0, "one display: its mode's size")
    }

    func testATurnedSpanIsOneLine() throws {
        let card = CardReport(path: "/nonexistent/card0", driver: "virtio_gpu", connectors: [
            ConnectorReport(id: 35, name: "Virtual-1", status: .connected, modes: [mode(640, 480, preferred: true)]),
            ConnectorReport(id: 36, name: "Virtual-2", status: .connected, modes: [mode(640, 480, preferred: true)]),
        ])
        let request = DRMScreenRequest(options: DRMOutputOptions(connectorName: "Virtual-1"), rotation: .clockwise90,
                                       connectors: ["Virtual-1", "Virtual-2"], shape: .span(bezel: 0))
        XCTAssertThrowsError(try DRMDisplayOutput.selections(for: request, report: DisplayReport(cards: [card]))) { error in
            XCTAssertTrue("\(error)".hasPrefix("Virtual-1+Virtual-2: a span or mirror is not turned (--rotate)"), "\(error)")
        }
        let missing = DRMScreenRequest(options: DRMOutputOptions(connectorName: "Virtual-1"),
                                       connectors: ["Virtual-1", "HDMI-A-3"], shape: .mirror)
        XCTAssertThrowsError(try DRMDisplayOutput.selections(for: missing, report: DisplayReport(cards: [card]))) { error in
            XCTAssertTrue("\(error)".contains("connector HDMI-A-3 not found"), "\(error)")
        }
    }
}
