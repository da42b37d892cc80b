import Foundation
import KioskCore
@testable import KioskFleet
import KioskInput
import KioskMedia
import KioskOutput
@testable import KioskPlayer
import KioskRender
import XCTest

/// The emergency alert: it takes the whole screen (white on deep red, large, with the time; tesseract reads the
/// message back), the slideshow and a layout resume where they were when it ends, it survives a restart while it
/// is on (tesseract reads it on the restarted screen, and not once cleared), and IPC, `kiosk ctl` and MQTT set and
/// clear it.
final class EmergencyAlertTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    func testRequestsAndTheStateFileKeepIt() throws {
        let a = EmergencyAlert(text: "  Fire\u{7} in hall B\nLeave now  ", until: WallInstant(secondsSince1970: 100))
        XCTAssertEqual(a.text, "Fire in hall B\nLeave now", "control characters out, newlines kept, trimmed")
        XCTAssertTrue(a.isOn(at: 99.9))
        XCTAssertFalse(a.isOn(at: 100))
        XCTAssertTrue(EmergencyAlert(text: "x").isOn(at: .greatestFiniteMagnitude), "no end: until cleared")
        XCTAssertEqual(EmergencyAlert(text: String(repeating: "y", count: 900)).text.count, EmergencyAlert.maxText)
        var state = PlayerState()
        state.alert = a
        XCTAssertEqual(try PlayerState.decode(try state.encoded()).alert, a)
        XCTAssertNil(try PlayerState.decode(try PlayerState().encoded()).alert, "a state without one reads as none")
        // MQTT's payloads
        func parse(_ payload: String) throws -> FleetRequest { try FleetRequest.parse("alert", payload: Array(payload.utf8)) }
        XCTAssertEqual(try parse(#"{"text": "Storm", "seconds": 90, "image": "/m/storm.png"}"#),
                       .alert(AlertRequest(text: "Storm", seconds: 90, image: "/m/storm.png")))
        XCTAssertEqual(try parse("Storm warning"), .alert(AlertRequest(text: "Storm warning")), "Home Assistant's text entity")
        XCTAssertTrue({ if case .alert(let r) = try? parse(#"{"clear": true}"#) { return r.clears } else { return false } }())
        XCTAssertTrue({ if case .alert(let r) = try? parse("") { return r.clears } else { return false } }())
        XCTAssertThrowsError(try parse(#"{"text": "x", "seconds": -5}"#))
        XCTAssertThrowsError(try parse(#"{"text": 5}"#))
        XCTAssertThrowsError(try parse("{not json"))
    }

    /// A slideshow of red then green (5 s each) on a virtual clock; at 2 s an alert for 3 s. The screen is the
    /// alert from 2 to 5 s; red comes back with its 3 s left (5-8), then green.
    func testAnAlertTakesTheScreenAndTheSlideshowResumesWhereItWas() throws {
        let dir = try TempDir()
        let red = try ColourPictures.make(dir, "red.png", "red"), green = try ColourPictures.make(dir, "green.png", "green")
        let clock = VirtualClock()
        let size = PixelSize(width: 640, height: 360)
        var config = PlayerConfig()
        config.size = size
        config.slideshow.duration = 5
        config.slideshow.transition = .none
        var frames: [(Double, RGBAImage)] = []
        let output = try VirtualTimeOutput(size: size, fps: 10, clock: clock, sink: { frames.append((clock.now, $0)) })
        let p = try Player(items: [PlaylistItem(path: red), PlaylistItem(path: green)], config: config, output: output, clock: clock,
                           log: Log(level: .error), waitForDecodes: true)
        p.wallClock = ({ Date(timeIntervalSince1970: 1_800_000_000 + $0) }, TimeZone(identifier: "UTC") ?? .current)  // record's
        var sent = false
        p.onLoopTurn = { [unowned p] in
            if !sent, clock.now >= 2 {
                sent = true
                p.inbox.queueFromLoop(.alert(AlertRequest(text: "EVACUATE NOW", seconds: 3)))
            }
        }
        _ = try p.run(length: 9.5)
        func at(_ t: Double) -> RGBAImage? { frames.last { $0.0 <= t + 1e-9 }?.1 }
        func centre(_ t: Double) -> [UInt8] {
            guard let f = at(t) else { return [] }
            let i = ((size.height * 19 / 20) * size.width + size.width / 2) * 4  // low in the middle: on the picture, under the text
            return Array(f.pixels[i..<i + 3])
        }
        func near(_ got: [UInt8], _ want: [Int]) -> Bool { got.count == 3 && zip(got, want).allSatisfy { abs(Int($0) - $1) < 40 } }
        XCTAssertTrue(near(centre(1.5), [255, 0, 0]), "red first: \(centre(1.5))")
        XCTAssertTrue(near(centre(3.5), [161, 0, 0]), "the alert's #A00000: \(centre(3.5))")
        XCTAssertTrue(near(centre(6), [255, 0, 0]), "red again, with the 3 s it had left: \(centre(6))")
        XCTAssertTrue(near(centre(7.8), [255, 0, 0]), "red until 8 s: \(centre(7.8))")
        XCTAssertTrue(near(centre(8.6), [0, 128, 0]), "then green: \(centre(8.6))")
        // tesseract reads the message: the white text in the middle band (the clock sits above it)
        let shot = try XCTUnwrap(at(3.5))
        let band = PixelRect(x: 0, y: size.height / 4, width: size.width, height: size.height / 2)
        let box = try XCTUnwrap(whiteBox(shot, in: band))
        let text = try OverlayOCR.read(shot, box, name: "alert", in: dir.path)
        XCTAssertTrue(text.uppercased().contains("EVACUATE NOW"), "tesseract read \(text)")
        XCTAssertGreaterThan(box.height, size.height / 20, "large text: \(box)")
    }

    /// A layout of red (4 s) then green (4 s); an alert from 2 s for 3 s stops its clock: red comes back at 5 s with
    /// its 2 s left (5-7), then green (7-11).
    func testALayoutsClockStopsUnderAnAlert() throws {
        let dir = try TempDir()
        _ = try ColourPictures.make(dir, "red.png", "red")
        _ = try ColourPictures.make(dir, "green.png", "green")
        let smil = dir.file("two.smil")
        try """
            <smil><head><layout><region regionName="main"/></layout></head><body>
            <seq><img src="red.png" dur="4s"/><img src="green.png" dur="4s"/></seq></body></smil>
            """.write(toFile: smil, atomically: true, encoding: .utf8)
        let clock = VirtualClock()
        let size = PixelSize(width: 320, height: 180)
        var config = PlayerConfig()
        config.size = size
        let output = try VirtualTimeOutput(size: size, fps: 10, clock: clock, sink: { _ in })
        let p = try Player(items: [], config: config, output: output, clock: clock, log: Log(level: .error), waitForDecodes: true)
        p.wallClock = ({ Date(timeIntervalSince1970: 1_800_000_000 + $0) }, TimeZone(identifier: "UTC") ?? .current)
        try p.play(layout: try SMILFile.load(smil))
        var sent = false
        var seen: [Double: String] = [:]
        p.onLoopTurn = { [unowned p] in
            if !sent, clock.now >= 2 {
                sent = true
                p.inbox.queueFromLoop(.alert(AlertRequest(text: "Lockdown", seconds: 3)))
            }
            for t in [1.5, 6.5, 7.5] where seen[t] == nil && clock.now >= t {
                seen[t] = p.screen.layoutMode?.regions(at: clock.now).first?.src ?? "-"
            }
            if seen[3.5] == nil, clock.now >= 3.5 { seen[3.5] = p.screen.alertMode != nil ? "alert" : "no alert" }
        }
        _ = try p.run(length: 8)
        XCTAssertEqual(seen[1.5], "red.png")
        XCTAssertEqual(seen[3.5], "alert")
        XCTAssertEqual(seen[6.5], "red.png", "red had 2 s left when the alert came")
        XCTAssertEqual(seen[7.5], "green.png")
    }

    /// An alert with a picture: the picture at the top (green, contained in the upper two fifths), the red
    /// below it with the message.
    func testAnAlertsPictureShowsAboveItsMessage() throws {
        let dir = try TempDir()
        let picture = try ColourPictures.make(dir, "exit.png", "green")
        let other = try ColourPictures.make(dir, "b.png", "blue")
        let clock = VirtualClock()
        let size = PixelSize(width: 640, height: 360)
        var config = PlayerConfig()
        config.size = size
        var last: RGBAImage?
        let output = try VirtualTimeOutput(size: size, fps: 10, clock: clock, sink: { last = $0 })
        let p = try Player(items: [PlaylistItem(path: other)], config: config, output: output, clock: clock, log: Log(level: .error),
                           waitForDecodes: true)
        p.wallClock = ({ Date(timeIntervalSince1970: 1_800_000_000 + $0) }, TimeZone(identifier: "UTC") ?? .current)
        p.onLoopTurn = { [unowned p] in
            if clock.now < 0.05 { p.inbox.queueFromLoop(.alert(AlertRequest(text: "Use the exit", image: picture))) }
        }
        _ = try p.run(length: 1)
        let shot = try XCTUnwrap(last)
        func px(_ x: Int, _ y: Int) -> [UInt8] { let i = (y * size.width + x) * 4; return Array(shot.pixels[i..<i + 3]) }
        func near(_ got: [UInt8], _ want: [Int]) -> Bool { zip(got, want).allSatisfy { abs(Int($0) - $1) <= 8 } }
        XCTAssertTrue(near(px(320, 90), [0, 128, 0]), "the picture, top centre: \(px(320, 90))")
        XCTAssertTrue(near(px(20, 340), [161, 0, 0]), "the alert's red below: \(px(20, 340))")
    }

    /// The smallest rectangle of near-white pixels in `area` of `image`.
    private func whiteBox(_ image: RGBAImage, in area: PixelRect) -> PixelRect? {
        var box: PixelRect?
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                let i = (y * image.size.width + x) * 4
                if image.pixels[i] > 220 && image.pixels[i + 1] > 220 && image.pixels[i + 2] > 220 {
                    box = (box ?? PixelRect(x: x, y: y, width: 1, height: 1)).union(PixelRect(x: x, y: y, width: 1, height: 1))
                }
            }
        }
        return box
    }

    func testAnAlertSurvivesARestartAndCtlClearsIt() throws {
        let dir = try TempDir()
        let picture = try ColourPictures.make(dir, "a.png", "green")
        let sock = dir.file("ipc.sock"), state = dir.file("state")
        func start() throws -> LiveProcess {
            let p = try LiveProcess(["play", picture, "--output", "headless", "--size", "640x360", "--state-dir", state, "--no-watch",
                                     "--input-ipc-server", sock, "--log-level", "info"])
            XCTAssertTrue(p.waitFor("first frame presented", timeout: 30), p.stderr)
            return p
        }
        /// What tesseract reads on the screen now: a screenshot through `kiosk ctl`.
        func screenText(_ name: String) throws -> String {
            let shot = dir.file("\(name).png")
            let r = try CLITests.run(["ctl", "--socket", sock, "screenshot", shot], timeout: 20)
            XCTAssertEqual(r.status, 0, r.stderr)
            return try ScreenOCR.read(shot, size: PixelSize(width: 640, height: 360), name: "\(name)-read", in: dir.path)
        }
        var p = try start()
        var c = try IPCConnection(path: sock)
        XCTAssertEqual(try c.request(#"["get_property","kiosk-alert"]"#)["error"], .string("property unavailable"))
        let ctl = try CLITests.run(["ctl", "--socket", sock, "alert", "Storm: stay inside", "--until", "10min"], timeout: 20)
        XCTAssertEqual(ctl.status, 0, ctl.stderr)
        XCTAssertTrue(try eventually(5) { try c.get("kiosk-alert") == .string("Storm: stay inside") }, p.stderr)
        guard case .double(let until)? = try c.get("kiosk-alert-until") else { return XCTFail("no end") }
        XCTAssertEqual(until, Date().timeIntervalSince1970 + 600, accuracy: 30)
        XCTAssertTrue(p.waitFor(#"alert: "Storm: stay inside" until "#, timeout: 5), p.stderr)  // read from stderr while kiosk runs
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
        // a restart while it is on: it is back, with the same end
        p = try start()
        c = try IPCConnection(path: sock)
        XCTAssertEqual(try c.get("kiosk-alert"), .string("Storm: stay inside"), p.stderr)
        XCTAssertEqual(try c.get("kiosk-alert-until"), .double(until))
        let restarted = try screenText("restarted")
        XCTAssertTrue(restarted.contains("Storm: stay inside"), "on the screen after the restart, not only in state: read \(restarted)")
        let cleared = try CLITests.run(["ctl", "--socket", sock, "alert", "--clear"], timeout: 20)
        XCTAssertEqual(cleared.status, 0, cleared.stderr)
        XCTAssertTrue(try eventually(5) { try c.request(#"["get_property","kiosk-alert"]"#)["error"] == .string("property unavailable") },
                      p.stderr)
        XCTAssertTrue(try eventually(5) { p.stderr.contains("alert: ends: cleared") }, p.stderr)
        var after = ""
        XCTAssertTrue(try eventually(10, every: 0.5) { after = try screenText("cleared"); return !after.contains("Storm") },
                      "the screen still reads \(after)")
        // bad input: no text, a time that is no time
        let bare = try CLITests.run(["ctl", "--socket", sock, "alert"], timeout: 20)
        XCTAssertEqual(bare.status, 2, bare.stderr)
        let when = try CLITests.run(["ctl", "--socket", sock, "alert", "x", "--until", "soon"], timeout: 20)
        XCTAssertEqual(when.status, 2)
        XCTAssertTrue(when.stderr.contains("--until 'soon' is not a time"), when.stderr)
        XCTAssertEqual(try c.request(#"["alert","x",-1]"#)["error"], .string("invalid parameter"))
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }
}
