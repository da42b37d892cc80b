/// The topics of one kiosk: everything under `kiosk/ID/`, and its Home Assistant discovery configs.
struct FleetTopics: Sendable {
    /// `kiosk/ID`.
    let base: String
    /// This kiosk's ID.
    let id: String

    /// The topics of kiosk `id`.
    init(id: String) {
        self.id = id
        base = "kiosk/\(id)"
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
