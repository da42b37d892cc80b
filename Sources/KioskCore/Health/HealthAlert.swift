import Foundation

/// What a health alert is about. Not the emergency alert (`EmergencyAlert`, shown over the screen): a health alert
/// tells the people who run the screens that one needs them.
public enum HealthAlertKind: String, Sendable, CaseIterable {
    /// A display's connector reads `disconnected` (a cable out, a monitor unplugged).
    case displayDisconnected = "display-disconnected"
    /// The TV reports standby over HDMI-CEC while the player has the screen on (its opening hours).
    case tvStandby = "tv-standby"
    /// Free space where the cache, state or play log live is below the threshold.
    case storageLow = "storage-low"
    /// The content source's last good check is older than the threshold.
    case contentStale = "content-stale"
    /// A thermal zone is hotter than the threshold.
    case temperatureHigh = "temperature-high"
    /// More frames were dropped in the last hour than the threshold.
    case framesDropped = "frames-dropped"

    /// Seconds its condition must stay gone before the alert is cleared: a TV's power status passes through
    /// standby and `to-on` on its way back (cec-follower in the VM said on, standby, to-on, on within seconds), and
    /// an alert cleared at the first `on` was raised and cleared again. Other conditions clear at once.
    public var clearAfter: Double { self == .tvStandby ? 5 : 0 }

    /// A short title for a person (Home Assistant's entity names).
    public var title: String {
        switch self {
        case .displayDisconnected: return "Display disconnected"
        case .tvStandby: return "TV off in opening hours"
        case .storageLow: return "Storage low"
        case .contentStale: return "Content stale"
        case .temperatureHigh: return "Temperature high"
        case .framesDropped: return "Frames dropped"
        }
    }
}

/// One health alert that holds: what it is about, since when, and what was read.
public struct HealthAlert: Sendable, Equatable {
    /// What it is about.
    public var kind: HealthAlertKind
    /// What it was read of: a screen (`main`), a display (`main HDMI-A-1`), a folder (`cache /var/lib/kiosk/content`),
    /// a thermal zone (`thermal_zone0 cpu-thermal`).
    public var subject: String
    /// When it was raised (the round that first saw it).
    public var since: WallInstant
    /// One line for a person, with the value read and the threshold (the latest round's).
    public var message: String

    /// An alert.
    public init(kind: HealthAlertKind, subject: String, since: WallInstant, message: String) {
        self.kind = kind
        self.subject = subject
        self.since = since
        self.message = message
    }

    /// What makes an alert the same one from round to round: its kind and subject.
    public var key: String { kind.rawValue + "\u{1F}" + subject }

    /// `{"kind", "subject", "since" (ISO 8601 UTC), "message"}`.
    public var json: JSONValue {
        .object([("kind", .string(kind.rawValue)), ("subject", .string(subject)),
                 ("since", .string(PlayReportQuery.text(since.date))), ("message", .string(message))])
    }
}

/// An alert raised (its condition began) or cleared (it ended): said once each, in the log, on IPC and on MQTT.
public struct HealthAlertChange: Sendable, Equatable {
    /// Which way it changed.
    public enum Edge: String, Sendable {
        /// The condition began.
        case raised
        /// The condition ended.
        case cleared
    }

    /// Raised or cleared.
    public var edge: Edge
    /// The alert (when cleared: as it was last read).
    public var alert: HealthAlert
    /// The round that saw the change.
    public var time: WallInstant

    /// A change.
    public init(_ edge: Edge, _ alert: HealthAlert, at time: WallInstant) {
        self.edge = edge
        self.alert = alert
        self.time = time
    }

    /// The alert's members with `state` (`raised` or `cleared`) first and the change's `time` last.
    public var json: JSONValue {
        guard case .object(let members) = alert.json else { return alert.json }
        return .object([("state", .string(edge.rawValue))] + members + [("time", .string(PlayReportQuery.text(time.date)))])
    }

    /// The log line: `health: raised storage-low (cache /srv): free space 4 % is below 10 %`, or
    /// `health: cleared storage-low (cache /srv) after 35 s`.
    public var line: String {
        let what = "\(alert.kind.rawValue) (\(alert.subject))"
        switch edge {
        case .raised: return "health: raised \(what): \(alert.message)"
        case .cleared:
            let seconds = Int(saturating: max(0, time.secondsSince1970 - alert.since.secondsSince1970), rounding: .towardZero)
            return "health: cleared \(what) after \(seconds) s"
        }
    }
}

/// The alerts that hold, kept from round to round: each raised once when its condition begins and cleared once
/// when it ends, never repeated while it lasts (an alert is the same one while its kind and subject are). Fed one
/// report per round; its clock is the reports' times, so a test drives it with made reports.
public struct HealthAlertTracker: Sendable {
    /// The thresholds. Changed between rounds (a reloaded config: SIGHUP), the next round judges by the new ones:
    /// an alert they no longer raise is cleared as one whose condition ended, one they now raise is raised.
    public var rules: HealthAlertRules
    /// The alerts that hold now, in the order they were raised.
    public private(set) var active: [HealthAlert] = []
    /// Since when each active alert's condition has been gone (`HealthAlertKind.clearAfter`), by key.
    private var goneSince: [String: WallInstant] = [:]

    /// A tracker with no alert yet.
    public init(rules: HealthAlertRules) {
        self.rules = rules
    }

    /// Reads one round's `report`: the alerts that ended are cleared, the new ones raised (in that order); the
    /// ones that go on keep their `since` and take the latest message.
    public mutating func update(with report: HealthReport) -> [HealthAlertChange] {
        var now: [String: HealthAlert] = [:]
        var order: [String] = []
        for alert in rules.alerts(in: report) where now[alert.key] == nil {
            now[alert.key] = alert
            order.append(alert.key)
        }
        var changes: [HealthAlertChange] = []
        var kept: [HealthAlert] = []
        for old in active {
            if let current = now[old.key] {
                var going = old
                going.message = current.message
                kept.append(going)
                goneSince[old.key] = nil
            } else {
                let gone = goneSince[old.key] ?? report.time
                if report.time.secondsSince1970 - gone.secondsSince1970 >= old.kind.clearAfter {
                    changes.append(HealthAlertChange(.cleared, old, at: report.time))
                    goneSince[old.key] = nil
                } else {
                    goneSince[old.key] = gone  // held until its condition has stayed gone long enough
                    kept.append(old)
                }
            }
        }
        let held = Set(active.map(\.key))
        for key in order where !held.contains(key) {
            guard let alert = now[key] else { continue }
            kept.append(alert)
            changes.append(HealthAlertChange(.raised, alert, at: report.time))
        }
        active = kept
        return changes
    }
}
