import Foundation
@testable import KioskCore
import XCTest

/// The health alerts as pure logic, on made reports at simulated times (no wall clock): each kind raised once when
/// its condition begins and cleared once when it ends, never repeated while it lasts; thresholds from options and
/// config lines, `off`, and bad values as one line naming the flag (and the config line, through check-config).
final class HealthAlertsTests: XCTestCase {
    /// A round's time: `seconds` after 2027-01-15T08:00:00Z.
    private func at(_ seconds: Double) -> WallInstant {
        WallInstant(secondsSince1970: 1_800_000_000 + seconds) ?? WallInstant(clamping: Date(timeIntervalSince1970: 0))
    }

    /// A report at `seconds` with the cache folder's free share `free` (%) and the given other readings.
    private func report(_ seconds: Double, free: Double = 50, _ more: [(String, String?, Double)] = [],
                        texts: [(String, String?, String)] = [], displays: [(String, String)] = []) -> HealthReport {
        let t = at(seconds)
        var readings = [HealthReading("free-space-share", subject: "cache /srv", value: free, unit: "%", time: t)]
        readings += more.map { HealthReading($0.0, subject: $0.1, value: $0.2, unit: "", time: t) }
        readings += texts.map { HealthReading($0.0, subject: $0.1, text: $0.2, time: t) }
        return HealthReport(time: t, readings: readings,
                            displays: displays.map { DisplayHealth(screen: "main", connector: $0.0, state: $0.1, time: t) })
    }

