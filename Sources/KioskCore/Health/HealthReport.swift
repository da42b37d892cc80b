import Foundation

/// One health reading: what was read, its value and unit, and when it was read. A value is a number (`value`) or,
/// for what is not a number (a connector's state, a monitor's name, throttling flags), a text (`text`).
public struct HealthReading: Sendable, Equatable {
    /// What was read, in kebab case (`temperature`, `cpu-process`, `free-space`).
    public var name: String
    /// What it was read of, if more than one thing gives the reading (`cpu-thermal`, `cache /var/lib/kiosk`).
    public var subject: String?
    /// The number read; nil for a text reading.
    public var value: Double?
    /// The text read; nil for a number.
    public var text: String?
    /// The number's unit (`°C`, `%`, `bytes`, `s`, `count`); empty for a text.
    public var unit: String
    /// When it was read (wall clock).
    public var time: WallInstant
    /// Why the value is what it is, where it needs saying (`no CEC adapter` for a TV power of `unknown`); nil mostly.
    public var note: String?

    /// A number reading.
    public init(_ name: String, subject: String? = nil, value: Double, unit: String, time: WallInstant) {
        self.name = name
        self.subject = subject
        self.value = value
        self.unit = unit
        self.time = time
    }

    /// A text reading.
    public init(_ name: String, subject: String? = nil, text: String, time: WallInstant) {
        self.name = name
        self.subject = subject
        self.text = text
        self.unit = ""
        self.time = time
    }

    /// The reading as JSON: `name`, `subject` (when given), `value` (number or text), `unit`, `time` (ISO 8601 UTC),
    /// `note` (when given).
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(name))]
        if let subject { members.append(("subject", .string(subject))) }
        // whole numbers as JSON integers (bytes, counts), others as doubles
        let number: JSONValue? = value.map { v in v == v.rounded() && abs(v) < 9e15 ? .int(Int64(Int(saturating: v, rounding: .towardZero))) : .double(v) }
        members.append(("value", number ?? text.map { .string($0) } ?? .null))
        members += [("unit", .string(unit)), ("time", .string(PlayReportQuery.text(time.date)))]
        if let note { members.append(("note", .string(note))) }
        return .object(members)
    }
}

/// One display of one screen: its connector's state and the monitor's identity from its EDID.
public struct DisplayHealth: Sendable, Equatable {
    /// The screen that drives it (`main`, or a `--screen` name).
    public var screen: String
    /// The connector (`HDMI-A-1`), or the output's name where it has no connector (`headless`).
    public var connector: String
    /// `connected`, `disconnected`, `unknown`, or `none` for an output without a display (headless).
    public var state: String
    /// The monitor, from its EDID; nil when there is no EDID (no display, or an output without one).
    public var monitor: EDIDIdentity?
    /// Why there is no EDID identity, when there is none.
    public var note: String?
    /// When it was read.
    public var time: WallInstant

    /// A display entry.
    public init(screen: String, connector: String, state: String, monitor: EDIDIdentity? = nil, note: String? = nil, time: WallInstant) {
        self.screen = screen
        self.connector = connector
        self.state = state
        self.monitor = monitor
        self.note = note
        self.time = time
    }

    /// The entry as JSON.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("screen", .string(screen)), ("connector", .string(connector)), ("state", .string(state))]
        if let m = monitor {
            members.append(("monitor", .object([
                ("manufacturer", .string(m.manufacturer)), ("product", .int(Int64(m.productCode))),
                ("serial", .int(Int64(m.serialNumber))), ("serial-text", m.serialText.map { .string($0) } ?? .null),
                ("name", m.name.map { .string($0) } ?? .null),
            ])))
        }
        if let note { members.append(("note", .string(note))) }
        members.append(("time", .string(PlayReportQuery.text(time.date))))
        return .object(members)
    }
}

/// Everything the health monitor read in one round: the machine's readings, each screen's, and each display.
/// IPC's `kiosk-health` and MQTT's `kiosk/ID/health` serialise it (`json`); the web page can read the same value.
public struct HealthReport: Sendable, Equatable {
    /// When the round began.
    public var time: WallInstant
    /// The readings, machine first, then per screen (their `subject` names the screen).
    public var readings: [HealthReading]
    /// The displays, one per connector of each screen.
    public var displays: [DisplayHealth]
    /// The health alerts that hold after this round (`HealthAlertTracker`), in the order they were raised.
    public var alerts: [HealthAlert]

    /// A report.
    public init(time: WallInstant, readings: [HealthReading] = [], displays: [DisplayHealth] = [], alerts: [HealthAlert] = []) {
        self.time = time
        self.readings = readings
        self.displays = displays
        self.alerts = alerts
    }

    /// The first reading named `name` (with `subject`, when given).
    public func reading(_ name: String, subject: String? = nil) -> HealthReading? {
        readings.first { $0.name == name && (subject == nil || $0.subject == subject) }
    }

    /// The report as JSON: `time`, `readings`, `displays` and `alerts` (what IPC's `kiosk-health` and MQTT's
    /// `kiosk/ID/health` carry).
    public var json: JSONValue {
        .object([("time", .string(PlayReportQuery.text(time.date))), ("readings", .array(readings.map(\.json))),
                 ("displays", .array(displays.map(\.json))), ("alerts", .array(alerts.map(\.json)))])
    }
}
