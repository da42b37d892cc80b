import KioskCore

/// Home Assistant's MQTT discovery for one kiosk: a retained config per entity under
/// `homeassistant/COMPONENT/ID_NAME/config`, each with the kiosk's availability topic, a unique id and the same
/// device block, so Home Assistant shows one device with these entities:
/// switches `paused` and `screen`, buttons `next`, `previous` and `snapshot`, a number `volume` (0–100), a select
/// `playlist` (the schedule's targets; only with a schedule), a sensor `current item` (the state as its
/// attributes), a camera (the JPEGs `snapshot` publishes), the emergency alert's text with a button that
/// clears it, and the content fetcher's last check (a sensor, the status as its attributes) with a button that
/// checks now; and the health report's sensors and `problem` binary sensors (`HomeAssistantHealthDiscovery.swift`).
enum HomeAssistantDiscovery {
    /// One entity's config: where it goes and what it says.
    struct Config {
        /// `homeassistant/COMPONENT/ID_NAME/config`.
        let topic: String
        /// The JSON.
        let json: JSONValue
    }

    /// The configs for kiosk `topics.id`; `playlists` are the select's options (none: no select).
    static func configs(_ topics: FleetTopics, playlists: [String]) -> [Config] {
        let device: JSONValue = .object([
            ("identifiers", .array([.string("kiosk_\(topics.id)")])),
            ("name", .string("kiosk \(topics.id)")),
            ("manufacturer", .string("kiosk")),
            ("model", .string("kiosk slideshow player")),
        ] + (topics.via.map { [("via_device", .string("kiosk_\($0)"))] } ?? []))  // a screen: through its kiosk
        func entity(_ component: String, _ name: String, _ title: String, _ members: [(String, JSONValue)]) -> Config {
            let common: [(String, JSONValue)] = [
                ("name", .string(title)),
                ("unique_id", .string("kiosk_\(topics.id)_\(name)")),
                ("object_id", .string("kiosk_\(topics.id)_\(name)")),
                ("availability_topic", .string(topics.availability)),
                ("payload_available", .string("online")),
                ("payload_not_available", .string("offline")),
                ("device", device),
            ]
            return Config(topic: topics.discovery(component, name), json: .object(common + members))
        }
        func command(_ name: String) -> JSONValue { .string(topics.commandPrefix + name) }
        let state: JSONValue = .string(topics.state)
        var out = [
            entity("switch", "paused", "Paused", [
                ("command_topic", command("pause")), ("state_topic", state),
                ("value_template", .string("{{ 'on' if value_json.paused else 'off' }}")),
                ("payload_on", .string("on")), ("payload_off", .string("off")),
                ("state_on", .string("on")), ("state_off", .string("off")), ("qos", .int(1)), ("icon", .string("mdi:pause")),
            ]),
            entity("switch", "screen", "Screen", [
                ("command_topic", command("screen")), ("state_topic", state),
                ("value_template", .string("{{ value_json.screen }}")),
                ("payload_on", .string("on")), ("payload_off", .string("off")),
                ("state_on", .string("on")), ("state_off", .string("off")), ("qos", .int(1)), ("icon", .string("mdi:monitor")),
            ]),
            entity("button", "next", "Next", [("command_topic", command("next")),
                                               ("qos", .int(1)), ("icon", .string("mdi:skip-next"))]),
            entity("button", "previous", "Previous", [("command_topic", command("previous")),
                                                       ("qos", .int(1)), ("icon", .string("mdi:skip-previous"))]),
            entity("button", "snapshot", "Snapshot", [("command_topic", command("snapshot")),
                                                       ("qos", .int(1)), ("icon", .string("mdi:camera"))]),
            entity("number", "volume", "Volume", [
                ("command_topic", command("volume")), ("state_topic", state),
                ("value_template", .string("{{ value_json.volume }}")),
                ("min", .int(0)), ("max", .int(100)), ("step", .int(1)), ("mode", .string("slider")),
                ("qos", .int(1)), ("icon", .string("mdi:volume-high")),
            ]),
            entity("sensor", "current_item", "Current item", [
                ("state_topic", state), ("value_template", .string("{{ value_json.item }}")),
                ("json_attributes_topic", state), ("icon", .string("mdi:image")),
            ]),
            entity("camera", "screen_camera", "Screen", [("topic", .string(topics.camera))]),
            // the play log's showings today (empty without a play log)
            entity("sensor", "showings_today", "Showings today", [
                ("state_topic", state), ("value_template", .string("{{ value_json.showings_today }}")),
                ("icon", .string("mdi:counter")),
            ]),
            // the TV's power as HDMI-CEC reports it (on, standby, to-on, to-standby, unknown; empty without CEC)
            entity("sensor", "tv_power", "TV power", [
                ("state_topic", state), ("value_template", .string("{{ value_json.cec_power or '' }}")),
                ("icon", .string("mdi:television")),
            ]),
            // the content fetcher (`kiosk play URL`): the last check's result with the whole status as attributes
            // (empty while kiosk plays local files), and a button that checks the URL now
            entity("sensor", "content", "Content", [
                ("state_topic", state), ("value_template", .string("{{ value_json.content.result if value_json.content else '' }}")),
                ("json_attributes_topic", state), ("json_attributes_template", .string("{{ (value_json.content or {}) | tojson }}")),
                ("icon", .string("mdi:cloud-download")),
            ]),
            entity("button", "check_content", "Check content", [("command_topic", command("check-content")),
                                                                 ("qos", .int(1)), ("icon", .string("mdi:cloud-refresh"))]),
            // the emergency alert: the text shown over everything (empty: none), and a button that clears it
            entity("text", "alert", "Alert", [
                ("command_topic", command("alert")), ("state_topic", state),
                ("value_template", .string("{{ value_json.alert or '' }}")), ("min", .int(0)), ("max", .int(255)),
                ("mode", .string("text")), ("qos", .int(1)), ("icon", .string("mdi:alert")),
            ]),
            entity("button", "clear_alert", "Clear alert", [("command_topic", command("alert")),
                                                             ("payload_press", .string("{\"clear\": true}")),
                                                             ("qos", .int(1)), ("icon", .string("mdi:alert-remove"))]),
        ]
        if topics.via == nil { out += healthConfigs(topics, entity: entity) }  // the report is the machine's: the kiosk's device
        if !playlists.isEmpty {
            out.append(entity("select", "playlist", "Playlist", [
                ("command_topic", command("playlist")), ("state_topic", state),
                ("value_template", .string("{{ value_json.playlist }}")),
                ("options", .array(playlists.map { .string($0) })), ("qos", .int(1)), ("icon", .string("mdi:playlist-play")),
            ]))
        }
        return out
    }
}
