import Foundation
import KioskCore
import XCTest

/// The fleet's MQTT client under load and abuse: a thousand QoS 1 commands, bad payloads, the camera's rate limit,
/// a broker that is not there, IPC and MQTT at once, and the schedule's playlists. A real mosquitto broker each.
final class MQTTFleetRobustnessTests: MQTTFleetTestCase {
    /// 1,000 `volume` commands at 100 a second through one mosquitto_pub at QoS 1: kiosk counts every one received
    /// and every one the player did (in its state), and the last value wins.
    func testAThousandQoS1CommandsAt100PerSecondAreAllApplied() throws {
        let p = try start("flood", try pictures())
        let pub = Process()
        pub.executableURL = URL(fileURLWithPath: clients.pub)
        pub.arguments = ["-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-t", "kiosk/flood/cmd/volume", "-l"]
        let input = Pipe()
        pub.standardInput = input
        pub.standardOutput = FileHandle.nullDevice
        pub.standardError = FileHandle.nullDevice
        try pub.run()
        defer { if pub.isRunning { kill(pub.processIdentifier, SIGKILL) } }
        let start = Date()
        for i in 0..<1000 {
            // Paced to 100 a second against the clock, so a slow write does not make a burst later.
            let due = start.addingTimeInterval(Double(i) / 100)
            if due.timeIntervalSinceNow > 0 { usleep(UInt32(due.timeIntervalSinceNow * 1_000_000)) }
            input.fileHandleForWriting.write(Data("\(i % 101)\n".utf8))
        }
        try input.fileHandleForWriting.close()
        let deadline = Date(timeIntervalSinceNow: 20)
        while pub.isRunning && Date() < deadline { usleep(50_000) }
        XCTAssertFalse(pub.isRunning, "mosquitto_pub -l did not finish")
        let done = try clients.wait("kiosk/flood/state", seconds: 20) { $0["commands_applied"] == .int(1000) }
        let last = try clients.retained("kiosk/flood/state")
        XCTAssertNotNil(done, "applied: \(String(describing: last?["commands_applied"])); \(p.stderr.suffix(2000))")
        XCTAssertEqual(last?["commands_received"], .int(1000))
        XCTAssertEqual(last?["volume"], .int(Int64(999 % 101)))
        XCTAssertEqual(p.stderr.components(separatedBy: "mqtt: kiosk/flood/cmd/volume: done").count - 1, 1000)
        stop(p)
    }

    /// Each bad payload is one log line naming the topic and the reason; kiosk keeps running and obeying.
    func testBadPayloadsAreOneLineEachAndKioskGoesOn() throws {
        let root = dir.file("media")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let inside = try ColourPictures.make(dir, "media/in.png", "white")
        let p = try start("bad", try pictures(), extra: ["--media-root", root])
        let bad: [(command: String, payload: String, reason: String)] = [
            ("volume", "abc", "'abc' is not a whole number 0...100"),
            ("volume", "500", "500 is out of range 0...100"),
            ("view", "not json", "not JSON"),
            ("load", "ftp://x", "'ftp://x' is not a local path"),
            ("load", "https://", "'https://' is not an http or https URL kiosk can fetch"),
            ("load", dir.file("a.png"), "outside --media-root"),
            ("dance", "", "unknown command"),
            ("mute", "maybe", "'maybe' is not on or off"),
        ]
        for b in bad { try clients.publish("kiosk/bad/cmd/\(b.command)", b.payload) }
        try clients.publish("kiosk/other/cmd/next", "")  // another kiosk's topic: not ours, not even seen
        try clients.publish("kiosk/bad/cmd/load", inside)
        XCTAssertNotNil(try clients.wait("kiosk/bad/state", seconds: 10) { $0["path"]?.string == inside }, p.stderr)
        let refusals = p.stderr.split(separator: "\n").filter { $0.contains("mqtt: kiosk/bad/cmd/") && $0.contains("refused") }
        XCTAssertEqual(refusals.count, bad.count, refusals.joined(separator: "\n"))
        for b in bad {
            let lines = refusals.filter { $0.contains("kiosk/bad/cmd/\(b.command): refused") && $0.contains(b.reason) }
            XCTAssertEqual(lines.count, 1, "\(b): \(refusals.joined(separator: "\n"))")
        }
        XCTAssertTrue(p.isRunning)
        stop(p)
    }

    /// Without --media-root, MQTT's load is refused (a broker is reachable over the network): one line, and the
    /// playlist stays.
    func testLoadWithoutAMediaRootIsRefused() throws {
        let inside = try ColourPictures.make(dir, "free.png", "white")
        let given = try pictures()
        let p = try start("free", given)
        XCTAssertNotNil(try clients.wait("kiosk/free/state", seconds: 10) { $0["path"]?.string != nil }, p.stderr)
        try clients.publish("kiosk/free/cmd/load", inside)
        XCTAssertTrue(p.waitFor("kiosk/free/cmd/load: refused: load needs --media-root", timeout: 10), p.stderr)
        try clients.publish("kiosk/free/cmd/pause", "")
        XCTAssertNotNil(try clients.wait("kiosk/free/state", seconds: 10) { $0["paused"] == .bool(true) }, p.stderr)
        XCTAssertFalse(p.stderr.contains("showing \(inside)"), p.stderr)
        stop(p)
    }

