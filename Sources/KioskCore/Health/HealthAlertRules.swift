import Foundation

/// The thresholds of the health alerts (`--health-alert-*`, or `health-alert-* = …` in the config file): each a
/// number or `off`, with the defaults a signage operator expects. Pure: it reads a `HealthReport` and says which
/// alerts hold in it (`HealthAlertTracker` keeps them from round to round).
public struct HealthAlertRules: Sendable, Equatable {
    /// A display whose connector reads `disconnected` is an alert.
    public var displayDisconnected = true
    /// The TV in standby or going there (its `tv-power` reading: `standby`, `to-standby`) while the player has the
    /// screen on (`screen-power`) is an alert.
    public var tvStandby = true
    /// Free space below this share of its file system, in percent (nil: off).
    public var storageBelowPercent: Double? = 10
    /// The content source's last good check older than this, in hours (nil: off).
    public var contentOlderThanHours: Double? = 24
    /// A thermal zone above this, in °C (nil: off).
    public var temperatureAboveCelsius: Double? = 80
    /// More frames dropped in the last hour than this (nil: off).
    public var framesDroppedPerHourAbove: Double? = 300

    /// The defaults: display and TV on, storage below 10 %, content older than 24 h, above 80 °C, more than 300
    /// frames dropped an hour.
    public init() {}

    /// The alerts that hold in `report`, each `since` the report's time (machine's first, then each screen's, in
    /// the report's order).
    public func alerts(in report: HealthReport) -> [HealthAlert] {
        let time = report.time
        var out: [HealthAlert] = []
        func add(_ kind: HealthAlertKind, _ subject: String?, _ message: String) {
            out.append(HealthAlert(kind: kind, subject: subject ?? "", since: time, message: message))
        }
        if displayDisconnected {
            for d in report.displays where d.state == "disconnected" {
                add(.displayDisconnected, "\(d.screen) \(d.connector)", "\(d.connector) of screen \(d.screen) is disconnected")
            }
        }
        for r in report.readings {
            switch r.name {
            case "free-space-share":
                if let limit = storageBelowPercent, let v = r.value, v < limit {
                    add(.storageLow, r.subject, "free space \(Self.shown(v)) % is below \(Self.shown(limit)) %")
                }
            case "temperature":
                if let limit = temperatureAboveCelsius, let v = r.value, v > limit {
                    add(.temperatureHigh, r.subject, "\(Self.shown(v)) °C is above \(Self.shown(limit)) °C")
                }
            case "content-age":
                if let limit = contentOlderThanHours, let v = r.value, v > limit * 3600 {
                    add(.contentStale, r.subject,
                        "the last good content check was \(Self.shown(v / 3600)) h ago, more than \(Self.shown(limit)) h")
                }
            case "frames-dropped":
                if let limit = framesDroppedPerHourAbove, let v = r.value, v > limit {
                    add(.framesDropped, r.subject, "\(Self.shown(v)) frames dropped in the last hour, more than \(Self.shown(limit))")
                }
            case "tv-power":
                // on its way to standby counts as standby: a TV answers `to-standby` for seconds after it was put
                // there, and often after it said `standby` (cec-follower does: standby, to-standby, standby), which
                // would clear the alert and raise it again while the TV stays off
                if tvStandby, r.text == "standby" || r.text == "to-standby", screenIsOn(r.subject, in: report) {
                    let state = r.text == "standby" ? "is in standby" : "is going to standby"
                    add(.tvStandby, r.subject, "the TV of screen \(r.subject ?? "?") \(state) while the screen is on")
                }
            default:
                break
            }
        }
        return out
    }

    /// Whether the player has `screen` on: its `screen-power` reading, `on` when there is none.
    private func screenIsOn(_ screen: String?, in report: HealthReport) -> Bool {
        report.readings.first { $0.name == "screen-power" && $0.subject == screen }.map { $0.text != "off" } ?? true
    }

    /// A number as an alert line shows it: whole, or with one decimal.
    static func shown(_ v: Double) -> String {
        let tenths = (v * 10).rounded() / 10
        return tenths == tenths.rounded() && abs(tenths) < 1e15
            ? String(Int(saturating: tenths, rounding: .towardZero)) : String(format: "%.1f", tenths)
    }
}

