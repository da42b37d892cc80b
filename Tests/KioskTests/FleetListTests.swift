import Foundation
import KioskCore
import XCTest

/// `kiosk fleet --mqtt HOST:PORT` against a real mosquitto on 127.0.0.1 holding retained messages published by
/// mosquitto_pub, as kiosks leave them: one kiosk offline (its last will), one online with an active alert, one
/// online and fine, and a screen with topics of its own. The offline one is listed first, then the one with the
/// alert, then the rest; `--json` says the same; a broker that is gone is one line naming it and why (exit 1, at
/// once); a bad `--mqtt` is a usage error.
final class FleetListTests: XCTestCase {
    private var broker: MQTTBroker?

    override func tearDown() { broker?.stop() }

    /// A health report as a kiosk publishes it (`HealthReport.json` with `alerts`), read `age` seconds ago.
    private func health(age: Double, temperature: Double, share: Double, dropped: Int, alerts: [String]) -> String {
        let time = PlayReportQuery.text(Date(timeIntervalSinceNow: -age))
        let list = alerts.map { #"{"kind":"\#($0)","subject":"main","since":"\#(time)","message":"\#($0) on main"}"# }
        return #"{"time":"\#(time)","readings":[{"name":"temperature","subject":"thermal_zone0 cpu-thermal","value":\#(temperature),"unit":"°C","time":"\#(time)"},"#
            + #"{"name":"free-space","subject":"cache /var/lib/kiosk","value":3221225472,"unit":"bytes","time":"\#(time)"},"#
            + #"{"name":"free-space-share","subject":"cache /var/lib/kiosk","value":\#(share),"unit":"%","time":"\#(time)"},"#
            + #"{"name":"free-space-share","subject":"state /var/lib/kiosk","value":\#(share + 10),"unit":"%","time":"\#(time)"},"#
            + #"{"name":"frames-dropped","subject":"main","value":\#(dropped),"unit":"per hour","time":"\#(time)"},"#
            + #"{"name":"tv-power","subject":"main","value":"on","unit":"","time":"\#(time)"}],"displays":[],"alerts":[\#(list.joined(separator: ","))]}"#
    }

    private func startFleet() throws -> MQTTBroker {
        let dir = try TempDir()
        let b = try MQTTBroker(dir)
        broker = b
        let clients = try MQTTClients(b)
        try clients.publish("kiosk/zeta/availability", "offline", retain: true)
        try clients.publish("kiosk/zeta/health", health(age: 7300, temperature: 50, share: 40, dropped: 0, alerts: []), retain: true)
        try clients.publish("kiosk/lobby/availability", "online", retain: true)
        try clients.publish("kiosk/lobby/health", health(age: 5, temperature: 81.5, share: 12, dropped: 7, alerts: ["tv-off", "temperature"]), retain: true)
        try clients.publish("kiosk/alpha/availability", "online", retain: true)
        try clients.publish("kiosk/alpha/health", health(age: 90, temperature: 45, share: 60, dropped: 0, alerts: []), retain: true)
        try clients.publish("kiosk/alpha/screen/b/availability", "online", retain: true)
        try clients.publish("kiosk/alpha/state", #"{"state":"playing"}"#, retain: true)  // not a health topic: not read
        return b
    }

    func testTheOfflineFirstThenThoseWithAlertsThenTheRest() throws {
        let b = try startFleet()
        let r = try CLITests.run(["fleet", "--mqtt", b.address, "--wait", "10"], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertLessThan(r.seconds, 8, "the retained messages come at once: the reading ends when the broker is quiet, not at --wait")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5, r.stdout)
        let cells = lines.map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        XCTAssertEqual(cells.first, ["ID", "STATE", "REPORT", "TEMP", "FREE", "DROPPED", "ALERTS"])
        XCTAssertEqual(cells.dropFirst().map { $0.first }, ["zeta", "lobby", "alpha", "alpha/b"], r.stdout)
        XCTAssertNotNil(lines[1].range(of: #"^zeta +offline +2 h 1 min ago +50 °C +40 % \(3\.0 GiB\) +0/h +none$"#, options: .regularExpression), r.stdout)
        XCTAssertNotNil(lines[2].range(of: #"^lobby +online +\d s ago +81\.5 °C +12 % \(3\.0 GiB\) +7/h +2: tv-off, temperature$"#,
                                       options: .regularExpression), r.stdout)
        XCTAssertNotNil(lines[3].range(of: #"^alpha +online +1 min ago +45 °C +60 % \(3\.0 GiB\) +0/h +none$"#, options: .regularExpression), r.stdout)
        XCTAssertNotNil(lines[4].range(of: #"^alpha/b +online +no report +— +— +— +none$"#, options: .regularExpression), r.stdout)

        let j = try CLITests.run(["fleet", "--mqtt", b.address, "--json", "--wait", "10"], timeout: 30)
        XCTAssertEqual(j.status, 0, j.stderr)
        let json = try JSONValue.parse(Array(j.stdout.utf8))
        XCTAssertEqual(json["broker"], .string(b.address))
        guard case .array(let kiosks)? = json["kiosks"] else { return XCTFail(j.stdout) }
        XCTAssertEqual(kiosks.map { $0["id"] }, [.string("zeta"), .string("lobby"), .string("alpha"), .string("alpha/b")])
        XCTAssertEqual(kiosks.map { $0["state"] }, [.string("offline"), .string("online"), .string("online"), .string("online")])
        let lobby = kiosks[1]
        XCTAssertEqual(lobby["alert_count"], .int(2))
        XCTAssertEqual(lobby["alert_kinds"], .array([.string("tv-off"), .string("temperature")]))
        XCTAssertEqual(lobby["temperature_c"]?.number, 81.5)
        XCTAssertEqual(lobby["free_space_share"], .int(12), "the folder with the least free space")
        XCTAssertEqual(lobby["free_space_bytes"], .int(3_221_225_472))
        XCTAssertEqual(lobby["frames_dropped_per_hour"], .int(7))
        XCTAssertEqual(lobby["alerts"]?.text.contains(#""message":"tv-off on main""#), true, j.stdout)
        XCTAssertTrue((0...30).contains(lobby["report_age_s"]?.integer ?? -1), j.stdout)
        XCTAssertTrue((7290...7330).contains(kiosks[0]["report_age_s"]?.integer ?? -1), j.stdout)
        XCTAssertEqual(kiosks[3]["report_time"], .null)
    }

    func testAHealthMessageThatIsNotJSONIsSaidAndAnEmptyBrokerToo() throws {
        let dir = try TempDir()
        let b = try MQTTBroker(dir)
        broker = b
        let empty = try CLITests.run(["fleet", "--mqtt", b.address, "--wait", "10"], timeout: 30)
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertEqual(empty.stdout, "no kiosks on \(b.address) (no retained kiosk/ID/availability or kiosk/ID/health)\n")
        let clients = try MQTTClients(b)
        try clients.publish("kiosk/odd/health", "<html>\u{1b}[31m", retain: true)
        let r = try CLITests.run(["fleet", "--mqtt", b.address, "--wait", "10"], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertNotNil(r.stdout.range(of: #"\nodd +unknown +unreadable: the health message is not JSON \([^\n]*\) +— +— +— +none\n$"#,
                                       options: .regularExpression), r.stdout)
        XCTAssertFalse(r.stdout.contains("\u{1b}"), "nothing a broker holds reaches the terminal raw")
    }

    func testABrokerThatIsGoneIsOneLineAndExit1() throws {
        let b = try startFleet()
        b.stop()
        let r = try CLITests.run(["fleet", "--mqtt", b.address, "--wait", "2"], timeout: 30)
        XCTAssertEqual(r.status, 1, r.stdout)
        XCTAssertEqual(r.stdout, "")
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("fleet: cannot read the MQTT broker \(b.address): Connection refused"), r.stderr)
        XCTAssertLessThan(r.seconds, 5, "no hang")
    }

    func testBadFlagsAreUsageErrors() throws {
        for (args, said) in [(["fleet"], "fleet: name the broker with --mqtt HOST[:PORT]"),
                             (["fleet", "--mqtt", "host:99999"], "--mqtt: 'host:99999': the port must be 1...65535"),
                             (["fleet", "--mqtt", "h", "--wait", "0"], "--wait"),
                             (["fleet", "--mqtt", "h", "extra"], "fleet: unexpected 'extra'")] {
            let r = try CLITests.run(args, timeout: 30)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(said), "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
    }
}