    /// The camera: a JPEG of the canvas on request (retained), and no second one within 10 s.
    func testCameraPublishesAJPEGAtTheCanvasSizeAtMostEvery10Seconds() throws {
        let p = try start("cam", try pictures())
        try clients.publish("kiosk/cam/cmd/snapshot", "")
        XCTAssertTrue(p.waitFor("mqtt: snapshot:", timeout: 15), p.stderr)
        let jpeg = try XCTUnwrap(try clients.bytes("kiosk/cam/camera", seconds: 5))
        XCTAssertEqual(Array(jpeg.prefix(3)), [0xFF, 0xD8, 0xFF], "a JPEG")
        let file = dir.file("camera.jpg")
        try jpeg.write(to: URL(fileURLWithPath: file))
        let probe = try FFmpegCLI.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                  "stream=codec_name,width,height", "-of", "csv=p=0", file])
        XCTAssertEqual(String(decoding: probe, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), "mjpeg,320,240")
        let decoded = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        XCTAssertEqual(decoded.count, 320 * 240 * 4, "decodes whole")
        try clients.publish("kiosk/cam/cmd/snapshot", "")
        XCTAssertTrue(p.waitFor("mqtt: kiosk/cam/cmd/snapshot: refused: at most one snapshot every 10 s", timeout: 10), p.stderr)
        usleep(1_000_000)
        XCTAssertEqual(p.stderr.components(separatedBy: "mqtt: snapshot:").count - 1, 1, "one picture only")
        stop(p)
    }

    /// No broker: one warning, however many attempts, and the slideshow plays on.
    func testUnreachableBrokerIsOneWarningAndPlaybackGoesOn() throws {
        let port = MQTTTools.freePort()
        let r = try CLITests.run(["play", "--output", "headless", "--size", "160x120", "--duration", "1", "--transition", "none",
                                  "--length", "9", "--mqtt", "127.0.0.1:\(port)", "--mqtt-id", "alone", "--log-level", "info"]
                                 + (try pictures()), timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("warn") && $0.contains("mqtt") }
        XCTAssertEqual(warnings.count, 1, r.stderr)
        XCTAssertTrue(warnings.first?.contains("cannot reach the broker at 127.0.0.1:\(port)") ?? false, r.stderr)
        XCTAssertGreaterThanOrEqual(r.stderr.components(separatedBy: "showing ").count - 1, 5, "items went on changing: \(r.stderr)")
    }

    /// IPC and MQTT at once read one board: a pause over MQTT is IPC's pause; a volume over IPC is MQTT's state.
    func testIPCAndMQTTShareOneBoard() throws {
        let sock = dir.file("ipc.sock")
        let p = try start("both", try pictures(), extra: ["--input-ipc-server", sock])
        XCTAssertTrue(p.waitFor("ipc: listening on \(sock)", timeout: 10), p.stderr)
        let c = try IPCConnection(path: sock)
        try clients.publish("kiosk/both/cmd/pause", "on")
        XCTAssertNotNil(try clients.wait("kiosk/both/state", seconds: 10) { $0["paused"] == .bool(true) })
        XCTAssertEqual(try c.get("pause"), .bool(true))
        XCTAssertEqual(try c.request(#"["set_property","volume",42]"#)["error"], .string("success"))
        XCTAssertNotNil(try clients.wait("kiosk/both/state", seconds: 10) { $0["volume"] == .int(42) }, p.stderr)
        stop(p)
    }

    /// The schedule's targets are the `playlist` command's names and the select's options; choosing one plays it as
    /// the schedule plays a window's target (its folder watched) until the next edge.
    func testPlaylistChoosesAScheduleTarget() throws {
        let morning = dir.file("morning"), evening = dir.file("evening")
        for folder in [morning, evening] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        _ = try ColourPictures.make(dir, "morning/m.png", "yellow")
        let e = try ColourPictures.make(dir, "evening/e.png", "purple")
        let schedule = dir.file("schedule")
        try "*  06:00-12:00  \(morning)\n*  18:00-23:00  \(evening)\nfallback \(morning)\n"
            .write(toFile: schedule, atomically: true, encoding: .utf8)
        let p = try start("sched", [], extra: ["--schedule", schedule, "--start-time", "2026-06-01T08:00"])
        let select = try XCTUnwrap(try clients.retained("homeassistant/select/sched_playlist/config"), p.stderr)
        XCTAssertEqual(select["options"], .array([.string("morning"), .string("evening")]))
        XCTAssertEqual(select["command_topic"], .string("kiosk/sched/cmd/playlist"))
        XCTAssertNotNil(try clients.wait("kiosk/sched/state", seconds: 10) { $0["playlist"] == .string("morning") }, p.stderr)
        try clients.publish("kiosk/sched/cmd/playlist", "evening")
        XCTAssertNotNil(try clients.wait("kiosk/sched/state", seconds: 10) {
            $0["playlist"] == .string("evening") && $0["path"]?.string == e
        }, p.stderr)
        XCTAssertTrue(p.waitFor("schedule: playing \(evening) on request", timeout: 5), p.stderr)  // read from stderr while kiosk runs
        XCTAssertTrue(p.waitFor("\(evening): watching for changes", timeout: 5), "its folder is watched as a window's: \(p.stderr)")
        try clients.publish("kiosk/sched/cmd/playlist", "night")
        XCTAssertTrue(p.waitFor("mqtt: kiosk/sched/cmd/playlist: refused: 'night' is not one of the schedule's playlists (morning, evening)",
                                timeout: 10), p.stderr)
        stop(p)
    }
}
