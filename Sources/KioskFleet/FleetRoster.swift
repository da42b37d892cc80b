import Foundation
import KioskCore

/// One kiosk (or one screen of a kiosk with several) as the broker's retained messages tell of it: whether it is
/// online (`kiosk/ID/availability`, `offline` being also its last will) and its latest health report
/// (`kiosk/ID/health`: the `HealthReport` JSON with its `alerts`), with the figures `kiosk fleet` shows.
public struct FleetRosterEntry: Sendable, Equatable {
    /// The kiosk's ID (`lobby`), or `ID/NAME` for a screen with topics of its own (`kiosk/ID/screen/NAME/…`).
    public var id: String
    /// `online`, `offline`, or nil when the broker holds no availability for it.
    public var availability: String?
    /// The retained health report, as parsed; nil when there is none (or it was not JSON: see `problem`).
    public var health: JSONValue?
    /// Why the health message could not be read, when it could not.
    public var problem: String?

    /// An entry with nothing known yet.
    public init(id: String, availability: String? = nil, health: JSONValue? = nil, problem: String? = nil) {
        self.id = id
        self.availability = availability
        self.health = health
        self.problem = problem
    }

    /// `online`, `offline` or `unknown`.
    public var state: String { availability.map { $0 == "online" || $0 == "offline" ? $0 : "unknown" } ?? "unknown" }
    /// When its health report was read (its `time`).
    public var reportTime: Date? { health?["time"]?.string.flatMap(PlayReportQuery.instant) }
    /// The active alerts (`alerts` of the report), each an object with `kind`, `subject`, `since`, `message`.
    public var alerts: [JSONValue] {
        guard case .array(let list)? = health?["alerts"] else { return [] }
        return list
    }
    /// The kinds of its active alerts, each once, in their order.
    public var alertKinds: [String] {
        var kinds: [String] = []
        for a in alerts { let k = a["kind"]?.string ?? "?"; if !kinds.contains(k) { kinds.append(k) } }
        return kinds
    }
    /// The highest temperature read, in °C.
    public var temperature: Double? { numbers("temperature").max() }
    /// The folder with the least free space: its share free (%) and its bytes free.
    public var freeSpace: (share: Double, bytes: Double?)? {
        let shares = readings("free-space-share").compactMap { r in r["value"]?.number.map { (r["subject"]?.string, $0) } }
        guard let least = shares.min(by: { $0.1 < $1.1 }) else { return nil }
        let bytes = readings("free-space").first { $0["subject"]?.string == least.0 }?["value"]?.number
        return (least.1, bytes)
    }
    /// Frames dropped in the last hour, all its screens together.
    public var framesDropped: Double? {
        let all = numbers("frames-dropped")
        return all.isEmpty ? nil : all.reduce(0, +)
    }

    /// Its readings named `name`.
    private func readings(_ name: String) -> [JSONValue] {
        guard case .array(let list)? = health?["readings"] else { return [] }
        return list.filter { $0["name"]?.string == name }
    }

    /// The numbers of its readings named `name` (texts left out).
    private func numbers(_ name: String) -> [Double] { readings(name).compactMap { $0["value"]?.number } }
}

/// Every kiosk on a broker, in the order `kiosk fleet` lists them: those that went offline first, then those with
/// active alerts, then the rest, each group by ID. Printed as a table for a person or as JSON.
public struct FleetRoster: Sendable {
    /// The entries, in that order.
    public let entries: [FleetRosterEntry]
    /// The broker, `HOST:PORT`.
    public let broker: String

    /// The roster of `entries` read from `broker`, put in order.
    public init(_ entries: [FleetRosterEntry], broker: String) {
        self.broker = broker
        self.entries = entries.sorted { a, b in
            let (ra, rb) = (Self.rank(a), Self.rank(b))
            return ra != rb ? ra < rb : a.id < b.id
        }
    }

    /// 0: offline, 1: with alerts, 2: the rest.
    private static func rank(_ e: FleetRosterEntry) -> Int { e.state == "offline" ? 0 : e.alerts.isEmpty ? 2 : 1 }

