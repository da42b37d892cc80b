import Foundation
import KioskCore
import XCTest

/// MQTT addresses a screen of several (issue 40) against a real mosquitto broker on 127.0.0.1: the first screen on
/// `kiosk/ID/…` as before, each further screen on `kiosk/ID/screen/NAME/…` with its own retained state, commands,
/// availability and Home Assistant device (`ID_NAME`, through the kiosk's device); a command on one screen's
/// topic acts on that screen alone.
final class MQTTScreensTests: MQTTFleetTestCase {
    func testEachScreenHasItsTopicsStateAndDevice() throws {
        let files = try pictures()
        let lobby = dir.file("lobby")
        try FileManager.default.createDirectory(atPath: lobby, withIntermediateDirectories: true)
        for f in files.dropFirst() { try FileManager.default.copyItem(atPath: f, toPath: lobby + "/" + (f as NSString).lastPathComponent) }
        let p = try start("duo", [], extra: ["--screen", "door:HDMI-A-1:\(files[0])", "--screen", "lobby:HDMI-A-2:\(lobby)"])
        XCTAssertTrue(p.waitFor("mqtt: connected to \(broker.address) as kiosk/duo/screen/lobby", timeout: 30), p.stderr)
        XCTAssertEqual(try clients.messages(["kiosk/duo/screen/lobby/availability"], count: 1, seconds: 5).first?.payload, "online")
        XCTAssertNotNil(try state("duo") { $0["count"] == .int(1) }, p.stderr)
        XCTAssertNotNil(try state("duo/screen/lobby") { $0["count"] == .int(2) && $0["index"] == .int(0) }, p.stderr)
        try clients.publish("kiosk/duo/screen/lobby/cmd/next", "")
        XCTAssertNotNil(try state("duo/screen/lobby") { $0["index"] == .int(1) }, p.stderr)
        try clients.publish("kiosk/duo/screen/lobby/cmd/pause", "")
        XCTAssertNotNil(try state("duo/screen/lobby") { $0["paused"] == .bool(true) }, p.stderr)
        XCTAssertNotNil(try state("duo") { $0["paused"] == .bool(false) && $0["index"] == .int(0) }, "door untouched: \(p.stderr)")
        // Home Assistant: the screen is a device of its own, through the kiosk's
        let configs = try clients.messages(["homeassistant/switch/duo_lobby_paused/config"], count: 1, seconds: 5)
        let paused = try JSONValue.parse(Array(try XCTUnwrap(configs.first).payload.utf8))
        XCTAssertEqual(paused["command_topic"], .string("kiosk/duo/screen/lobby/cmd/pause"))
        XCTAssertEqual(paused["state_topic"], .string("kiosk/duo/screen/lobby/state"))
        XCTAssertEqual(paused["availability_topic"], .string("kiosk/duo/screen/lobby/availability"))
        XCTAssertEqual(paused["device"]?["identifiers"], .array([.string("kiosk_duo_lobby")]))
        XCTAssertEqual(paused["device"]?["via_device"], .string("kiosk_duo"))
        let door = try clients.messages(["homeassistant/switch/duo_paused/config"], count: 1, seconds: 5)
        XCTAssertNil(try JSONValue.parse(Array(try XCTUnwrap(door.first).payload.utf8))["device"]?["via_device"], "the kiosk's own device")
        stop(p)
        XCTAssertEqual(try clients.messages(["kiosk/duo/screen/lobby/availability"], count: 1, seconds: 3).first?.payload, "offline",
                       "a clean exit says offline for every screen")
    }
}
