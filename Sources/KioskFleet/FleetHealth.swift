import KioskCore

/// The health monitor's report on MQTT (issue 41): the report (`HealthReport.json`: `time`, `readings`, `displays`,
/// `alerts`) retained on `kiosk/ID/health` whenever a round changed it (a round every `--health-interval`, 10 s by
/// default), and each health alert raised or cleared, not retained, on `kiosk/ID/health/alert`. Only the kiosk's own
/// client publishes them (a further screen's has the same report, machine-wide). Used on the fleet's thread only.
struct FleetHealth {
    /// Whether this client publishes the health (the kiosk's, not a further screen's).
    let publishes: Bool
    /// The report last published (its JSON text); nil: none since the last connection.
    private var published: String?

    /// For the client of `topics`: a further screen's (`topics.via` set) publishes nothing.
    init(_ topics: FleetTopics) {
        publishes = topics.via == nil
    }

    /// After a (re)connection: the next report is published whatever it is.
    mutating func reconnected() { published = nil }

    /// Publishes `status`'s report when it differs from the last one published (retained).
    mutating func publish(_ status: PlayerStatus, on topics: FleetTopics, through connection: BrokerConnection) {
        guard publishes, let report = status.health else { return }
        let text = report.json.text
        guard text != published else { return }
        if connection.publish(topics.health, Array(text.utf8), retain: true) != nil { published = text }
    }

    /// Publishes one alert's change (not retained): `{"state": "raised"|"cleared", "kind", "subject", "since",
    /// "message", "time"}`.
    func publish(_ change: HealthAlertChange, on topics: FleetTopics, through connection: BrokerConnection) {
        guard publishes else { return }
        _ = connection.publish(topics.healthAlert, Array(change.json.text.utf8), retain: false)
    }
}
