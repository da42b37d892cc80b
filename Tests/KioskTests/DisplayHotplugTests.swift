import Foundation
import KioskOutput
import XCTest

/// The udev monitor for display hotplug: it opens on a machine without a display or udev daemon (it then listens
/// to the kernel's own uevents) and never blocks the render loop.
final class DisplayHotplugTests: XCTestCase {
    func testMonitorOpensAndDoesNotBlock() throws {
        let monitor = try DisplayHotplugMonitor()
        XCTAssertEqual(monitor.source, FileManager.default.fileExists(atPath: "/run/udev/control") ? "udev" : "kernel")
        let start = Date()
        for _ in 0..<100 { _ = monitor.changed() }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2, "a hundred checks with nothing pending return at once")
    }
}
