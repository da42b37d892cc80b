import Foundation
import KioskCore
import KioskInput
import KioskMedia
import KioskOutput
@testable import KioskPlayer
import KioskRender
import XCTest

/// Outside triggers reaching a playing layout: IPC `notify` and `kiosk ctl notify` (the built binary), a remote's
/// key for `accesskey()`, and a tap on a region for `activateEvent` (scripted touches, as libinput gives them,
/// through the whole player on a virtual clock). What waits on a trigger interrupts the loop, which resumes.
final class LayoutTriggerTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    /// The loop (green 30 s, blue 30 s) and a red alarm of 1.5 s on `notify(fire)` or the key 1, in a higher class.
    private func alarmLayout(_ dir: TempDir) throws -> String {
        for c in ["green", "blue", "red"] {
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=\(c):s=64x36", "-frames:v", "1", dir.file("\(c).png")])
        }
        let smil = dir.file("alarm.smil")
        try """
            <smil><head><layout><root-layout width="160" height="90"/><region regionName="main" fit="fill"/></layout></head>
            <body><excl>
            <priorityClass><img src="red.png" begin="notify(fire); accesskey(1)" dur="1.5s"/></priorityClass>
            <priorityClass><seq begin="0s" repeatCount="indefinite"><img src="green.png" dur="30s"/><img src="blue.png" dur="30s"/></seq>
            </priorityClass></excl></body></smil>
            """.write(toFile: smil, atomically: true, encoding: .utf8)
        return smil
    }

    /// Region main's `src` and `time-pos` from `kiosk-regions`.
    private func main(_ c: IPCConnection) throws -> (src: String?, time: Double) {
        guard case .array(let list)? = try c.get("kiosk-regions"), case .object(let members)? = list.first else { return (nil, 0) }
        let m = Dictionary(members, uniquingKeysWith: { a, _ in a })
        guard case .string(let src)? = m["src"], case .double(let t)? = m["time-pos"] else { return (nil, 0) }
        return (src, t)
    }

    func testNotifyAndAKeyInterruptTheLoopWhichResumesWhereItWas() throws {
        let dir = try TempDir()
        let smil = try alarmLayout(dir)
        let sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", smil, "--output", "headless", "--size", "160x90", "--no-state",
                                 "--input-ipc-server", sock, "--log-level", "info"])
        XCTAssertTrue(p.waitFor("first frame presented", timeout: 30), p.stderr)
        let c = try IPCConnection(path: sock)
        Thread.sleep(forTimeInterval: 1.2)  // green plays a while first
        XCTAssertEqual(try c.request(#"["notify","fire"]"#)["error"], .string("success"))
        XCTAssertTrue(try eventually(5) { try main(c).src == "red.png" }, p.stderr)
        // clients hear the trigger, and the interrupt's start and end
        XCTAssertNotNil(try c.waitForEvent("kiosk-trigger") { $0["trigger"] == .string("notify(fire)") }, p.stderr)
        XCTAssertNotNil(try c.waitForEvent("kiosk-interrupt-start") { $0["region"] == .string("main") && $0["src"] == .string("red.png") },
                        p.stderr)
        XCTAssertNotNil(try c.waitForEvent("kiosk-interrupt-end", timeout: 6) { $0["src"] == .string("red.png") }, p.stderr)
        let paused = try XCTUnwrap(p.stderr.range(of: #"layout: notify\(fire\) at [0-9.]+ s"#, options: .regularExpression).map {
            Double(p.stderr[$0].split(separator: " ")[3]) ?? -1
        }, p.stderr)
        // after the alarm's 1.5 s, green goes on from where it was when the alarm came
        XCTAssertTrue(try eventually(6) { try main(c).src == "green.png" }, p.stderr)
        let resumed = try main(c).time
        XCTAssertGreaterThan(paused, 1, p.stderr)
        XCTAssertGreaterThanOrEqual(resumed, paused - 0.05, "green resumes at \(resumed) s, paused at \(paused) s")
        XCTAssertLessThan(resumed, paused + 1.0, "not the 1.5 s of the alarm on top: \(resumed) vs \(paused)")
        // a name nothing waits on is refused, and says so
        XCTAssertEqual(try c.request(#"["notify","smoke"]"#)["error"], .string("error running command"))
        XCTAssertTrue(try eventually(5) { p.stderr.contains("nothing in \(smil) begins on notify(smoke)") }, p.stderr)
        // the key 1 (a remote's keypress) begins the alarm too
        XCTAssertEqual(try c.request(#"["keypress","1"]"#)["error"], .string("success"))
        XCTAssertTrue(try eventually(5) { try main(c).src == "red.png" }, p.stderr)
        XCTAssertTrue(try eventually(6) { try main(c).src == "green.png" }, p.stderr)
        // kiosk ctl notify, through the same socket
        let ctl = try CLITests.run(["ctl", "--socket", sock, "notify", "fire"], timeout: 20)
        XCTAssertEqual(ctl.status, 0, ctl.stderr)
        XCTAssertTrue(try eventually(5) { try main(c).src == "red.png" }, p.stderr)
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }

    func testNotifyWithoutALayoutIsRefused() throws {
        let dir = try TempDir()
        let picture = try ColourPictures.make(dir, "a.png", "red")
        let sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", picture, "--output", "headless", "--size", "160x90", "--no-state", "--no-watch",
                                 "--input-ipc-server", sock, "--log-level", "info"])
        XCTAssertTrue(p.waitFor("first frame presented", timeout: 30), p.stderr)
        let c = try IPCConnection(path: sock)
        XCTAssertEqual(try c.request(#"["notify","fire"]"#)["error"], .string("error running command"))
        XCTAssertTrue(try eventually(5) { p.stderr.contains("no layout is playing: notify(fire) begins nothing") }, p.stderr)
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }

    /// Two regions: `menu` (left half) shows the logo (id `logo`) for ever; `main` (right half) loops green and
    /// shows the offer (blue, 2 s) on `logo.activateEvent`. A tap on the left half at 1 s begins the offer (1-3 s);
    /// a tap on the right half at 4 s, where nothing waits on a tap, begins nothing.
    func testATapOnARegionBeginsItsActivateEvent() throws {
        let dir = try TempDir()
        for c in ["green", "blue", "white"] {
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=\(c):s=64x36", "-frames:v", "1", dir.file("\(c).png")])
        }
        let smil = dir.file("tap.smil")
        try """
            <smil><head><layout><root-layout width="320" height="180"/>
            <region regionName="menu" left="0" top="0" width="160" height="180" fit="fill"/>
            <region regionName="main" left="160" top="0" width="160" height="180" fit="fill"/></layout></head>
            <body><par><img id="logo" src="white.png" region="menu" dur="indefinite"/>
            <excl><priorityClass><img src="blue.png" region="main" begin="logo.activateEvent" dur="2s"/></priorityClass>
            <priorityClass><img src="green.png" region="main" begin="0s" dur="indefinite"/></priorityClass></excl></par></body></smil>
            """.write(toFile: smil, atomically: true, encoding: .utf8)
        let clock = VirtualClock()
        let size = PixelSize(width: 320, height: 180)
        var config = PlayerConfig()
        config.size = size
        config.slideshow.transition = .none
        let output = try VirtualTimeOutput(size: size, fps: 20, clock: clock, sink: { _ in })
        let p = try Player(items: [], config: config, output: output, clock: clock, log: Log(level: .error), waitForDecodes: true)
        func tap(_ x: Double, at t: Double) -> [DeviceEvent] {
            [.touch(.down, slot: 0, at: UnitPoint(x: x, y: 0.5), time: t), .touch(.up, slot: 0, at: UnitPoint(x: x, y: 0.5), time: t + 0.05)]
        }
        p.interaction = InteractionController(source: ScriptedDeviceSource(clock: clock, events: tap(0.25, at: 1) + tap(0.75, at: 4)),
                                              settings: InteractionSettings(), canvas: size, rotation: .none, log: Log(level: .error))
        try p.play(layout: try SMILFile.load(smil))
        var seen: [Double: String] = [:]
        _ = try p.run(length: 6, shouldStop: {
            for t in [0.8, 1.6, 2.9, 3.6, 4.6] where seen[t] == nil && clock.now >= t {
                seen[t] = p.screen.layoutMode?.regions(at: clock.now).first { $0.name == "main" }?.src ?? "-"
            }
            return false
        })
        XCTAssertEqual(seen[0.8], "green.png")
        XCTAssertEqual(seen[1.6], "blue.png", "the tap on the logo began the offer")
        XCTAssertEqual(seen[2.9], "blue.png")
        XCTAssertEqual(seen[3.6], "green.png", "the offer's 2 s are over; the loop is back")
        XCTAssertEqual(seen[4.6], "green.png", "a tap on main, where nothing waits on one, begins nothing")
    }

    /// A notify on the simulated clock, through the player's command inbox (where IPC's and MQTT's land), in
    /// recorded frames: green (5 s) then blue (5 s) loop; `notify(fire)` at 3 s shows red for 2 s, and green
    /// comes back with its 2 s left (5-7 s), then blue.
    func testANotifyInRecordedFramesOnTheSimulatedClock() throws {
        let dir = try TempDir()
        for c in ["green", "blue", "red"] {
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=\(c):s=64x36", "-frames:v", "1", dir.file("\(c).png")])
        }
        let smil = dir.file("fire.smil")
        try """
            <smil><head><layout><root-layout width="160" height="90"/><region regionName="main" fit="fill"/></layout></head>
            <body><excl><priorityClass><img src="red.png" begin="notify(fire)" dur="2s"/></priorityClass>
            <priorityClass><seq begin="0s" repeatCount="indefinite"><img src="green.png" dur="5s"/><img src="blue.png" dur="5s"/></seq>
            </priorityClass></excl></body></smil>
            """.write(toFile: smil, atomically: true, encoding: .utf8)
        let clock = VirtualClock()
        let size = PixelSize(width: 160, height: 90)
        var config = PlayerConfig()
        config.size = size
        var frames: [(Double, RGBAImage)] = []
        let output = try VirtualTimeOutput(size: size, fps: 10, clock: clock, sink: { frames.append((clock.now, $0)) })
        let p = try Player(items: [], config: config, output: output, clock: clock, log: Log(level: .error), waitForDecodes: true)
        try p.play(layout: try SMILFile.load(smil))
        var sent = false
        p.onLoopTurn = { [unowned p] in
            if !sent, clock.now >= 3 {
                sent = true
                p.inbox.queueFromLoop(.trigger(.notify("fire")))
            }
        }
        _ = try p.run(length: 8)
        func colour(at t: Double) -> String {
            guard let f = frames.last(where: { $0.0 <= t + 1e-9 })?.1 else { return "none" }
            let i = (45 * 160 + 80) * 4
            let (r, g, b) = (f.pixels[i], f.pixels[i + 1], f.pixels[i + 2])
            if r > 200 && g < 60 && b < 60 { return "red" }
            if g > 100 && r < 60 && b < 60 { return "green" }
            if b > 200 && r < 60 && g < 60 { return "blue" }
            return "\([r, g, b])"
        }
        XCTAssertEqual([2.5, 3.5, 4.9, 5.5, 6.8, 7.5].map(colour(at:)), ["green", "red", "red", "green", "green", "blue"])
    }
}