    /// The table, one line per kiosk, at `now`:
    ///
    ///     ID     STATE    REPORT     TEMP     FREE              DROPPED  ALERTS
    ///     hall   offline  2 h ago    —        —                 —        none
    ///     lobby  online   8 s ago    71.5 °C  12 % (3.1 GiB)    0/h      1: tv-off
    public func table(now: Date) -> String {
        guard !entries.isEmpty else { return "no kiosks on \(broker) (no retained kiosk/ID/availability or kiosk/ID/health)\n" }
        var rows = [["ID", "STATE", "REPORT", "TEMP", "FREE", "DROPPED", "ALERTS"]]
        for e in entries {
            let report = e.problem.map { "unreadable: \($0)" } ?? e.reportTime.map { Self.age(now.timeIntervalSince($0)) + " ago" } ?? "no report"
            let free = e.freeSpace.map { f in Self.number(f.share) + " %" + (f.bytes.map { " (" + Self.bytes($0) + ")" } ?? "") } ?? "—"
            let alerts = e.alerts.isEmpty ? "none" : "\(e.alerts.count): " + e.alertKinds.joined(separator: ", ")
            rows.append([e.id, e.state, report, e.temperature.map { Self.number($0) + " °C" } ?? "—", free,
                         e.framesDropped.map { Self.number($0) + "/h" } ?? "—", alerts].map(Log.escaped))
        }
        let widths = (0..<7).map { i in rows.map { $0[i].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(toLength: widths[i] + 2, withPad: " ", startingAt: 0) }
                .joined()
        }.joined(separator: "\n") + "\n"
    }

    /// The same as JSON: `broker`, `read_at`, and `kiosks`, each with `id`, `state`, `report_time`, `report_age_s`,
    /// `temperature_c`, `free_space_share`, `free_space_bytes`, `frames_dropped_per_hour`, `alert_count`,
    /// `alert_kinds`, `alerts` (as the kiosk published them) and `problem`; null for what is not known.
    public func json(now: Date) -> JSONValue {
        func number(_ d: Double?) -> JSONValue { d.map { $0 == $0.rounded() && abs($0) < 9e15 ? .int(Int64(Int(saturating: $0, rounding: .towardZero))) : .double($0) } ?? .null }
        let kiosks: [JSONValue] = entries.map { e in
            let time = e.reportTime
            return .object([
                ("id", .string(e.id)), ("state", .string(e.state)),
                ("report_time", time.map { .string(PlayReportQuery.text($0)) } ?? .null),
                ("report_age_s", number(time.map { max(0, now.timeIntervalSince($0)).rounded() })),
                ("temperature_c", number(e.temperature)), ("free_space_share", number(e.freeSpace?.share)),
                ("free_space_bytes", number(e.freeSpace?.bytes)), ("frames_dropped_per_hour", number(e.framesDropped)),
                ("alert_count", .int(Int64(e.alerts.count))), ("alert_kinds", .array(e.alertKinds.map { .string($0) })),
                ("alerts", .array(e.alerts)), ("problem", e.problem.map { .string($0) } ?? .null),
            ])
        }
        return .object([("broker", .string(broker)), ("read_at", .string(PlayReportQuery.text(now))), ("kiosks", .array(kiosks))])
    }

    /// An age for a person: `42 s`, `5 min`, `3 h 20 min`, `2 d 4 h`.
    static func age(_ seconds: Double) -> String {
        let s = Int(saturating: max(0, seconds), rounding: .towardZero)
        switch s {
        case ..<60: return "\(s) s"
        case ..<3600: return "\(s / 60) min"
        case ..<86_400: return "\(s / 3600) h \(s / 60 % 60) min"
        default: return "\(s / 86_400) d \(s / 3600 % 24) h"
        }
    }

    /// A number with at most one decimal (`71.5`, `12`).
    private static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(saturating: d, rounding: .towardZero)) : String(format: "%.1f", d)
    }

    /// Bytes in KiB, MiB, GiB or TiB.
    private static func bytes(_ d: Double) -> String {
        for (size, name) in [(1_099_511_627_776.0, "TiB"), (1_073_741_824.0, "GiB"), (1_048_576.0, "MiB"), (1024.0, "KiB")] where d >= size {
            return String(format: "%.1f %@", d / size, name)
        }
        return String(format: "%.0f bytes", d)
    }
}
