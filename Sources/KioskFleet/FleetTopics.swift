/// The topics of one kiosk: everything under `kiosk/ID/`, and its Home Assistant discovery configs. A screen after
/// the first of a kiosk with several (issue 40) has its own under `kiosk/ID/screen/NAME/`, and its own Home
/// Assistant device `ID_NAME`, linked to the kiosk's.
struct FleetTopics: Sendable {
    /// `kiosk/ID`, or `kiosk/ID/screen/NAME`.
    let base: String
    /// The ID Home Assistant's ids and device are made from: the kiosk's, or `ID_NAME` for a screen.
    let id: String
    /// For a screen: the kiosk's own ID (its Home Assistant device is the screen's `via_device`).
    let via: String?

    /// The topics of kiosk `id`, or of its screen `screen`.
    init(id: String, screen: String? = nil) {
        self.id = screen.map { "\(id)_\($0)" } ?? id
        via = screen == nil ? nil : id
        base = "kiosk/\(id)" + (screen.map { "/screen/\($0)" } ?? "")
    }

    /// Where commands arrive: `kiosk/ID/cmd/COMMAND`.
    var commandPrefix: String { base + "/cmd/" }
    /// The subscription for every command.
    var commands: String { base + "/cmd/#" }
    /// The retained state (JSON).
    var state: String { base + "/state" }
    /// `online` or `offline`, retained; `offline` is also the last will.
    var availability: String { base + "/availability" }
    /// Items started and ended (JSON, not retained).
    var event: String { base + "/event" }
    /// JPEG pictures of the screen, on request (retained: the last one is there for a controller that starts later).
    var camera: String { base + "/camera" }
    /// Today's figures from the play log (JSON, retained): on connecting, at each hour, and on request.
    var stats: String { base + "/stats" }
    /// The health report with its alerts (JSON, retained; the kiosk's only).
    var health: String { base + "/health" }
    /// Each health alert raised or cleared (JSON, not retained).
    var healthAlert: String { base + "/health/alert" }

    /// The command a topic names, or nil when the topic is not one of this kiosk's commands.
    func command(in topic: String) -> String? {
        guard topic.hasPrefix(commandPrefix) else { return nil }
        return String(topic.dropFirst(commandPrefix.count))
    }

    /// Home Assistant's discovery topic for one entity: `homeassistant/COMPONENT/ID_NAME/config`.
    func discovery(_ component: String, _ name: String) -> String {
        "homeassistant/\(component)/\(id)_\(name)/config"
    }
}