extension HealthAlertRules {
    /// The thresholds `o` sets, each checked: a bad value is one line naming its flag and why (`ConfigFile.locate`
    /// turns it into the `FILE:LINE` that set it).
    public init(_ o: ParsedOptions) throws(UsageError) {
        self.init()
        displayDisconnected = o.string("health-alert-display").map { $0 != "off" } ?? displayDisconnected
        tvStandby = o.string("health-alert-tv").map { $0 != "off" } ?? tvStandby
        storageBelowPercent = try Self.threshold(o, "health-alert-storage", storageBelowPercent, 0...100, "a percentage from 0 to 100")
        contentOlderThanHours = try Self.threshold(o, "health-alert-content-age", contentOlderThanHours, 0...87_600,
                                                   "a number of hours from 0 to 87600")
        temperatureAboveCelsius = try Self.threshold(o, "health-alert-temperature", temperatureAboveCelsius, -40...200,
                                                     "a temperature from -40 to 200 °C")
        framesDroppedPerHourAbove = try Self.threshold(o, "health-alert-frames-dropped", framesDroppedPerHourAbove, 0...1_000_000,
                                                       "a number of frames an hour from 0 to 1000000")
    }

    /// Option `name`'s threshold: `fallback` when not given, nil for `off`, else a number within `range`.
    private static func threshold(_ o: ParsedOptions, _ name: String, _ fallback: Double?, _ range: ClosedRange<Double>,
                                  _ what: String) throws(UsageError) -> Double? {
        guard let text = o.string(name) else { return fallback }
        if text.lowercased() == "off" { return nil }
        guard let v = Double(text.trimmingCharacters(in: .whitespaces)), range.contains(v) else {
            throw UsageError("--\(name): '\(ErrorQuote.cut(text))' is not \(what), or off")
        }
        return v
    }

    /// The thresholds as one line for the log (`storage below 10 %, content older than 24 h, …`).
    public var summary: String {
        func part(_ value: Double?, _ text: (String) -> String, _ name: String) -> String {
            value.map { text(Self.shown($0)) } ?? "\(name) off"
        }
        return [displayDisconnected ? "display disconnected" : "display off",
                tvStandby ? "TV in standby while the screen is on" : "TV off",
                part(storageBelowPercent, { "storage below \($0) %" }, "storage"),
                part(contentOlderThanHours, { "content older than \($0) h" }, "content age"),
                part(temperatureAboveCelsius, { "temperature above \($0) °C" }, "temperature"),
                part(framesDroppedPerHourAbove, { "more than \($0) frames dropped an hour" }, "frames dropped")].joined(separator: ", ")
    }
}

extension CommandSpecs {
    /// Health options of `kiosk play`: how often the health is read, and the alerts' thresholds.
    public static let health: [OptionSpec] = [
        OptionSpec("health-interval", .number(0.1...3600), metavar: "S", "read the health every S seconds (default 10)"),
        OptionSpec("health-alert-display", .choice(["on", "off"]), "alert while a display's connector is disconnected (default on)"),
        OptionSpec("health-alert-tv", .choice(["on", "off"]),
                   "alert while the TV is in standby (HDMI-CEC) and the player has the screen on (default on)"),
        OptionSpec("health-alert-storage", .text, metavar: "PCT|off",
                   "alert while free space where the cache, state or play log live is below PCT % (default 10)"),
        OptionSpec("health-alert-content-age", .text, metavar: "H|off",
                   "alert while the content source's last good check is older than H hours (default 24)"),
        OptionSpec("health-alert-temperature", .text, metavar: "C|off", "alert while a thermal zone is above C °C (default 80)"),
        OptionSpec("health-alert-frames-dropped", .text, metavar: "N|off",
                   "alert while more than N frames were dropped in the last hour (default 300)"),
    ]

    /// The config keys of `health` that take `off` (or `on`) as a value, not as a flag's state.
    public static let healthWordValued: Set<String> = Set(health.map(\.name).filter { $0.hasPrefix("health-alert-") })
}
