import KioskCore
@testable import KioskPlayer
import XCTest

/// `play` finds its outputs in one table: every `--output` value names entries there, `auto` is the display
/// and then headless, and `--untimed` has its own entry.
final class OutputRegistryTests: XCTestCase {
    func testEveryOutputKindResolvesToEntriesInOrder() {
        XCTAssertEqual(OutputRegistry.candidates(for: .auto, untimed: false).map(\.name), ["drm", "headless"])
        XCTAssertEqual(OutputRegistry.candidates(for: .drm, untimed: false).map(\.name), ["drm"])
        XCTAssertEqual(OutputRegistry.candidates(for: .headless, untimed: false).map(\.name), ["headless"])
        for kind in OutputRequest.Kind.allCases {
            XCTAssertEqual(OutputRegistry.candidates(for: kind, untimed: true).map(\.name), ["untimed"])
            XCTAssertEqual(OutputRegistry.candidates(for: kind, untimed: false).count,
                           OutputRegistry.names(for: kind, untimed: false).count, "\(kind) names an output the table lacks")
        }
        XCTAssertEqual(Set(OutputRegistry.entries.map(\.name)).count, OutputRegistry.entries.count, "names are unique")
    }

    func testOnlyDisplaysAndNamedInputDevicesNeedDeviceAccess() {
        XCTAssertTrue(OutputRegistry.needsDevices(.auto, untimed: false, input: nil))
        XCTAssertTrue(OutputRegistry.needsDevices(.drm, untimed: false, input: nil))
        XCTAssertFalse(OutputRegistry.needsDevices(.headless, untimed: false, input: nil))
        XCTAssertFalse(OutputRegistry.needsDevices(.auto, untimed: true, input: nil))
        var named = InputOptions()
        named.devices = ["/dev/input/event0"]
        XCTAssertTrue(OutputRegistry.needsDevices(.headless, untimed: false, input: named))
    }
}
