import Foundation
import KioskCore

/// `GET /api/status`: what plays now and next (in each region while a layout plays), the controls' state, the
/// screen and the TV, the content fetcher (`kiosk play URL`), today's showings, and the health monitor's latest
/// report (`health`: `HealthReport.json`, with its alerts where they run; null before the first round).
enum WebStatusJSON {
    static func status(_ s: PlayerStatus) -> JSONValue {
        let current = s.current
        var next: String?
        if let at = s.currentPosition, s.playlist.count > 1 {
            let n = at + 1 < s.playlist.count ? at + 1 : (s.loop ? 0 : nil)
            next = n.map { s.playlist[$0].path }
        }
        let state = s.idle ? "idle" : s.pauseReasons.isEmpty ? "playing" : "paused"
        func number(_ d: Double?) -> JSONValue { d.map { .double(($0 * 1000).rounded() / 1000) } ?? .null }
        let regions: [JSONValue] = s.regions.map { r in
            .object([("name", .string(r.name)), ("src", r.src.map { .string($0) } ?? .null), ("path", r.path.map { .string($0) } ?? .null),
                     ("next", r.next.map { .string($0) } ?? .null)])
        }
        let today: [(String, JSONValue)] = [
            ("showings_today", s.playStats.map { .int(Int64($0.showings)) } ?? .null),
            ("seconds_today", s.playStats.map { .double($0.seconds) } ?? .null),
        ]
        let item: JSONValue = current.map { .string($0.title ?? ($0.path as NSString).lastPathComponent) } ?? .null
        var fields: [(String, JSONValue)] = [
            ("state", .string(state)),
            ("item", item),
            ("path", current.map { .string($0.path) } ?? .null),
            ("kind", s.itemKind.map { .string($0) } ?? .null),
            ("index", s.currentPosition.map { .int(Int64($0)) } ?? .null),
            ("count", .int(Int64(s.playlist.count))),
            ("position", number(s.timePosition)),
            ("duration", number(s.duration)),
            ("next", next.map { .string($0) } ?? .null),
            ("paused", .bool(!s.pauseReasons.isEmpty)),
            ("pause_reasons", .array(s.pauseReasons.map(\.rawValue).sorted().map { .string($0) })),
            ("volume", .int(Int64(s.volume))),
            ("muted", .bool(s.mute)),
            ("screen", .string(s.screenOn ? "on" : "off")),
            ("cec_power", s.tvPower.map { .string($0.rawValue) } ?? .null),
            ("alert", s.alert.map { .string($0.text) } ?? .null),
            ("content", s.content.map { .object($0.members(keys: .underscores)) } ?? .null),
            ("layout", s.layout.map { .string($0) } ?? .null),
            ("regions", .array(regions)),
            ("width", .int(Int64(s.displayWidth))), ("height", .int(Int64(s.displayHeight))),
            ("health", s.health.map(\.json) ?? .null),
        ]
        fields += today
        return .object(fields)
    }
}
