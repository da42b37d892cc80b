import Foundation
import KioskCore
import XCTest

/// A layout over MQTT: `load` of a SMIL file inside `--media-root` plays it in place of the playlist, and the
/// retained state names the layout and what each region shows. A real mosquitto broker.
final class MQTTLayoutTests: MQTTFleetTestCase {
    func testLoadingALayoutPutsItsRegionsInTheState() throws {
        let root = dir.file("media")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let red = try ColourPictures.make(dir, "media/red.png", "red")
        _ = try ColourPictures.make(dir, "media/blue.png", "blue")
        let smil = root + "/shop.smil"
        try """
            <smil><head><layout><root-layout width="320" height="240"/>
            <region regionName="main" left="0" top="0" width="200" height="240" fit="fill"/>
            <region regionName="side" left="200" top="0" width="120" height="240" fit="fill"/></layout></head>
            <body><par><img src="red.png" region="main" dur="indefinite"/><img src="blue.png" region="side" dur="indefinite"/></par></body></smil>
            """.write(toFile: smil, atomically: true, encoding: .utf8)
        let p = try start("wall", try pictures(), extra: ["--media-root", root])
        XCTAssertNotNil(try clients.wait("kiosk/wall/state", seconds: 10) { $0["layout"] == .null }, p.stderr)
        try clients.publish("kiosk/wall/cmd/load", smil)
        let state = try clients.wait("kiosk/wall/state", seconds: 10) { $0["layout"]?.string == smil }
        XCTAssertNotNil(state, p.stderr)
        guard case .array(let regions)? = state?["regions"] else { return XCTFail("no regions in \(String(describing: state))") }
        XCTAssertEqual(regions.count, 2)
        XCTAssertEqual(regions.first?["name"], .string("main"))
        XCTAssertEqual(regions.first?["src"], .string("red.png"))
        XCTAssertEqual(regions.first?["path"], .string(red))
        XCTAssertEqual(regions.last?["src"], .string("blue.png"))
        // the camera shows the layout: red on the left, blue on the right
        try clients.publish("kiosk/wall/cmd/snapshot", "")
        let jpeg = try XCTUnwrap(try clients.bytes("kiosk/wall/camera", seconds: 10), p.stderr)
        let file = dir.file("camera.jpg")
        try jpeg.write(to: URL(fileURLWithPath: file))
        let px = [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-pix_fmt", "rgb24", "-f", "rawvideo", "-"]))
        let left = (120 * 320 + 100) * 3, right = (120 * 320 + 260) * 3
        XCTAssertGreaterThan(Int(px[left]), 200, "main is red: \(px[left..<left + 3])")
        XCTAssertLessThan(Int(px[left + 2]), 60)
        XCTAssertGreaterThan(Int(px[right + 2]), 200, "side is blue: \(px[right..<right + 3])")
        XCTAssertLessThan(Int(px[right]), 60)
        stop(p)
    }

    /// Without a layout the slideshow is the one-region layout: the state's regions are `main` alone, showing the
    /// playlist's item, and `next` with `main` as its payload steps the playlist (`side` is no region of it).
    func testTheSlideshowIsRegionMainInTheState() throws {
        let files = try pictures()
        let p = try start("wall", files)
        func mainPath(_ state: JSONValue) -> JSONValue? {
            guard case .array(let regions)? = state["regions"], regions.count == 1, regions[0]["name"] == .string("main") else { return nil }
            return regions[0]["path"]
        }
        XCTAssertNotNil(try clients.wait("kiosk/wall/state", seconds: 10) { $0["layout"] == .null && mainPath($0) == .string(files[0]) },
                        p.stderr)
        try clients.publish("kiosk/wall/cmd/next", "main")
        XCTAssertNotNil(try clients.wait("kiosk/wall/state", seconds: 10) { mainPath($0) == .string(files[1]) && $0["path"] == .string(files[1]) },
                        p.stderr)
        try clients.publish("kiosk/wall/cmd/next", "side")
        XCTAssertTrue(p.waitFor("no region side in the slideshow (its one region is main)", timeout: 10), p.stderr)
        stop(p)
    }

    /// `kiosk/ID/cmd/notify` with a name begins what the layout's `notify(NAME)` waits on: the alarm takes region
    /// main, and the state says so.
    func testNotifyOverMQTTBeginsTheLayoutsAlarm() throws {
        let root = dir.file("media")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        _ = try ColourPictures.make(dir, "media/green.png", "green")
        _ = try ColourPictures.make(dir, "media/red.png", "red")
        let smil = root + "/alarm.smil"
        try """
            <smil><head><layout><root-layout width="320" height="240"/><region regionName="main" fit="fill"/></layout></head>
            <body><excl><priorityClass><img src="red.png" begin="notify(fire)" dur="60s"/></priorityClass>
            <priorityClass><img src="green.png" begin="0s" dur="indefinite"/></priorityClass></excl></body></smil>
            """.write(toFile: smil, atomically: true, encoding: .utf8)
        let p = try start("wall", [smil], extra: ["--media-root", root])
        func mainSrc(_ state: JSONValue) -> JSONValue? {
            guard case .array(let regions)? = state["regions"], let first = regions.first else { return nil }
            return first["src"]
        }
        XCTAssertNotNil(try clients.wait("kiosk/wall/state", seconds: 10) { mainSrc($0) == .string("green.png") }, p.stderr)
        // events are not retained: listen for the two (the trigger, the interrupt's start) before the notify, from
        // when the listener is subscribed (kiosk's retained availability reached it after the event topic's SUBSCRIBE)
        let probe = "kiosk/wall/availability"
        let listener = try clients.listen(["kiosk/wall/event"], count: 2, seconds: 25, probe: probe)
        try clients.publish("kiosk/wall/cmd/notify", "fire")
        XCTAssertNotNil(try clients.wait("kiosk/wall/state", seconds: 10) { mainSrc($0) == .string("red.png") }, p.stderr)
        XCTAssertTrue(p.waitFor("layout: notify(fire) at", timeout: 10), p.stderr)
        XCTAssertEqual(listener.finish(timeout: 30).status, 0, "mosquitto_sub got both events: \(listener.stdout) \(listener.stderr)")
        let heard = MQTTClients.heard(listener, probe: probe)
        let events = heard.compactMap { try? JSONValue.parse(Array($0.payload.utf8)) }
        XCTAssertTrue(events.contains { $0["event"] == .string("trigger") && $0["trigger"] == .string("notify(fire)") }, "\(heard)")
        XCTAssertTrue(events.contains { $0["event"] == .string("interrupt-started") && $0["src"] == .string("red.png") }, "\(heard)")
        stop(p)
    }
}
