import KioskCore
import XCTest

/// A screen's connector the box does not have (issue 40): one line naming it and the connectors there are, in
/// `--drm-connector`'s words, checked over a list of names (no DRM needed).
final class ScreenConnectorCheckTests: XCTestCase {
    private let box = [ConnectorPresence(name: "HDMI-A-1", status: "connected"),
                       ConnectorPresence(name: "HDMI-A-2", status: "disconnected")]

    private func plans(_ specs: [String]) throws -> [ScreenPlan] {
        let args = specs.flatMap { ["--screen", $0] }
        return try ScreenPlans.resolve(arguments: args, origins: args.map { _ in nil }, sections: [])
    }

    func testAMissingConnectorIsOneLineListingThoseThereAre() throws {
        let plans = try plans(["a:HDMI-A-1:x", "b:HDMI-A-2+HDMI-A-3:y"])
        XCTAssertNoThrow(try plans[0].checkConnectors(present: box))
        XCTAssertThrowsError(try ScreenPlans.checkConnectors(plans, present: box)) { e in
            XCTAssertEqual("\(e)", "--screen b: connector HDMI-A-3 not found; this box has HDMI-A-1 (connected), HDMI-A-2 (disconnected)")
        }
        XCTAssertThrowsError(try plans[0].checkConnectors(present: [])) { e in
            XCTAssertEqual("\(e)", "--screen a: connector HDMI-A-1 not found; this box has none")
        }
        XCTAssertNoThrow(try ScreenPlans.checkConnectors(try self.plans(["m:HDMI-A-1,HDMI-A-2:x"]), present: box),
                         "a disconnected connector exists: hotplug may bring its display")
    }

    func testAConfigLinesScreenIsNamedByItsLine() throws {
        let expanded = try ConfigFile.expandScreens(["--config", "k.conf"], read: { _ in "duration = 3\nscreen = lobby:DP-9:/srv/a\n" })
        let plans = try ScreenPlans.resolve(arguments: expanded.args, origins: expanded.origins, sections: expanded.sections)
        XCTAssertThrowsError(try ScreenPlans.checkConnectors(plans, present: box)) { e in
            XCTAssertTrue("\(e)".hasPrefix("k.conf:2: --screen lobby: connector DP-9 not found; this box has HDMI-A-1"), "\(e)")
        }
    }
}
