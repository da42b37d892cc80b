import Foundation
import KioskCore
import XCTest

/// The emergency alert over MQTT, with a real mosquitto broker: `cmd/alert` JSON sets it (its picture through the
/// media gate: a path outside `--media-root` is refused with one line), the retained state says it, tesseract reads
/// it on the camera's picture of the screen, and Home Assistant's clear button payload ends it, on the screen too.
final class MQTTAlertTests: MQTTFleetTestCase {
    func testAnAlertIsSetAndClearedOverMQTT() throws {
        let root = dir.file("media")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let picture = try ColourPictures.make(dir, "media/a.png", "green")
        let outside = try ColourPictures.make(dir, "outside.png", "red")
        let p = try start("hall", [picture], extra: ["--media-root", root, "--size", "640x360"])
        XCTAssertNotNil(try clients.wait("kiosk/hall/state", seconds: 10) { $0["alert"] == .null }, p.stderr)
        try clients.publish("kiosk/hall/cmd/alert", #"{"text": "Fire drill at 10:00", "seconds": 600, "image": "\#(picture)"}"#)
        XCTAssertNotNil(try clients.wait("kiosk/hall/state", seconds: 10) { $0["alert"] == .string("Fire drill at 10:00") }, p.stderr)
        XCTAssertTrue(p.waitFor("alert: \"Fire drill at 10:00\" until", timeout: 10), p.stderr)
        // and on the screen: tesseract reads it from the camera's picture
        let on = try screenText("on", p)
        XCTAssertTrue(on?.contains("Fire drill at 10:00") ?? false, "tesseract read \(on ?? "no picture")")
        try clients.publish("kiosk/hall/cmd/alert", #"{"clear": true}"#)
        XCTAssertNotNil(try clients.wait("kiosk/hall/state", seconds: 10) { $0["alert"] == .null }, p.stderr)
        var after = ""
        XCTAssertTrue(try eventually(25, every: 1) {  // the camera's next picture may be 10 s away
            guard let text = try screenText("cleared", p) else { return false }
            after = text
            return !text.contains("Fire drill")
        }, "the screen still reads \(after)")
        // a picture outside the media root: one line, and no alert
        try clients.publish("kiosk/hall/cmd/alert", #"{"text": "x", "image": "\#(outside)"}"#)
        XCTAssertTrue(p.waitFor("mqtt: kiosk/hall/cmd/alert: refused:", timeout: 10), p.stderr)
        XCTAssertEqual(p.stderr.components(separatedBy: "cmd/alert: refused").count - 1, 1, p.stderr)
        XCTAssertEqual(try clients.retained("kiosk/hall/state")?["alert"], .null)
        stop(p)
    }

    /// What tesseract reads on the screen of kiosk `hall` now: a fresh `snapshot` from its camera (the retained
    /// picture before it cleared first, so an old one is never read); nil when kiosk refused the snapshot as too
    /// soon after the last (one every `FleetCamera.interval` seconds).
    private func screenText(_ name: String, _ p: LiveProcess) throws -> String? {
        func count(_ line: String) -> Int { p.stderr.components(separatedBy: line).count - 1 }
        let taken = count("mqtt: snapshot: "), refused = count("at most one snapshot")
        try clients.publish("kiosk/hall/camera", "", retain: true)
        try clients.publish("kiosk/hall/cmd/snapshot", "")
        XCTAssertTrue(eventually(10, every: 0.05) { count("mqtt: snapshot: ") > taken || count("at most one snapshot") > refused }, p.stderr)
        guard count("mqtt: snapshot: ") > taken else { return nil }
        let jpeg = try XCTUnwrap(try clients.bytes("kiosk/hall/camera", seconds: 10), p.stderr)
        let file = dir.file("\(name).jpg")
        try jpeg.write(to: URL(fileURLWithPath: file))
        return try ScreenOCR.read(file, size: PixelSize(width: 640, height: 360), name: name, in: dir.path)
    }
}
