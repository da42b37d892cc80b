import KioskCore

/// The player's events as mpv's IPC events, and a client's observed properties.
enum MPVEvents {
    /// The mpv events one player event becomes, in order (names and fields as mpv sends them).
    static func events(for event: PlayerEvent) -> [JSONValue] {
        switch event {
        case .itemStarted(let id, _, _):
            return [.object([("event", .string("start-file")), ("playlist_entry_id", .int(MPVPropertyTable.mpvID(id)))]),
                    .object([("event", .string("file-loaded"))]),
                    .object([("event", .string("video-reconfig"))]),  // a new picture: new video parameters
                    .object([("event", .string("playback-restart"))])]
        case .itemEnded(let id, _, let reason):
            return [endFile(id, reason: mpvReason(reason))]
        case .itemFailed(let id, _, _):
            return [.object([("event", .string("start-file")), ("playlist_entry_id", .int(MPVPropertyTable.mpvID(id)))]),
                    endFile(id, reason: "error", error: MPVError.loadingFailed.text)]
        case .idle:
            return [.object([("event", .string("idle"))])]
        case .seeked:
            return [.object([("event", .string("seek"))]), .object([("event", .string("playback-restart"))])]
        case .shutdown:
            return [.object([("event", .string("shutdown"))])]
        case .playlistChanged, .pauseChanged, .screenPower, .regionShowing, .tvPower, .alert:
            return []  // seen through property-change (playlist, playlist-count, pause, kiosk-screen)
        case .triggered(let what):
            return [.object([("event", .string("kiosk-trigger")), ("trigger", .string(what))])]
        case .interrupt(let started, let region, let src):
            return [.object([("event", .string(started ? "kiosk-interrupt-start" : "kiosk-interrupt-end")),
                             ("region", .string(region)), ("src", .string(src))])]
        case .healthAlert(let change):
            // {"event": "kiosk-health-alert", "state": "raised"|"cleared", "kind", "subject", "since", "message", "time"}
            guard case .object(let members) = change.json else { return [] }
            return [.object([("event", .string("kiosk-health-alert"))] + members)]
        }
    }

    /// Every event name kiosk sends (for enable_event / disable_event).
    static let names: Set<String> = ["start-file", "file-loaded", "video-reconfig", "playback-restart", "end-file", "idle", "seek",
                                     "shutdown", "property-change", "client-message", "log-message", "kiosk-trigger",
                                     "kiosk-interrupt-start", "kiosk-interrupt-end", "kiosk-health-alert"]

    private static func endFile(_ id: ItemID, reason: String, error: String? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("event", .string("end-file")), ("reason", .string(reason)),
                                              ("playlist_entry_id", .int(MPVPropertyTable.mpvID(id)))]
        if let error { members.append(("file_error", .string(error))) }
        return .object(members)
    }

    /// mpv's end-file reasons: eof, stop (skipped, removed), quit, error (redirect is for URLs kiosk never opens).
    static func mpvReason(_ reason: EndReason) -> String {
        switch reason {
        case .eof: return "eof"
        case .skipped, .removed: return "stop"
        case .error: return "error"
        case .quit: return "quit"
        }
    }

    /// A property-change event; no `data` while the property has no value.
    static func propertyChange(id: JSONValue, name: String, value: JSONValue?) -> JSONValue {
        var members: [(String, JSONValue)] = [("event", .string("property-change")), ("id", id), ("name", .string(name))]
        if let value { members.append(("data", value)) }
        return .object(members)
    }

    /// A value as `get_property_string` and `observe_property_string` give it (mpv's formatting: flags as
    /// yes/no, doubles with six decimals).
    static func string(_ v: JSONValue) -> String {
        switch v {
        case .bool(let b): return b ? "yes" : "no"
        case .string(let s): return s
        case .null: return ""
        default: return v.text
        }
    }
}
