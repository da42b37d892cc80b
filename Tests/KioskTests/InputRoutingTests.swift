import Foundation
import KioskCore
import KioskInput
import XCTest

/// Input devices go to screens (issue 40): `--input-device PATH@NAME` gives a device to screen NAME; a device that
/// names none goes to the screen on the connector udev's `WL_OUTPUT` names, else (a touchscreen) to the one screen
/// whose display is its size, else to the first screen, which alone reads the seat when none is named (dropping the
/// seat's devices that are another screen's); a screen that is not there is one line; the real binary opens the
/// device by its path without the suffix. The VM reads a uinput touchscreen's WL_OUTPUT (Kiosk/vm/screens-test.sh).
final class InputRoutingTests: XCTestCase {
    func testDevicesGoToTheirScreens() throws {
        var o = InputOptions()
        o.devices = ["/dev/input/event3@lobby", "/dev/input/event4", "/dev/input/by-id/usb-Kbd@Vendor-event", "/dev/input/event5@door"]
        let plain = o.forScreens(["door", "lobby", "hall"], routed: [:])
        XCTAssertEqual(plain[0]?.devices, ["/dev/input/event4", "/dev/input/by-id/usb-Kbd@Vendor-event", "/dev/input/event5"],
                       "the first screen: its own and those naming no screen (an @ not followed by a screen name, here upper case, is the path's)")
        XCTAssertEqual(plain[1]?.devices, ["/dev/input/event3"])
        XCTAssertNil(plain[2], "no device: no input")
        // a device naming no screen that udev maps to the lobby's connector goes there
        let routed = o.forScreens(["door", "lobby", "hall"], routed: ["/dev/input/event4": "lobby"])
        XCTAssertEqual(routed[0]?.devices, ["/dev/input/by-id/usb-Kbd@Vendor-event", "/dev/input/event5"])
        XCTAssertEqual(routed[1]?.devices, ["/dev/input/event3", "/dev/input/event4"])
        XCTAssertEqual(o.unnamedDevices, ["/dev/input/event4", "/dev/input/by-id/usb-Kbd@Vendor-event"])
        XCTAssertNoThrow(try o.checkScreens(["door", "lobby"]))
        XCTAssertThrowsError(try o.checkScreens(["door"])) { e in
            XCTAssertEqual("\(e)", "--input-device /dev/input/event3@lobby: no screen lobby (screens: door)")
        }
        var seat = InputOptions()
        let fromSeat = seat.forScreens(["door", "lobby"], routed: [:])
        XCTAssertEqual(fromSeat[0]?.seat, "seat0", "no device named: the first screen reads the seat")
        XCTAssertEqual(fromSeat[0]?.devices, [])
        XCTAssertNil(fromSeat[1], "and only the first")
        // the seat's touchscreen that belongs to the lobby: the lobby reads it alone, the first screen's seat drops it
        let split = seat.forScreens(["door", "lobby"], routed: ["/dev/input/event7": "lobby", "/dev/input/event2": "door"])
        XCTAssertEqual(split[0]?.devices, [], "the first screen still reads the seat (hotplug included)")
        XCTAssertEqual(split[0]?.ignoredDevices, ["/dev/input/event7"])
        XCTAssertEqual(split[1]?.devices, ["/dev/input/event7"])
        seat.enabled = false
        XCTAssertEqual(seat.forScreens(["door", "lobby"], routed: [:]).compactMap { $0 }.count, 0, "--no-input")
    }

    func testUdevsOutputThenATouchscreensSizeGiveADeviceItsScreen() {
        let screens = [
            InputRouting.ScreenFacts(name: "door", connectors: ["HDMI-A-1"], sizes: ["HDMI-A-1": PhysicalSize(width: 521, height: 293)]),
            InputRouting.ScreenFacts(name: "wall", connectors: ["DP-1", "DP-2"],
                                     sizes: ["DP-1": PhysicalSize(width: 698, height: 393), "DP-2": PhysicalSize(width: 698, height: 393)],
                                     panels: ["DP-1": UnitRect(x: 0, y: 0, width: 0.5, height: 1), "DP-2": UnitRect(x: 0.5, y: 0, width: 0.5, height: 1)]),
        ]
        let devices = [
            InputDeviceFacts(path: "/dev/input/event2", name: "Keyboard"),
            InputDeviceFacts(path: "/dev/input/event3", name: "eGalax", output: "DP-2", isTouchscreen: true),
            InputDeviceFacts(path: "/dev/input/event4", name: "ILITEK", isTouchscreen: true, size: PhysicalSize(width: 518, height: 290)),
            InputDeviceFacts(path: "/dev/input/event5", name: "Goodix", isTouchscreen: true, size: PhysicalSize(width: 300, height: 200)),
            InputDeviceFacts(path: "/dev/input/event6", name: "Elo", output: "HDMI-A-9", isTouchscreen: true, size: PhysicalSize(width: 698, height: 393)),
        ]
        let choices = InputRouting.route(devices, screens: screens)
        XCTAssertEqual(choices.map(\.screen), [nil, "wall", "door", nil, nil])
        XCTAssertEqual(choices[1].reason, "udev WL_OUTPUT=DP-2", "a span's second panel is the span's")
        XCTAssertEqual(choices[2].reason, "its 518x290 mm is the size of screen door's display (HDMI-A-1)")
        XCTAssertEqual(choices[3].reason, "no WL_OUTPUT and no display of its size")
        XCTAssertEqual(choices[4].reason, "udev WL_OUTPUT=HDMI-A-9 is no screen's connector", "udev's word wins over the size")
        // two displays of one size: the size says nothing, and the line says how to choose
        let twins = [screens[0], InputRouting.ScreenFacts(name: "lobby", connectors: ["HDMI-A-2"], sizes: ["HDMI-A-2": PhysicalSize(width: 521, height: 293)])]
        let twin = InputRouting.route([devices[2]], screens: twins)[0]
        XCTAssertNil(twin.screen)
        XCTAssertEqual(twin.reason, "its 518x290 mm fits HDMI-A-1 and HDMI-A-2: give --input-device PATH@NAME")
        // the touchscreen on the span's right panel touches the right half of the span's canvas; the others all of theirs
        let panels = InputRouting.panels(choices, screens: screens)
        XCTAssertEqual(panels, ["/dev/input/event3": UnitRect(x: 0.5, y: 0, width: 0.5, height: 1)])
    }

    func testATouchOnASpansRightPanelLandsInTheRightHalfOfTheCanvas() {
        let right = UnitRect(x: 0.5, y: 0, width: 0.5, height: 1)
        XCTAssertEqual(DeviceEvent.touch(.down, slot: 0, at: UnitPoint(x: 0.5, y: 0.25), time: 1).placed(in: right),
                       .touch(.down, slot: 0, at: UnitPoint(x: 0.75, y: 0.25), time: 1))
        XCTAssertEqual(DeviceEvent.pointerAbsolute(at: UnitPoint(x: 0, y: 1), time: 2).placed(in: right),
                       .pointerAbsolute(at: UnitPoint(x: 0.5, y: 1), time: 2))
        XCTAssertEqual(DeviceEvent.key(code: 57, pressed: true, time: 3).placed(in: right), .key(code: 57, pressed: true, time: 3))
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
