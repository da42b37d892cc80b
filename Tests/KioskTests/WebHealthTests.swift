import Foundation
import KioskCore
import XCTest

/// The web page's Health panel (issue 41) against a real kiosk (headless, the page on a free port): `/api/status`
/// carries the health monitor's latest report (`health`, as IPC's `kiosk-health` has it); the dashboard shows it in
/// Debian's chromium (selenium), read back as the browser rendered it, with "No active alerts." when there are none;
/// and a report with markup in a monitor's name, a subject and an alert's message is drawn as text, its alerts
/// highlighted (the panel as drawn goes to out/web/web-health.png).
final class WebHealthTests: WebServerTestCase {
    func testTheStatusCarriesTheHealthReport() throws {
        try start()
        var status: JSONValue?
        XCTAssertTrue(try eventually(15, every: 0.2) {
            let r = try curl(["-H", "Authorization: Bearer \(token)", base + "/api/status"])
            status = try? JSONValue.parse(Array(r.body.utf8))
            return r.status == 200 && status?["health"]?["readings"] != nil
        }, "\(String(describing: status))")
        let health = try XCTUnwrap(status?["health"])
        XCTAssertNotNil(health["time"]?.string.flatMap(PlayReportQuery.instant), health.text)
        let tv = try XCTUnwrap(HealthCtlTests.reading(health, "tv-power", subject: "main"), health.text)
        XCTAssertEqual(tv["value"], .string("unknown"), "headless: no CEC")
        XCTAssertEqual(tv["note"], .string("no CEC: --cec off, or no adapter"))
        XCTAssertEqual(HealthCtlTests.reading(health, "version")?["value"], .string(KioskVersion.number))
        XCTAssertEqual(HealthCtlTests.reading(health, "memory-process")?["unit"], .string("bytes"))
        guard case .array(let displays)? = health["displays"] else { return XCTFail(health.text) }
        XCTAssertEqual(displays.map { [$0["screen"], $0["connector"], $0["state"]] }, [[.string("main"), .string("headless"), .string("none")]])
    }

    func testTheHealthPanelInARealBrowser() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver"] where !FileManager.default.fileExists(atPath: tool) {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("\(tool) is missing (Kiosk/setup.sh installs it)") }
            throw XCTSkip("\(tool) is missing (Kiosk/setup.sh installs chromium and chromium-driver)")
        }
        let p = try start()
        let script = URL(fileURLWithPath: Self.guards).deletingLastPathComponent().appendingPathComponent("browser-health.py").path
        let out = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("out/web").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let r = try BoundedProcess.run("/usr/bin/python3", [script, base, password, out], timeout: 180)
        XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self).suffix(3000) + "\n" + p.stderr.suffix(2000))
        let seen = try JSONValue.parse([UInt8](r.stdout))
        XCTAssertNotNil(seen["time"]?.string?.range(of: #"^Read at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression), seen.text)
        XCTAssertEqual(seen["alerts"], .array([.string("No active alerts.")]), seen.text)
        XCTAssertEqual(seen["alert_classes"], .array([.string("none")]), seen.text)
        let machine = rows(seen["machine"])
        XCTAssertEqual(machine.first, ["Reading", "Of", "Value"])
        XCTAssertTrue(machine.contains(["version", "", KioskVersion.number]), "\(machine)")
        XCTAssertTrue(machine.contains { $0.first == "memory-process" && $0.last?.range(of: #"^\d+\.\d (KiB|MiB|GiB)$"#, options: .regularExpression) != nil },
                      "bytes in MiB: \(machine)")
        XCTAssertTrue(machine.contains { $0.first == "uptime-process" && $0.last?.range(of: #"^\d+ s"#, options: .regularExpression) != nil },
                      "seconds with their unit: \(machine)")
        XCTAssertFalse(machine.contains { $0.first == "tv-power" }, "a screen's readings are in the screens' table")
        XCTAssertEqual(rows(seen["displays"]), [["Screen", "Connector", "State", "Monitor"],
                                                ["main", "headless", "none", "no display: the headless output draws into memory"]])
        XCTAssertEqual(rows(seen["screens"]), [["Screen", "Frames late", "Frames dropped", "Decode failures", "Content age", "TV power"],
                                               ["main", "not counted: headless has no page flips", "—", "0", "—",
                                                "unknown (no CEC: --cec off, or no adapter)"]])

        // the hostile report: drawn as text, not markup; its alerts first and highlighted
        let hostile = try XCTUnwrap(seen["hostile"], seen.text)
        XCTAssertEqual(hostile["markup"], .int(0), hostile.text)
        XCTAssertEqual(seen["pwned"], .null, "no script ran")
        let text = try XCTUnwrap(hostile["text"]?.string)
        XCTAssertTrue(text.contains(#"DEL <img src=x onerror="window.pwned=1"> product 41153 serial 12345"#), text)
        XCTAssertTrue(text.contains("thermal_zone0 <b>cpu</b>"), text)
        XCTAssertEqual(hostile["alerts"], .array([
            .array([.string("alert"), .string("tv-off hall: the TV is in standby <script>window.pwned=2</script> (since 2026-12-07T09:58:00Z)")]),
            .array([.string("alert"), .string("temperature thermal_zone0: 71.5 °C is above 70 °C (since 2026-12-07T09:59:00Z)")]),
        ]), hostile.text)
        XCTAssertEqual(hostile["highlighted"], .bool(true))
        XCTAssertEqual(hostile["colour"], .string("rgb(254, 215, 215)"), "an active alert stands out")
        XCTAssertEqual(rows(hostile["screens"]).last, ["hall", "—", "42 per hour", "—", "7260 s (2 h 1 min)", "standby"], hostile.text)
        XCTAssertEqual(seen["console_errors"], .array([]), seen.text)
    }

    /// A table as the script read it: rows of cell texts.
    private func rows(_ value: JSONValue?) -> [[String]] {
        guard case .array(let rows)? = value else { return [] }
        return rows.map { row in
            guard case .array(let cells) = row else { return [] }
            return cells.map { $0.string ?? "?" }
        }
    }
}
