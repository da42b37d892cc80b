import Foundation
import KioskCore
@testable import KioskFleet
import XCTest

/// Home Assistant's health entities: their templates rendered by Jinja2 (the engine Home Assistant's templates are
/// built on, from Python) against a report's JSON as kiosk publishes it: each sensor's number (several readings made
/// one: the hottest zone, the fullest folder, all screens' dropped frames), `None` (unknown) without the reading,
/// and each `problem` binary sensor `ON` exactly while an alert of its kind holds. A further screen's device has
/// none of them (the report is the kiosk's).
final class HealthDiscoveryTests: XCTestCase {
    private let time = WallInstant(secondsSince1970: 1_800_000_000) ?? WallInstant(clamping: Date(timeIntervalSince1970: 0))

    func testTheTemplatesReadTheReport() throws {
        let t = time
        let report = HealthReport(time: t, readings: [
            HealthReading("temperature", subject: "thermal_zone0 a", value: 45.5, unit: "°C", time: t),
            HealthReading("temperature", subject: "thermal_zone1 b", value: 61, unit: "°C", time: t),
            HealthReading("cpu-system", value: 12.5, unit: "%", time: t),
            HealthReading("memory-available", value: 600, unit: "bytes", time: t),
            HealthReading("memory-total", value: 1000, unit: "bytes", time: t),
            HealthReading("free-space-share", subject: "cache /c", value: 30, unit: "%", time: t),
            HealthReading("free-space-share", subject: "state /s", value: 8, unit: "%", time: t),
            HealthReading("frames-dropped", subject: "main", value: 3, unit: "per hour", time: t),
            HealthReading("frames-dropped", subject: "side", value: 4, unit: "per hour", time: t),
            HealthReading("frames-late", subject: "main", text: "not counted", time: t),
            HealthReading("content-age", subject: "main", value: 7200, unit: "s", time: t),
            HealthReading("uptime-process", value: 3723, unit: "s", time: t),
        ], alerts: [HealthAlert(kind: .storageLow, subject: "state /s", since: t, message: "free space 8 % is below 10 %")])
        let configs = HomeAssistantDiscovery.configs(FleetTopics(id: "hall"), playlists: [])
        func template(_ topic: String, _ member: String = "value_template") throws -> String {
            let config = try XCTUnwrap(configs.first { $0.topic == topic }, topic)
            return try XCTUnwrap(config.json[member]?.string, topic)
        }
        let sensors = ["temperature", "cpu", "memory", "free_space", "frames_dropped", "content_age", "uptime"]
        let kinds = HealthAlertKind.allCases.map { $0.rawValue.replacingOccurrences(of: "-", with: "_") }
        let templates = try sensors.map { try template("homeassistant/sensor/hall_health_\($0)/config") }
            + kinds.map { try template("homeassistant/binary_sensor/hall_health_\($0)/config") }
            + [try template("homeassistant/binary_sensor/hall_health_storage_low/config", "json_attributes_template")]
        let rendered = try Self.render(templates, report.json.text)
        XCTAssertEqual(Array(rendered.prefix(sensors.count)), ["61", "12.5", "40.0", "8", "7", "2.0", "3723"])
        XCTAssertEqual(Array(rendered.dropFirst(sensors.count).prefix(kinds.count)),
                       HealthAlertKind.allCases.map { $0 == .storageLow ? "ON" : "OFF" })
        let attributes = try JSONValue.parse(Array((rendered.last ?? "").utf8))
        guard case .array(let listed)? = attributes["alerts"] else { return XCTFail(rendered.last ?? "") }
        XCTAssertEqual(listed.count, 1)
        for key in ["kind", "subject", "since", "message"] { XCTAssertEqual(listed.first?[key], report.alerts[0].json[key], key) }
        // without the readings: unknown
        let empty = try Self.render(Array(templates.prefix(sensors.count)), HealthReport(time: t).json.text)
        XCTAssertEqual(empty, Array(repeating: "None", count: sensors.count))
        // a further screen's device: no health entities
        let screen = HomeAssistantDiscovery.configs(FleetTopics(id: "hall", screen: "side"), playlists: [])
        XCTAssertFalse(screen.contains { $0.topic.contains("health") }, screen.map(\.topic).joined(separator: "\n"))
        XCTAssertTrue(configs.contains { $0.topic == "homeassistant/switch/hall_screen/config" }, "the kiosk's other entities stay")
    }

    /// Each of `templates` rendered by Jinja2 with `value_json` the parsed `payload`, one line each.
    static func render(_ templates: [String], _ payload: String) throws -> [String] {
        let python = try IPCTools.require(IPCTools.onPath("python3"), "python3 is not installed")
        let check = try BoundedProcess.run(python, ["-c", "import jinja2"], timeout: 30)
        guard check.status == 0 else {
            _ = try IPCTools.require(nil, "python3's jinja2 is not installed (Debian: python3-jinja2)")
            return []
        }
        let script = """
            import json, sys, jinja2
            value = json.loads(sys.argv[1])
            env = jinja2.Environment()
            for t in sys.argv[2:]:
                print(env.from_string(t).render(value_json=value).replace("\\n", " "))
            """
        let r = try BoundedProcess.run(python, ["-c", script, payload] + templates, timeout: 30)
        XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self))
        return String(decoding: r.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}
