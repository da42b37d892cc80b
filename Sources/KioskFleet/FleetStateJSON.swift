import Foundation
import KioskCore

/// What the fleet knows beyond the player's board: which schedule target plays, and how many commands arrived and
/// were done (a controller can count its commands against them).
struct FleetCounters: Sendable, Equatable {
    /// The name of the schedule target that plays (the schedule's or one a `playlist` command chose), if any.
    var playlist: String?
    /// Messages received on command topics.
    var received = 0
    /// Commands the player has done.
    var applied = 0
}

/// The JSON of `kiosk/ID/state` and `kiosk/ID/event`. The state leaves out what changes every frame (the time
/// position), so it is published only when something a controller cares about changed.
enum FleetStateJSON {
    /// The state: the item on screen, the playlist's size, pause, sound, screen, the layout's regions, the content
    /// fetcher and the fleet's counters.
    static func state(_ s: PlayerStatus, _ counters: FleetCounters) -> JSONValue {
        let current = s.current
        let name = current.map { $0.title ?? ($0.path as NSString).lastPathComponent }
        return .object([
            ("item", .string(name ?? "")),
            ("path", current.map { .string($0.path) } ?? .null),
            ("title", current?.title.map { .string($0) } ?? .null),
            ("index", s.currentPosition.map { .int(Int64($0)) } ?? .null),
            ("count", .int(Int64(s.playlist.count))),
            ("kind", s.itemKind.map { .string($0) } ?? .null),
            ("paused", .bool(!s.pauseReasons.isDisjoint(with: [.user, .remote]))),
            ("pause_reasons", .array(s.pauseReasons.sorted().map { .string($0.rawValue) })),
            ("idle", .bool(s.idle)),
            ("volume", .int(Int64(s.volume))),
            ("muted", .bool(s.mute)),
            ("screen", .string(s.screenOn ? "on" : "off")),
            ("playlist", counters.playlist.map { .string($0) } ?? .null),
            ("view", .object([("zoom", .double(s.view.zoom)), ("x", .double(s.view.centerX)), ("y", .double(s.view.centerY)),
                              ("yaw", .double(s.view.yaw)), ("pitch", .double(s.view.pitch)), ("roll", .double(s.view.roll)),
                              ("fov", .double(s.view.fov))])),
            ("width", .int(Int64(s.displayWidth))),
            ("height", .int(Int64(s.displayHeight))),
            // a SMIL layout playing: its file, and what each region shows (not how far in: that changes every frame)
            ("layout", s.layout.map { .string($0) } ?? .null),
            ("alert", s.alert.map { .string($0.text) } ?? .null),
            // the content fetcher (`kiosk play URL`): its URL, last check and result, the cache's use (null: none)
            ("content", s.content.map { .object($0.members(keys: .underscores)) } ?? .null),
            ("cec_power", s.tvPower.map { .string($0.rawValue) } ?? .null),
            ("showings_today", s.playStats.map { .int(Int64($0.showings)) } ?? .null),
            ("regions", .array(s.regions.map { r in
                .object([("name", .string(r.name)), ("src", r.src.map { .string($0) } ?? .null),
                         ("path", r.path.map { .string($0) } ?? .null)])
            })),
            ("commands_received", .int(Int64(counters.received))),
            ("commands_applied", .int(Int64(counters.applied))),
        ])
    }

    /// The event line for a player event, for the ones a fleet hears of (items starting and ending, a layout's
    /// triggers and interrupts).
    static func event(_ e: PlayerEvent) -> JSONValue? {
        switch e {
        case .itemStarted(let id, let path, _):
            return .object([("event", .string("item-started")), ("id", .int(Int64(id.value))), ("path", .string(path))])
        case .itemEnded(let id, let path, let reason):
            return .object([("event", .string("item-ended")), ("id", .int(Int64(id.value))), ("path", .string(path)),
                            ("reason", .string(reason.rawValue))])
        case .itemFailed(let id, let path, let reason):
            return .object([("event", .string("item-failed")), ("id", .int(Int64(id.value))), ("path", .string(path)),
                            ("reason", .string(reason))])
        case .triggered(let what):
            return .object([("event", .string("trigger")), ("trigger", .string(what))])
        case .interrupt(let started, let region, let src):
            return .object([("event", .string(started ? "interrupt-started" : "interrupt-ended")), ("region", .string(region)),
                            ("src", .string(src))])
        default:
            return nil
        }
    }
}
