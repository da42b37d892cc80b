import Foundation
import KioskCore
import XCTest

/// The emergency alert over MQTT, with a real mosquitto broker: `cmd/alert` JSON sets it (its picture through the
/// media gate: a path outside `--media-root` is refused with one line), the retained state says it, and Home
/// Assistant's clear button payload ends it.
final class MQTTAlertTests: MQTTFleetTestCase {
    func testAnAlertIsSetAndClearedOverMQTT() throws {
        let root = dir.file("media")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let picture = try ColourPictures.make(dir, "media/a.png", "green")
        let outside = try ColourPictures.make(dir, "outside.png", "red")
        let p = try start("hall", [picture], extra: ["--media-root", root])
        XCTAssertNotNil(try clients.wait("kiosk/hall/state", seconds: 10) { $0["alert"] == .null }, p.stderr)
        try clients.publish("kiosk/hall/cmd/alert", #"{"text": "Fire drill at 10:00", "seconds": 600, "image": "\#(picture)"}"#)
        XCTAssertNotNil(try clients.wait("kiosk/hall/state", seconds: 10) { $0["alert"] == .string("Fire drill at 10:00") }, p.stderr)
        XCTAssertTrue(p.waitFor("alert: \"Fire drill at 10:00\" until", timeout: 10), p.stderr)
        try clients.publish("kiosk/hall/cmd/alert", #"{"clear": true}"#)
        XCTAssertNotNil(try clients.wait("kiosk/hall/state", seconds: 10) { $0["alert"] == .null }, p.stderr)
        // a picture outside the media root: one line, and no alert
        try clients.publish("kiosk/hall/cmd/alert", #"{"text": "x", "image": "\#(outside)"}"#)
        XCTAssertTrue(p.waitFor("mqtt: kiosk/hall/cmd/alert: refused:", timeout: 10), p.stderr)
        XCTAssertEqual(p.stderr.components(separatedBy: "cmd/alert: refused").count - 1, 1, p.stderr)
        XCTAssertEqual(try clients.retained("kiosk/hall/state")?["alert"], .null)
        stop(p)
    }
}
