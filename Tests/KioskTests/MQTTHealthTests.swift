import Foundation
import KioskCore
import XCTest

/// Health over MQTT with a real mosquitto: a kiosk whose content cache lives on a small tmpfs (2 MiB) publishes its
/// health report retained on `kiosk/ID/health` and Home Assistant's discovery configs; filling the tmpfs past the
/// storage threshold raises the `storage-low` alert once (MQTT `health/alert`, the retained report, the log, an IPC
/// event, `kiosk ctl health`), and freeing it clears it once, over rounds of 0.5 s that do not repeat it.
final class MQTTHealthTests: MQTTFleetTestCase {
    func testHealthIsRetainedWithDiscoveryAndAStorageAlertIsRaisedAndClearedOnce() throws {
        let disk = dir.file("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        try SmallDisk.mount(disk)
        defer { SmallDisk.unmount(disk) }
        let picture = try ColourPictures.make(dir, "a.png", "green")
        let cache = disk + "/cache", sock = dir.file("ipc.sock"), subject = "cache \(disk)/cache"
        let p = try start("hall", [picture], extra: ["--no-state", "--no-play-log", "--content-cache", cache, "--length", "120",
                                                     "--health-interval", "0.5", "--health-alert-storage", "50",
                                                     "--input-ipc-server", sock])
        defer {  // before the tmpfs goes
            if p.isRunning { p.send(SIGKILL) }
            _ = p.finish(timeout: 10)
        }
        XCTAssertTrue(p.waitFor("health: every 0.5 s; alerts: display disconnected, TV in standby while the screen is on, storage below 50 %",
                                timeout: 10), p.stderr)

        // the retained report: readings, displays, no alert yet
        let healthy = try XCTUnwrap(try clients.wait("kiosk/hall/health", seconds: 15) {
            HealthCtlTests.reading($0, "free-space-share", subject: subject) != nil
        }, p.stderr)
        XCTAssertEqual(healthy["alerts"], .array([]))
        XCTAssertNotNil(healthy["time"]?.string.flatMap(PlayReportQuery.instant))
        XCTAssertEqual(HealthCtlTests.reading(healthy, "screen-power", subject: "main")?["value"], .string("on"))
        // Home Assistant: a problem binary sensor per alert kind and the sensors, all on the health topic
        for kind in HealthAlertKind.allCases {
            let object = kind.rawValue.replacingOccurrences(of: "-", with: "_")
            let config = try XCTUnwrap(try clients.retained("homeassistant/binary_sensor/hall_health_\(object)/config"), kind.rawValue)
            XCTAssertEqual(config["device_class"], .string("problem"))
            XCTAssertEqual(config["state_topic"], .string("kiosk/hall/health"))
            XCTAssertEqual(config["availability_topic"], .string("kiosk/hall/availability"))
            XCTAssertEqual(config["name"], .string(kind.title))
        }
        for (object, unit) in [("temperature", "°C"), ("cpu", "%"), ("memory", "%"), ("free_space", "%"),
                               ("frames_dropped", "frames/h"), ("content_age", "h"), ("uptime", "s")] {
            let config = try XCTUnwrap(try clients.retained("homeassistant/sensor/hall_health_\(object)/config"), object)
            XCTAssertEqual(config["state_topic"], .string("kiosk/hall/health"), object)
            XCTAssertEqual(config["unit_of_measurement"], .string(unit), object)
            XCTAssertEqual(config["unique_id"], .string("kiosk_hall_health_\(object)"), object)
        }

        // the alert's changes, heard from now on: on MQTT and as IPC events
        let listener = try clients.listen(["kiosk/hall/health/alert"], count: 3, seconds: 90, probe: "kiosk/hall/availability")
        defer {
            if listener.isRunning { listener.send(SIGKILL) }
            _ = listener.finish(timeout: 10)
        }
        let ipc = try IPCConnection(path: sock)
        XCTAssertEqual(try ipc.request(#"["get_property","pause"]"#)["error"], .string("success"))

        // fill the tmpfs past half: raised once
        let fill = disk + "/fill"
        try Data(count: 1_400_000).write(to: URL(fileURLWithPath: fill))
        let full = try XCTUnwrap(try clients.wait("kiosk/hall/health", seconds: 15) { Self.alert($0, "storage-low") != nil }, p.stderr)
        let alert = try XCTUnwrap(Self.alert(full, "storage-low"))
        XCTAssertEqual(alert["subject"], .string(subject))
        XCTAssertNotNil(alert["since"]?.string.flatMap(PlayReportQuery.instant), "\(alert)")
        XCTAssertTrue(alert["message"]?.string?.hasSuffix("% is below 50 %") ?? false, "\(alert)")
        XCTAssertTrue(p.waitFor("health: raised storage-low (\(subject)): free space ", timeout: 10), p.stderr)
        let raisedEvent = try XCTUnwrap(try ipc.waitForEvent("kiosk-health-alert", timeout: 10), p.stderr)
        XCTAssertEqual(raisedEvent["state"], .string("raised"))
        XCTAssertEqual(raisedEvent["kind"], .string("storage-low"))
        XCTAssertEqual(raisedEvent["subject"], .string(subject))
        let table = try CLITests.run(["ctl", "--socket", sock, "health"], timeout: 30)
        XCTAssertTrue(table.stdout.contains("ALERTS\n  storage-low  \(subject)  since "), table.stdout)
        // it lasts over several rounds: still raised once
        Thread.sleep(forTimeInterval: 2.5)
        XCTAssertEqual(p.stderr.components(separatedBy: "health: raised storage-low").count - 1, 1, p.stderr)
        XCTAssertNotNil(try clients.retained("kiosk/hall/health").flatMap { Self.alert($0, "storage-low") })

        // free it: cleared once
        try FileManager.default.removeItem(atPath: fill)
        XCTAssertNotNil(try clients.wait("kiosk/hall/health", seconds: 15) { $0["alerts"] == .array([]) }, p.stderr)
        XCTAssertTrue(p.waitFor("health: cleared storage-low (\(subject)) after ", timeout: 10), p.stderr)
        let clearedEvent = try XCTUnwrap(try ipc.waitForEvent("kiosk-health-alert", timeout: 10), p.stderr)
        XCTAssertEqual(clearedEvent["state"], .string("cleared"))
        XCTAssertEqual(clearedEvent["since"], raisedEvent["since"])
        Thread.sleep(forTimeInterval: 2)
        XCTAssertEqual(p.stderr.components(separatedBy: "health: raised storage-low").count - 1, 1, p.stderr)
        XCTAssertEqual(p.stderr.components(separatedBy: "health: cleared storage-low").count - 1, 1, p.stderr)
        XCTAssertNil(try ipc.waitForEvent("kiosk-health-alert", timeout: 1), "no third change")
        stop(p)

        // what the subscriber heard: raised, then cleared, each once; the last will says offline
        listener.send(SIGTERM)
        _ = listener.finish(timeout: 10)
        let heard = MQTTClients.heard(listener, probe: "kiosk/hall/availability")
        XCTAssertEqual(heard.map(\.topic), ["kiosk/hall/health/alert", "kiosk/hall/health/alert"], listener.stdout)
        let changes = heard.compactMap { try? JSONValue.parse(Array($0.payload.utf8)) }
        XCTAssertEqual(changes.map { $0["state"] }, [.string("raised"), .string("cleared")], listener.stdout)
        XCTAssertEqual(changes.map { $0["kind"] }, [.string("storage-low"), .string("storage-low")])
        XCTAssertEqual(try clients.bytes("kiosk/hall/availability", seconds: 5).map { String(decoding: $0, as: UTF8.self) }, "offline")
    }

    /// The alert of `kind` in a health report's JSON, if it holds.
    static func alert(_ health: JSONValue, _ kind: String) -> JSONValue? {
        guard case .array(let alerts)? = health["alerts"] else { return nil }
        return alerts.first { $0["kind"] == .string(kind) }
    }
}

/// A 2 MiB tmpfs for a test that fills a disk (as root: `mount -t tmpfs`). Where mounting is refused (not root, no
/// CAP_SYS_ADMIN) the test skips saying so, and fails with CI set (`IPCTools.require`).
enum SmallDisk {
    /// Mounts a 2 MiB tmpfs on `folder`.
    static func mount(_ folder: String) throws {
        let r = try BoundedProcess.run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", folder], timeout: 10)
        guard r.status == 0 else {
            _ = try IPCTools.require(nil, "cannot mount a tmpfs on \(folder) (\(String(decoding: r.stderr, as: UTF8.self))): the test needs root")
            return
        }
    }

    /// Unmounts it (lazily: whatever still holds it lets go).
    static func unmount(_ folder: String) {
        _ = try? BoundedProcess.run("/bin/umount", ["-l", folder], timeout: 10)
    }
}
