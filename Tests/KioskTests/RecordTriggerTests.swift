import Foundation
import KioskCore
import XCTest

/// Triggers and alerts from outside in a recording: `kiosk record --realtime` keeps its virtual clock at the wall
/// clock's pace and serves IPC and MQTT, so a notify or an alert sent while it records lands in the recorded frames
/// at the moment it was sent. The layout: green (5 s) then blue (5 s) loop; `notify(fire)` shows red for 2 s in a
/// higher class, which pauses the loop. Whenever the notify comes in green's first 5 s (at n), red shows n..n+2 and
/// green resumes with the 5 - n s it had left, so blue begins at 7 s all the same.
enum RecordedTriggers {
    static let size = PixelSize(width: 320, height: 180)
    static let fps = 10.0

    /// The layout and its pictures in `dir`.
    static func layout(_ dir: TempDir) throws -> String {
        for (name, colour) in [("green.png", "green"), ("blue.png", "blue"), ("red.png", "red")] {
            _ = try ColourPictures.make(dir, name, colour)
        }
        let smil = dir.file("fire.smil")
        try """
            <smil><head><layout><root-layout width="320" height="180"/><region regionName="main" fit="fill"/></layout></head>
            <body><excl><priorityClass><img src="red.png" begin="notify(fire)" dur="2s"/></priorityClass>
            <priorityClass><seq begin="0s" repeatCount="indefinite"><img src="green.png" dur="5s"/><img src="blue.png" dur="5s"/></seq>
            </priorityClass></excl></body></smil>
            """.write(toFile: smil, atomically: true, encoding: .utf8)
        return smil
    }

    /// What frame `n` shows, by two pixels (the middle and near a corner): green, blue, red (the interrupt,
    /// #FF0000), alert (#A00000 behind white text), or the colour found.
    static func colour(_ frame: RGBAImage) -> String {
        let corner = (8 * size.width + 8) * 4
        let (r, g, b) = (Int(frame.pixels[corner]), Int(frame.pixels[corner + 1]), Int(frame.pixels[corner + 2]))
        if r > 215 && g < 50 && b < 50 { return "red" }
        if (130...190).contains(r) && g < 40 && b < 40 { return "alert" }
        if g > 100 && r < 50 && b < 50 { return "green" }
        if b > 200 && r < 50 && g < 50 { return "blue" }
        return "\([r, g, b])"
    }

    /// The recording's frames as colour names.
    static func colours(_ path: String) throws -> [String] {
        try FFmpegCLI.referenceFrames(path, size: size).map(colour)
    }

    /// The runs of equal colours: (colour, first frame, frame count).
    static func runs(_ colours: [String]) -> [(colour: String, first: Int, count: Int)] {
        var out: [(colour: String, first: Int, count: Int)] = []
        for (n, c) in colours.enumerated() {
            if let last = out.last, last.colour == c { out[out.count - 1].count += 1 } else { out.append((c, n, 1)) }
        }
        return out
    }