    func testAnAlertIsRaisedOnceAndClearedOnceOverRounds() throws {
        var tracker = HealthAlertTracker(rules: HealthAlertRules())
        let frees: [Double] = [50, 8, 7, 9.5, 6, 12, 30, 40]
        var changes: [(Int, HealthAlertChange)] = []
        for (i, free) in frees.enumerated() {
            for c in tracker.update(with: report(Double(i) * 10, free: free)) { changes.append((i, c)) }
            if (1...4).contains(i) {
                XCTAssertEqual(tracker.active.map(\.kind), [.storageLow], "round \(i)")
                XCTAssertEqual(tracker.active.first?.since, at(10), "since the first round that saw it")
            } else {
                XCTAssertEqual(tracker.active, [], "round \(i)")
            }
        }
        XCTAssertEqual(changes.map(\.0), [1, 5])
        XCTAssertEqual(changes.map(\.1.edge), [.raised, .cleared])
        let raised = changes[0].1, cleared = changes[1].1
        XCTAssertEqual(raised.alert.subject, "cache /srv")
        XCTAssertEqual(raised.line, "health: raised storage-low (cache /srv): free space 8 % is below 10 %")
        XCTAssertEqual(cleared.line, "health: cleared storage-low (cache /srv) after 40 s")
        XCTAssertEqual(cleared.alert.message, "free space 6 % is below 10 %", "the last message read")
        XCTAssertEqual(raised.json.text,
                       #"{"state":"raised","kind":"storage-low","subject":"cache /srv","since":"2027-01-15T08:00:10Z","message":"free space 8 % is below 10 %","time":"2027-01-15T08:00:10Z"}"#)
        // it comes back: raised again, once
        XCTAssertEqual(tracker.update(with: report(100, free: 2)).map(\.edge), [.raised])
        XCTAssertEqual(tracker.update(with: report(110, free: 2)), [])
    }

    func testEveryKindWithItsDefaultThreshold() {
        let rules = HealthAlertRules()
        let hot = report(0, free: 9.94,
                         [("temperature", "thermal_zone0 cpu-thermal", 80.5), ("temperature", "thermal_zone1 gpu", 79),
                          ("content-age", "main", 24 * 3600 + 60), ("content-age", "side", 3600),
                          ("frames-dropped", "main", 301), ("frames-dropped", "side", 300)],
                         texts: [("tv-power", "main", "standby"), ("screen-power", "main", "on"),
                                 ("tv-power", "side", "standby"), ("screen-power", "side", "off"), ("tv-power", "third", "on")],
                         displays: [("HDMI-A-1", "disconnected"), ("HDMI-A-2", "connected"), ("headless", "none")])
        let alerts = rules.alerts(in: hot)
        XCTAssertEqual(alerts.map(\.kind), [.displayDisconnected, .storageLow, .temperatureHigh, .contentStale, .framesDropped, .tvStandby])
        XCTAssertEqual(alerts.map(\.subject), ["main HDMI-A-1", "cache /srv", "thermal_zone0 cpu-thermal", "main", "main", "main"])
        XCTAssertEqual(alerts.map(\.message), [
            "HDMI-A-1 of screen main is disconnected",
            "free space 9.9 % is below 10 %",
            "80.5 °C is above 80 °C",
            "the last good content check was 24 h ago, more than 24 h",
            "301 frames dropped in the last hour, more than 300",
            "the TV of screen main is in standby while the screen is on",
        ])
        XCTAssertEqual(rules.alerts(in: report(0)), [], "a healthy report")
    }

    /// A TV put in standby reports standby, then to-standby while it gets there, then standby (cec-follower does, as
    /// the VM's cec-test.sh saw): one alert, raised once and cleared once when it is on its way on; the screen off
    /// (a schedule's window) is no alert in any of them.
    func testTheTVsWayToStandbyIsOneAlert() {
        var tracker = HealthAlertTracker(rules: HealthAlertRules())
        // the way to standby, and back as cec-follower came back in the VM (on, standby, to-on, on within seconds):
        // one alert, cleared once the TV has stayed out of standby for 5 s
        let powers = ["on", "standby", "to-standby", "standby", "to-on", "on", "standby", "to-on", "on", "on", "on", "on", "on", "on", "on"]
        var edges: [(Int, HealthAlertChange.Edge)] = []
        for (i, power) in powers.enumerated() {
            let r = report(Double(i), texts: [("tv-power", "main", power), ("screen-power", "main", "on")])
            edges += tracker.update(with: r).map { (i, $0.edge) }
        }
        XCTAssertEqual(edges.map(\.0), [1, 12])
        XCTAssertEqual(edges.map(\.1), [.raised, .cleared])
        let going = HealthAlertRules().alerts(in: report(0, texts: [("tv-power", "main", "to-standby"), ("screen-power", "main", "on")]))
        XCTAssertEqual(going.map(\.message), ["the TV of screen main is going to standby while the screen is on"])
        for power in ["standby", "to-standby"] {
            XCTAssertEqual(HealthAlertRules().alerts(in: report(0, texts: [("tv-power", "main", power), ("screen-power", "main", "off")])), [],
                           "the screen off: \(power) is no alert")
        }
    }

    func testThresholdsFromOptionsAndOff() throws {
        let o = try ParsedOptions.parse(["--health-alert-storage", "50", "--health-alert-temperature", "off",
                                         "--health-alert-display", "off", "--health-alert-content-age", "0.5",
                                         "--health-alert-frames-dropped", "0", "--health-interval", "0.5"],
                                        specs: CommandSpecs.play, command: "play")
        let rules = try HealthAlertRules(o)
        XCTAssertEqual(rules.storageBelowPercent, 50)
        XCTAssertNil(rules.temperatureAboveCelsius)
        XCTAssertFalse(rules.displayDisconnected)
        XCTAssertTrue(rules.tvStandby)
        XCTAssertEqual(rules.contentOlderThanHours, 0.5)
        XCTAssertEqual(rules.framesDroppedPerHourAbove, 0)
        XCTAssertEqual(rules.summary, "display off, TV in standby while the screen is on, storage below 50 %, content older than 0.5 h, "
                       + "temperature off, more than 0 frames dropped an hour")
        let r = report(0, free: 40, [("temperature", "z", 120), ("frames-dropped", "main", 1), ("content-age", "main", 1801)],
                       displays: [("HDMI-A-1", "disconnected")])
        XCTAssertEqual(rules.alerts(in: r).map(\.kind), [.storageLow, .framesDropped, .contentStale], "in the readings' order")
        let defaults = try HealthAlertRules(try ParsedOptions.parse([], specs: CommandSpecs.play, command: "play"))
        XCTAssertEqual(defaults, HealthAlertRules())
        XCTAssertEqual(defaults.storageBelowPercent, 10)
        XCTAssertEqual(defaults.contentOlderThanHours, 24)
        XCTAssertEqual(defaults.temperatureAboveCelsius, 80)
        XCTAssertEqual(defaults.framesDroppedPerHourAbove, 300)
    }

    func testABadValueIsOneLineNamingItsFlag() throws {
        let cases = [
            ("health-alert-storage", "abc", "--health-alert-storage: 'abc' is not a percentage from 0 to 100, or off"),
            ("health-alert-storage", "150", "--health-alert-storage: '150' is not a percentage from 0 to 100, or off"),
            ("health-alert-content-age", "-1", "--health-alert-content-age: '-1' is not a number of hours from 0 to 87600, or off"),
            ("health-alert-temperature", "nan", "--health-alert-temperature: 'nan' is not a temperature from -40 to 200 °C, or off"),
            ("health-alert-frames-dropped", "lots", "--health-alert-frames-dropped: 'lots' is not a number of frames an hour from 0 to 1000000, or off"),
        ]
        for (flag, value, message) in cases {
            let o = try ParsedOptions.parse(["--\(flag)", value], specs: CommandSpecs.play, command: "play")
            XCTAssertThrowsError(try HealthAlertRules(o)) { XCTAssertEqual(($0 as? UsageError)?.message, message) }
        }
        XCTAssertThrowsError(try ParsedOptions.parse(["--health-alert-tv", "maybe"], specs: CommandSpecs.play, command: "play"))
        XCTAssertThrowsError(try ParsedOptions.parse(["--health-interval", "0"], specs: CommandSpecs.play, command: "play"))
    }

    func testConfigLinesTakeOffAsAValue() throws {
        XCTAssertEqual(try ConfigFile.read(line: "health-alert-storage = off", at: "k.conf:1").arguments, ["--health-alert-storage", "off"])
        XCTAssertEqual(try ConfigFile.read(line: "health-alert-tv = off", at: "k.conf:2").arguments, ["--health-alert-tv", "off"])
        XCTAssertEqual(try ConfigFile.read(line: "health-alert-display = on", at: "k.conf:3").arguments, ["--health-alert-display", "on"])
    }

    func testCheckConfigNamesTheLineOfABadThreshold() throws {
        let dir = try TempDir()
        let conf = dir.file("kiosk.conf")
        try "health-alert-temperature = 70\nhealth-alert-storage = 150\nhealth-alert-display = off\n"
            .write(toFile: conf, atomically: true, encoding: .utf8)
        let r = try CLITests.run(["check-config", conf], timeout: 30)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("kiosk: \(conf):2: --health-alert-storage: '150' is not a percentage from 0 to 100, or off\n"), r.stderr)
        try "health-alert-storage = off\nhealth-alert-tv = off\nhealth-interval = 5\n".write(toFile: conf, atomically: true, encoding: .utf8)
        let ok = try CLITests.run(["check-config", conf], timeout: 30)
        XCTAssertEqual(ok.status, 0, ok.stderr)
    }

    func testPlayRefusesABadThresholdWithOneLine() throws {
        let dir = try TempDir()
        let picture = try ColourPictures.make(dir, "a.png", "red")
        let r = try CLITests.run(["play", picture, "--output", "headless", "--size", "64x36", "--no-state", "--no-play-log",
                                  "--length", "5", "--health-alert-storage", "abc"], timeout: 60)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--health-alert-storage: 'abc' is not a percentage from 0 to 100, or off"), r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "health-alert-storage").count - 1, 1, r.stderr)
    }
}
