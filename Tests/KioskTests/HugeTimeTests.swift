import Foundation
@testable import KioskCore
@testable import KioskFleet
import XCTest

/// Times from outside past any range (1e300 s, 1e19 s, an instant after 9999): each way in refuses them with one
/// line and kiosk goes on. Before `TimeSpan` and `WallInstant`, each of these trapped converting the alert's end
/// to a day number (`Int(1e300 / 86400)`), which took the player down: over IPC, `kiosk ctl`, MQTT (a retained
/// one at every restart), the web page, and from the state file under `Restart=always`.
final class HugeTimeTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    func testTheBoundedTypesRefuseOrSaturate() throws {
        XCTAssertNil(TimeSpan(seconds: 1e300))
        XCTAssertNil(TimeSpan(seconds: 1e19))
        XCTAssertNil(TimeSpan(seconds: -1))
        XCTAssertNil(TimeSpan(seconds: .nan))
        XCTAssertNil(TimeSpan(seconds: TimeSpan.longest + 1))
        XCTAssertEqual(TimeSpan(seconds: 90)?.seconds, 90)
        XCTAssertNil(WallInstant(secondsSince1970: 1e300))
        XCTAssertNil(WallInstant(secondsSince1970: -1))
        XCTAssertNil(WallInstant(secondsSince1970: .infinity))
        let last = try XCTUnwrap(WallInstant(secondsSince1970: WallInstant.range.upperBound))
        let longest = try XCTUnwrap(TimeSpan(seconds: TimeSpan.longest))
        XCTAssertEqual(last.adding(longest), last, "sums saturate at 9999-12-31T23:59:59Z")
        XCTAssertEqual(WallInstant(clamping: Date(timeIntervalSince1970: -5)).secondsSince1970, 0)
        // the day of an instant far out of range does not trap: it reads as the range's end
        let (day, _) = LocalClock.wallClock(of: Date(timeIntervalSince1970: 1e300), in: TimeZone(identifier: "UTC") ?? .current)
        XCTAssertEqual(day.year, 9999)
        // the one checked conversion
        XCTAssertEqual(Int(saturating: 1e300), Int.max)
        XCTAssertEqual(Int(saturating: -Double.infinity), Int.min)
        XCTAssertEqual(Int(saturating: Double.nan), 0)
        XCTAssertEqual(Int(saturating: 2.5), 3)
        XCTAssertEqual(Int(saturating: -2.7, rounding: .towardZero), -2)
        XCTAssertEqual(Int(saturating: 2.2, rounding: .up), 3)
        // where numbers enter: MQTT, SMIL clock values, M3U
        XCTAssertThrowsError(try FleetRequest.parse("alert", payload: Array(#"{"text": "x", "seconds": 1e300}"#.utf8))) {
            XCTAssertTrue("\($0)".contains("is not from 0 to 100 years"), "\($0)")
        }
        XCTAssertNil(SMILValues.clock("999999999999999999h"))
        XCTAssertNil(SMILValues.clock("99999999999:00:00"))
        XCTAssertEqual(SMILValues.clock("2h"), 7200)
        for period in ["P99999999999999999999Y", "P101Y", "PT" + String(repeating: "9", count: 400) + "H"] {
            guard case .failure(let e)? = SMILWallclock.parse("wallclock(R/2026-12-24T09:00/\(period))") else { return XCTFail(period) }
            XCTAssertTrue("\(e)".contains("is not an ISO 8601 period above zero and up to 100 years"), "\(e)")
        }
        guard case .success(let yearly)? = SMILWallclock.parse("wallclock(R/2026-12-24T09:00/P100Y)") else { return XCTFail("P100Y") }
        XCTAssertEqual(yearly.period.months, 1200)
        let list = M3U.entries(in: "#EXTINF:1e300,Huge\na.png\n#EXTINF:7,Fine\nb.png\n", base: "/m", source: "t.m3u", log: Log(level: .error))
        XCTAssertEqual(list.map(\.duration), [nil, 7])
    }

    /// A state file whose alert ends at 1e300: decoded, it names the value and is refused.
    func testAStateFilesAlertEndPastTheRangeIsRefused() throws {
        var state = PlayerState()
        state.alert = EmergencyAlert(text: "x", until: WallInstant(secondsSince1970: 1234567))
        let text = String(decoding: try state.encoded(), as: UTF8.self)
        XCTAssertTrue(text.contains(#""until":1234567"#), text)
        XCTAssertEqual(try PlayerState.decode(Data(text.utf8)).alert?.until?.secondsSince1970, 1234567, "the file's form is as before")
        XCTAssertThrowsError(try PlayerState.decode(Data(text.replacingOccurrences(of: "1234567", with: "1e300").utf8))) {
            XCTAssertEqual("\($0)", #"bad value at "alert.until": 1e+300 is not an instant from 1970 to 9999 (seconds since 1970)"#)
        }
    }

    /// A kiosk with an IPC socket: alert times past the range are refused over IPC and by `kiosk ctl`, and the player
    /// is still there to take a good one.
    func testHugeAlertTimesOverIPCAndCtlAreRefusedAndKioskGoesOn() throws {
        let dir = try TempDir()
        let picture = try ColourPictures.make(dir, "a.png", "green")
        let sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", picture, "--output", "headless", "--size", "160x90", "--state-dir", dir.file("state"), "--no-watch",
                                 "--input-ipc-server", sock, "--log-level", "info"])
        defer { if p.isRunning { p.send(SIGKILL); _ = p.finish(timeout: 10) } }
        XCTAssertTrue(p.waitFor("first frame presented", timeout: 30), p.stderr)
        let c = try IPCConnection(path: sock)
        for seconds in ["1e300", "1e19", "9.3e18", "3.2e9", "-1", "0"] {
            XCTAssertEqual(try c.request(#"["alert","x",\#(seconds)]"#)["error"], .string("invalid parameter"), seconds)
        }
        for until in ["999999999999999999h", "1000000h"] {
            let r = try CLITests.run(["ctl", "--socket", sock, "alert", "x", "--until", until], timeout: 20)
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("--until '\(until)' is not a time up to 100 years ahead"), r.stderr)
        }
        let far = try CLITests.run(["ctl", "--socket", sock, "alert", "x", "--until", "10000-01-01T00:00"], timeout: 20)
        XCTAssertEqual(far.status, 2, far.stderr)
        XCTAssertTrue(far.stderr.contains("ctl alert: --until: '10000-01-01T00:00' is not a local time"), far.stderr)
        XCTAssertFalse(far.stderr.contains("--start-time"), far.stderr)
        XCTAssertTrue(p.isRunning, p.stderr)
        // a picture that does not decode is named as the alert's, not as --idle-image
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: dir.file("bad.png")))
        XCTAssertEqual(try c.request(#"["alert","Long","3000000000","\#(dir.file("bad.png"))"]"#)["error"], .string("success"))
        XCTAssertTrue(p.waitFor("alert image: ", timeout: 10), p.stderr)
        XCTAssertFalse(p.stderr.contains("--idle-image"), p.stderr)
        XCTAssertTrue(p.waitFor(#"alert: "Long" until 2"#, timeout: 10), p.stderr)
        XCTAssertEqual(try c.get("kiosk-alert"), .string("Long"))
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }

    /// A state file left with an alert ending at 1e300: one line, the state is ignored, kiosk plays (it trapped at
    /// each start: `Restart=always` became a crash loop).
    func testAStateFileWithAHugeAlertEndIsIgnoredWithOneLine() throws {
        let dir = try TempDir()
        let picture = try ColourPictures.make(dir, "a.png", "green")
        let state = dir.file("state")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        var saved = PlayerState()
        saved.alert = EmergencyAlert(text: "Storm", until: WallInstant(secondsSince1970: 1234567))
        let text = String(decoding: try saved.encoded(), as: UTF8.self).replacingOccurrences(of: "1234567", with: "1e300")
        try text.write(toFile: state + "/" + StateDirectory.fileName, atomically: true, encoding: .utf8)
        let p = try LiveProcess(["play", picture, "--output", "headless", "--size", "160x90", "--state-dir", state, "--no-watch",
                                 "--length", "3", "--log-level", "info"])
        defer { if p.isRunning { p.send(SIGKILL); _ = p.finish(timeout: 10) } }
        XCTAssertEqual(p.finish(timeout: 30).status, 0, p.stderr)
        XCTAssertTrue(p.stderr.contains(#"bad value at "alert.until": 1e+300 is not an instant from 1970 to 9999"#), p.stderr)
        XCTAssertTrue(p.stderr.contains("first frame presented"), p.stderr)
    }

    /// `check-config` of a layout with `dur="999999999999999999h"`: one line naming the file, line and value.
    func testCheckConfigRefusesAClockValuePastTheRange() throws {
        let dir = try TempDir()
        _ = try ColourPictures.make(dir, "a.png", "green")
        let smil = dir.file("huge.smil")
        try "<smil><head><layout><region regionName=\"main\"/></layout></head><body>\n<img src=\"a.png\" dur=\"999999999999999999h\"/>\n</body></smil>"
            .write(toFile: smil, atomically: true, encoding: .utf8)
        let r = try CLITests.run(["check-config", smil], timeout: 60)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(smil):2: dur=\"999999999999999999h\" is not a clock value"), r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").map(String.init), ["kiosk: \(smil):2: dur=\"999999999999999999h\" is not a clock value",
                                                                      "kiosk: \(smil): 1 problem"])
    }
}

/// A retained MQTT alert of 1e300 s (the broker hands it to every kiosk at each start), and a fresh one of 1e19 s:
/// each refused with one line, and kiosk plays on.
final class MQTTHugeAlertTests: MQTTFleetTestCase {
    func testAHugeRetainedAlertIsRefusedAndKioskGoesOn() throws {
        let files = try pictures()
        let retained = try BoundedProcess.run(clients.pub, ["-h", "127.0.0.1", "-p", "\(clients.port)", "-q", "1", "-r", "-t",
                                                            "kiosk/hall/cmd/alert", "-m", #"{"text": "Huge", "seconds": 1e300}"#],
                                              timeout: 10)
        XCTAssertEqual(retained.status, 0, String(decoding: retained.stderr, as: UTF8.self))
        let p = try start("hall", files)
        XCTAssertTrue(p.waitFor("mqtt: kiosk/hall/cmd/alert: refused: \"seconds\": 1e+300 s is not from 0 to 100 years", timeout: 10), p.stderr)
        try clients.publish("kiosk/hall/cmd/alert", #"{"text": "Huge", "seconds": 1e19}"#)
        XCTAssertTrue(p.waitFor("mqtt: kiosk/hall/cmd/alert: refused: \"seconds\": 1e+19 s is not from 0 to 100 years", timeout: 10), p.stderr)
        try clients.publish("kiosk/hall/cmd/alert", #"{"text": "Fine", "seconds": 600}"#)
        XCTAssertNotNil(try state("hall") { $0["alert"] == .string("Fine") }, p.stderr)
        stop(p)
    }
}

/// The web page's `/api/command` goes through the same command table: an alert of 1e300 s is a 400, not a crash.
final class WebHugeAlertTests: WebServerTestCase {
    func testAHugeAlertOverTheWebPageIsRefusedAndKioskGoesOn() throws {
        let p = try start()
        let csrf = try logIn()
        for seconds in ["1e300", "1e19"] {
            let r = try curl(["-H", "X-CSRF-Token: \(csrf)", "-H", "Content-Type: application/json", "-d", #"["alert","x",\#(seconds)]"#,
                              base + "/api/command"])
            XCTAssertEqual(r.status, 400, r.body)
            XCTAssertTrue(r.body.contains("invalid parameter"), r.body)
        }
        XCTAssertEqual(try curl([base + "/api/status"]).status, 200)
        XCTAssertTrue(p.isRunning, p.stderr)
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }
}
