import Foundation
import KioskCore
import XCTest

/// Input devices go to screens (issue 40): `--input-device PATH@NAME` gives a device to screen NAME and the devices
/// that name none go to the first screen, which alone reads the seat when none is named; a screen that is not there
/// is one line; the real binary opens the device by its path without the suffix.
final class InputRoutingTests: XCTestCase {
    func testDevicesGoToTheirScreens() throws {
        var o = InputOptions()
        o.devices = ["/dev/input/event3@lobby", "/dev/input/event4", "/dev/input/by-id/usb-Kbd@Vendor-event", "/dev/input/event5@door"]
        XCTAssertEqual(o.forScreen("door", first: true)?.devices, ["/dev/input/event4", "/dev/input/by-id/usb-Kbd@Vendor-event", "/dev/input/event5"],
                       "the first screen: its own and those naming no screen (an @ not followed by a screen name, here upper case, is the path's)")
        XCTAssertEqual(o.forScreen("lobby", first: false)?.devices, ["/dev/input/event3"])
        XCTAssertNil(o.forScreen("hall", first: false), "no device: no input")
        XCTAssertNoThrow(try o.checkScreens(["door", "lobby"]))
        XCTAssertThrowsError(try o.checkScreens(["door"])) { e in
            XCTAssertEqual("\(e)", "--input-device /dev/input/event3@lobby: no screen lobby (screens: door)")
        }
        var seat = InputOptions()
        XCTAssertEqual(seat.forScreen("door", first: true)?.seat, "seat0", "no device named: the first screen reads the seat")
        XCTAssertNil(seat.forScreen("lobby", first: false), "and only the first")
        seat.enabled = false
        XCTAssertNil(seat.forScreen("door", first: true), "--no-input")
    }

    func testTheBinaryRoutesAndRefusesInOneLine() throws {
        let dir = try TempDir()
        let a = dir.file("a.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=red:s=16x16", "-frames:v", "1", a])
        let screens = ["--screen", "door:HDMI-A-1:\(a)", "--screen", "lobby:HDMI-A-2:\(a)"]
        let bad = try CLITests.run(["play", "--output", "headless", "--length", "1", "--no-state", "--input-device", "/dev/input/event9@hall"]
                                   + screens, timeout: 30)
        XCTAssertEqual(bad.status, 2, bad.stderr)
        XCTAssertEqual(bad.stderr, "kiosk: --input-device /dev/input/event9@hall: no screen hall (screens: door, lobby)\n")
        let missing = dir.file("no-such-event")
        let r = try CLITests.run(["play", "--output", "headless", "--length", "1", "--no-state", "--input-device", missing + "@lobby"]
                                 + screens, timeout: 30)
        XCTAssertNotEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n").filter { !$0.contains(": info: ") }
        XCTAssertEqual(lines.count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains(missing), r.stderr)
        XCTAssertFalse(r.stderr.contains("@lobby"), "opened by its path, without the screen: \(r.stderr)")
    }
}