    /// The layout time the log gives for the notify (`layout: notify(fire) at 2.13 s`).
    static func notifyTime(_ log: String) -> Double? {
        guard let r = log.range(of: #"layout: notify\(fire\) at [0-9.]+ s"#, options: .regularExpression) else { return nil }
        return Double(log[r].split(separator: " ")[3])
    }

    /// Checks that `runs` begin with the loop interrupted by the notify: green from 0 to the notify, red for 2 s
    /// (20 frames, one either way for where the command fell), green again until 7 s, blue from 7 s.
    static func checkInterrupt(_ runs: [(colour: String, first: Int, count: Int)], notifiedAt: Double?, log: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        let names = runs.prefix(4).map(\.colour)
        XCTAssertEqual(names, ["green", "red", "green", "blue"], "\(runs)\n\(log)", file: file, line: line)
        guard runs.count >= 4 else { return }
        let red = runs[1]
        XCTAssertEqual(Double(red.count), 2 * fps, accuracy: 1, "red lasts its 2 s: \(runs)", file: file, line: line)
        if let n = notifiedAt {
            XCTAssertEqual(Double(red.first) / fps, n, accuracy: 0.15, "red from the notify's time \(n): \(runs)", file: file, line: line)
        } else {
            XCTFail("no notify line in the log:\n\(log)", file: file, line: line)
        }
        XCTAssertGreaterThan(red.first, 5, "the notify came after green had shown a while", file: file, line: line)
        XCTAssertEqual(runs[3].first, Int(7 * fps), "blue at 7 s: green had its time left, not more or less: \(runs)",
                       file: file, line: line)
    }
}

final class RecordTriggerTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    /// A notify and then an alert over IPC while the layout records. Blue shows 7-12 s after the notify; the alert
    /// (1.5 s, sent at about 8.5 s) takes the whole screen over it and stops the layout's clock, so blue goes on
    /// where it was and ends 1.5 s late, at 13.5 s, and green follows.
    func testANotifyAndAnAlertOverIPCLandInTheRecordedFrames() throws {
        let dir = try TempDir()
        let smil = try RecordedTriggers.layout(dir)
        let sock = dir.file("ipc.sock"), out = dir.file("rec.y4m")
        let p = try LiveProcess(["record", smil, "--realtime", "--input-ipc-server", sock, "--output", out, "--size", "320x180",
                                 "--fps", "10", "--length", "15", "--log-level", "info"])
        XCTAssertTrue(p.waitFor("recording 320x180 at 10 fps", timeout: 30), p.stderr)
        let c = try IPCConnection(path: sock)
        let start = Date()
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertEqual(try c.request(#"["notify","fire"]"#)["error"], .string("success"), p.stderr)
        XCTAssertNotNil(try c.waitForEvent("kiosk-trigger") { $0["trigger"] == .string("notify(fire)") }, p.stderr)
        Thread.sleep(forTimeInterval: max(0, 8.5 - Date().timeIntervalSince(start)))
        XCTAssertEqual(try c.request(#"["alert","EVACUATE",1.5]"#)["error"], .string("success"), p.stderr)
        let end = p.finish(timeout: 60)
        XCTAssertEqual(end.status, 0, p.stderr)
        let runs = RecordedTriggers.runs(try RecordedTriggers.colours(out))
        RecordedTriggers.checkInterrupt(runs, notifiedAt: RecordedTriggers.notifyTime(p.stderr), log: p.stderr)
        XCTAssertEqual(runs.map(\.colour), ["green", "red", "green", "blue", "alert", "blue", "green"], "\(runs)")
        guard runs.count == 7 else { return }
        let alert = runs[4]
        XCTAssertEqual(Double(alert.count), 15, accuracy: 1, "the alert's 1.5 s: \(runs)")
        XCTAssertGreaterThan(alert.first, 80, "sent at about 8.5 s: \(runs)")
        XCTAssertEqual(runs[6].first, 135, "blue resumes where the alert stopped it and ends at 12 + 1.5 s: \(runs)")
        XCTAssertEqual(runs[6].first + runs[6].count, 150, "15 s at 10 fps")
    }

    /// Without `--realtime` a command would land at whatever frame the fast virtual clock had reached: refused.
    func testRemotesInARecordingNeedRealtime() throws {
        let dir = try TempDir()
        let smil = try RecordedTriggers.layout(dir)
        let r = try CLITests.run(["record", smil, "--input-ipc-server", dir.file("s.sock"), "--output", dir.file("r.y4m"),
                                  "--length", "1"], timeout: 30)
        XCTAssertEqual(r.status, 2)
        XCTAssertEqual(r.stderr, "kiosk: record: --input-ipc-server and --mqtt need --realtime (commands land when they are sent)\n")
    }
}

/// A notify over MQTT (a real mosquitto broker) while the layout records with `--realtime`.
final class RecordMQTTTriggerTests: MQTTFleetTestCase {
    func testANotifyOverMQTTLandsInTheRecordedFrames() throws {
        setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1)
        let smil = try RecordedTriggers.layout(dir)
        let out = dir.file("rec.y4m")
        let p = try LiveProcess(["record", smil, "--realtime", "--mqtt", broker.address, "--mqtt-id", "rec", "--output", out,
                                 "--size", "320x180", "--fps", "10", "--length", "9", "--log-level", "info"])
        kiosks.append(p)
        XCTAssertTrue(p.waitFor("mqtt: connected to \(broker.address) as kiosk/rec", timeout: 30), p.stderr)
        XCTAssertNotNil(try state("rec") { state in
            guard case .array(let regions)? = state["regions"] else { return false }
            return regions.first?["src"] == .string("green.png")
        }, p.stderr)
        Thread.sleep(forTimeInterval: 1)
        try clients.publish("kiosk/rec/cmd/notify", "fire")
        XCTAssertEqual(p.finish(timeout: 60).status, 0, p.stderr)
        let runs = RecordedTriggers.runs(try RecordedTriggers.colours(out))
        RecordedTriggers.checkInterrupt(runs, notifiedAt: RecordedTriggers.notifyTime(p.stderr), log: p.stderr)
        XCTAssertEqual(runs.map(\.colour), ["green", "red", "green", "blue"], "\(runs)")
    }
}
