import Foundation
import KioskCore

/// One property as mpv's IPC sees it: its value read from the player's status, and (when it can be set) the
/// commands that set it. mpv's own names where mpv has the property; kiosk's own under `kiosk-`.
struct MPVProperty: Sendable {
    /// How `cycle`, `add` and `multiply` treat it.
    enum Kind: Sendable {
        case flag, number, text, list
    }

    let name: String
    let kind: Kind
    /// The value; nil when it has none now ("property unavailable").
    let get: @Sendable (PlayerStatus) -> JSONValue?
    /// The commands that give it `value`; nil for a read-only property.
    let set: (@Sendable (JSONValue, PlayerStatus) throws(MPVError) -> [PlayerCommand])?
    /// The commands `cycle` sends, for a property whose cycle is its own (not a flag's flip or a number's step).
    let cycle: [PlayerCommand]?
    /// Where `add` and `multiply` clamp their result, as mpv clamps a step into the property's range (so `add
    /// playlist-pos 9223372036854775807` goes to the last item); nil: the result is set as it is.
    let stepRange: (@Sendable (PlayerStatus) -> ClosedRange<Double>)?

    init(_ name: String, _ kind: Kind, get: @escaping @Sendable (PlayerStatus) -> JSONValue?,
         set: (@Sendable (JSONValue, PlayerStatus) throws(MPVError) -> [PlayerCommand])? = nil, cycle: [PlayerCommand]? = nil,
         stepRange: (@Sendable (PlayerStatus) -> ClosedRange<Double>)? = nil) {
        self.name = name
        self.kind = kind
        self.get = get
        self.set = set
        self.cycle = cycle
        self.stepRange = stepRange
    }
}

/// Turning request values into typed ones, as mpv does: a value of the property's own type, or a string that
/// parses as one (`"yes"`, `"50"`); anything else, and a value out of the property's range, is mpv's
/// "unsupported format for accessing property".
enum MPVValue {
    static func flag(_ v: JSONValue) throws(MPVError) -> Bool {
        switch v {
        case .bool(let b): return b
        case .string(let s) where s == "yes" || s == "true": return true
        case .string(let s) where s == "no" || s == "false": return false
        case .string: throw .propertyFormat
        default: throw .propertyFormat
        }
    }

    static func number(_ v: JSONValue) throws(MPVError) -> Double {
        if let d = v.number, d.isFinite { return d }
        if case .string(let s) = v {
            guard let d = Double(s.trimmingCharacters(in: .whitespaces)), d.isFinite else { throw .propertyFormat }
            return d
        }
        throw .propertyFormat
    }

    static func text(_ v: JSONValue) throws(MPVError) -> String {
        guard case .string(let s) = v else { throw .propertyFormat }
        return s
    }

    /// A double for the reply.
    static func double(_ d: Double?) -> JSONValue? { d.flatMap { $0.isFinite ? .double($0) : nil } }
}

/// The properties, in `property-list` order.
enum MPVPropertyTable {
    /// mpv's playlist entry ids start at 1; kiosk's at 0.
    static func mpvID(_ id: ItemID) -> Int64 { Int64(id.value) + 1 }

    static let all: [MPVProperty] = playback + playlist + item + settings + display + kioskView + kioskOther

    static let byName: [String: MPVProperty] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

    private static let playback: [MPVProperty] = [
        MPVProperty("pause", .flag, get: { .bool(!$0.pauseReasons.isDisjoint(with: [.user, .remote])) },
                    set: { v, _ throws(MPVError) in
                        try MPVValue.flag(v) ? [.pause(.remote)] : [.resume(.remote), .resume(.user)]
                    }),
        MPVProperty("core-idle", .flag, get: { .bool($0.currentID == nil || !$0.pauseReasons.isEmpty) }),
        MPVProperty("idle-active", .flag, get: { .bool($0.idle || $0.finished) }),
        MPVProperty("eof-reached", .flag, get: { .bool($0.finished) }),
        MPVProperty("volume", .number, get: { .double(Double($0.volume)) }, set: { v, _ throws(MPVError) in
            let n = try MPVValue.number(v)
            guard (0...100).contains(n) else { throw .propertyFormat }
            return [.volume(.set(Int(saturating: n)))]  // within 0...100: cannot trap
        }, stepRange: { _ in 0...100 }),
        // `cycle mute` flips it in the player (as the mute key and MQTT's `mute toggle` do), not from the board's
        // value, which two cycles in one frame would both read
        MPVProperty("mute", .flag, get: { .bool($0.mute) }, set: { v, _ throws(MPVError) in
            [.volume(.mute(try MPVValue.flag(v)))]
        }, cycle: [.volume(.toggleMute)]),
        MPVProperty("time-pos", .number, get: { MPVValue.double($0.timePosition) }, set: { v, s throws(MPVError) in
            guard s.currentID != nil else { throw .propertyUnavailable }
            return [.seek(max(0, try MPVValue.number(v)), relative: false)]
        }),
        MPVProperty("duration", .number, get: { MPVValue.double($0.duration) }),
        MPVProperty("percent-pos", .number, get: { s in
            guard let t = s.timePosition, let d = s.duration, d > 0 else { return nil }
            return .double(min(100, max(0, t / d * 100)))
        }, set: { v, s throws(MPVError) in
            guard let d = s.duration, d > 0 else { throw .propertyUnavailable }
            return [.seek(d * min(100, max(0, try MPVValue.number(v))) / 100, relative: false)]
        }),
        MPVProperty("time-remaining", .number, get: { s in
            guard let t = s.timePosition, let d = s.duration else { return nil }
            return MPVValue.double(max(0, d - t))
        }),
    ]

    private static let playlist: [MPVProperty] = [
        MPVProperty("playlist", .list, get: { s in
            .array(s.playlist.map { e in
                var members: [(String, JSONValue)] = [("filename", .string(e.path))]
                if e.id == s.currentID { members += [("current", .bool(true)), ("playing", .bool(true))] }
                if let t = e.title { members.append(("title", .string(t))) }
                members.append(("id", .int(mpvID(e.id))))
                return .object(members)
            })
        }),
        MPVProperty("playlist-count", .number, get: { .int(Int64($0.playlist.count)) }),
        MPVProperty("playlist-pos", .number, get: { .int(Int64($0.currentPosition ?? -1)) },
                    set: { v, s throws(MPVError) in
                        // mpv's playlist-pos is a 32-bit integer: past that (1e19, 2^63-1) it is refused, never
                        // converted; a JSON double it cannot take is "error accessing property", as in mpv.
                        guard let n = Int(whole: try MPVValue.number(v), in: Int.mpvIntegerRange) else {
                            if case .double = v { throw .propertyError }
                            throw .propertyFormat
                        }
                        guard n >= 0, n < s.playlist.count else { return [.stopPlayback] }  // -1: stop, as in mpv
                        return [.goTo(.position(n))]
                    }, stepRange: { s in 0...Double(max(0, s.playlist.count - 1)) }),
        MPVProperty("playlist-playing-pos", .number, get: { .int(Int64($0.currentPosition ?? -1)) }),
        MPVProperty("path", .text, get: { $0.current.map { .string($0.path) } }),
        MPVProperty("filename", .text, get: { $0.current.map { .string(($0.path as NSString).lastPathComponent) } }),
        MPVProperty("media-title", .text, get: { s in
            s.current.map { .string($0.title ?? ($0.path as NSString).lastPathComponent) }
        }),
    ]

    private static let item: [MPVProperty] = [
        MPVProperty("width", .number, get: { $0.itemWidth.map { .int(Int64($0)) } }),
        MPVProperty("height", .number, get: { $0.itemHeight.map { .int(Int64($0)) } }),
    ]

    private static let settings: [MPVProperty] = [
        MPVProperty("loop-playlist", .text, get: { $0.loop ? .string("inf") : .bool(false) },
                    set: { v, _ throws(MPVError) in [.loop(try MPVValue.loopsPlaylist(v))] }),
        MPVProperty("shuffle", .flag, get: { .bool($0.shuffle) }, set: { v, _ throws(MPVError) in
            [.shuffle(try MPVValue.flag(v))]
        }),
        MPVProperty("image-display-duration", .number, get: { .double($0.imageDuration) },
                    set: { v, _ throws(MPVError) in
                        let d = try MPVValue.number(v)
                        guard d > 0 else { throw .propertyFormat }
                        return [.imageDuration(d)]
                    }),
    ]

    private static let display: [MPVProperty] = [
        MPVProperty("display-width", .number, get: { $0.displayWidth > 0 ? .int(Int64($0.displayWidth)) : nil }),
        MPVProperty("display-height", .number, get: { $0.displayHeight > 0 ? .int(Int64($0.displayHeight)) : nil }),
        MPVProperty("display-fps", .number, get: { MPVValue.double($0.displayFPS) }),
    ]

    /// The current item's view; unavailable while nothing shows.
    private static func view(_ name: String, _ read: @escaping @Sendable (PlayerStatus.View) -> Double,
                             _ change: @escaping @Sendable (Double) -> ViewChange) -> MPVProperty {
        MPVProperty(name, .number, get: { s in s.currentID == nil ? nil : .double(read(s.view)) },
                    set: { v, s throws(MPVError) in
                        guard s.currentID != nil else { throw .propertyUnavailable }
                        return [.view(change(try MPVValue.number(v)))]
                    })
    }

    private static let kioskView: [MPVProperty] = [
        view("kiosk-zoom", \.zoom) { .zoom($0) },
        MPVProperty("kiosk-center", .list, get: { s in
            s.currentID == nil ? nil : .array([.double(s.view.centerX), .double(s.view.centerY)])
        }, set: { v, s throws(MPVError) in
            guard s.currentID != nil else { throw .propertyUnavailable }
            var xy: [Double] = []
            switch v {
            case .array(let items): xy = try items.map { i throws(MPVError) in try MPVValue.number(i) }
            case .string(let text):
                guard let p = OptionParser.parsePoint(text) else { throw .propertyFormat }
                xy = [p.x, p.y]
            default: throw .propertyFormat
            }
            guard xy.count == 2 else { throw .propertyFormat }
            return [.view(.center(x: xy[0], y: xy[1]))]
        }),
        view("kiosk-yaw", \.yaw) { .yaw($0) },
        view("kiosk-pitch", \.pitch) { .pitch($0) },
        view("kiosk-roll", \.roll) { .roll($0) },
        view("kiosk-fov", \.fov) { .fov($0) },
    ]

    /// The effect's split (the mosaic's), 0...1 of the canvas width; unavailable while the effect has none. A
    /// value outside 0...1 is refused as mpv refuses one outside an option's range ("unsupported format for
    /// accessing property", as for `volume`). Setting it stops a sweep.
    private static func split(_ name: String) -> MPVProperty {
        MPVProperty(name, .number, get: { MPVValue.double($0.effectSplit) }, set: { v, s throws(MPVError) in
            guard s.effectSplit != nil else { throw .propertyUnavailable }
            let x = try MPVValue.number(v)
            guard (0...1).contains(x) else { throw .propertyFormat }
            return [.effectSplit(x)]
        })
    }

    private static let kioskOther: [MPVProperty] = [
        MPVProperty("kiosk-projection", .text, get: { s in s.currentID == nil ? nil : .string(s.projection) }),
        // `cycle kiosk-effect` turns the effect off and back on, as the `effect` key does.
        MPVProperty("kiosk-effect", .text, get: { .string($0.effect ?? "none") }, set: { v, _ throws(MPVError) in
            let text = try MPVValue.text(v)
            if text == "none" || text.isEmpty { return [.effect(nil)] }
            guard let spec = try? PieceSpec.split(text, flag: "kiosk-effect") else { throw .propertyFormat }
            return [.effect(spec)]
        }, cycle: [.toggleEffect]),
        split("kiosk-split"),
        split("kiosk-mosaic-split"),  // the name the README gave first
        MPVProperty("kiosk-transition", .text, get: { .string($0.transition) }, set: { v, _ throws(MPVError) in
            guard let spec = try? TransitionSpec.parse(try MPVValue.text(v)) else { throw .propertyFormat }
            return [.transition(spec, seconds: nil)]
        }),
        MPVProperty("kiosk-transition-duration", .number, get: { .double($0.transitionTime) },
                    set: { v, s throws(MPVError) in
                        let d = try MPVValue.number(v)
                        guard d >= 0, let spec = try? TransitionSpec.parse(s.transition) else { throw .propertyFormat }
                        return [.transition(spec, seconds: d)]
                    }),
        MPVProperty("kiosk-pause-reasons", .list, get: { s in
            .array(s.pauseReasons.sorted().map { .string($0.rawValue) })
        }),
        MPVProperty("kiosk-item-kind", .text, get: { $0.itemKind.map { .string($0) } }),
        MPVProperty("kiosk-output", .text, get: { $0.output.isEmpty ? nil : .string($0.output) }),
        MPVProperty("kiosk-rotation", .number, get: { .int(Int64($0.rotation)) }),
        // The display's power (as a schedule's `off` window turns it off; MQTT's `screen on|off`): nothing is decoded
        // or drawn while it is off.
        MPVProperty("kiosk-screen", .flag, get: { .bool($0.screenOn) }, set: { v, _ throws(MPVError) in
            [.screen(on: try MPVValue.flag(v))]
        }),
        // The overview grid: `set_property kiosk-view grid` opens it (the slideshow pauses with the reason `grid`),
        // `slideshow` closes it; `cycle kiosk-view` toggles it, as the menu key does.
        MPVProperty("kiosk-view", .text, get: { .string($0.screenView.rawValue) }, set: { v, _ throws(MPVError) in
            guard let view = ScreenView(rawValue: try MPVValue.text(v)) else { throw .propertyFormat }
            return [.grid(view == .grid ? .open : .close)]
        }, cycle: [.grid(.toggle)]),
        MPVProperty("kiosk-grid-filter", .text, get: { .string($0.gridFilter.rawValue) }, set: { v, _ throws(MPVError) in
            guard let f = GridFilter(parsing: try MPVValue.text(v)) else { throw .propertyFormat }
            return [.grid(.filter(f))]
        }),
        MPVProperty("kiosk-grid-focus", .text, get: { s in s.gridFocus.map { .string($0) } }),
        // Today's showings in the play log (unavailable without one): {"day", "showings", "seconds"}.
        MPVProperty("play-stats", .list, get: { s in s.playStats.map { p in
            .object([("day", .string(p.day)), ("showings", .int(Int64(p.showings))), ("seconds", .double(p.seconds))])
        } }),
        // The TV's power over HDMI-CEC: on, standby, to-on, to-standby or unknown (unavailable without CEC).
        MPVProperty("cec-power", .text, get: { s in s.tvPower.map { .string($0.rawValue) } }),
        // The emergency alert on screen: its text (unavailable while none is), and its end on the wall clock.
        MPVProperty("kiosk-alert", .text, get: { s in s.alert.map { .string($0.text) } }),
        MPVProperty("kiosk-alert-until", .number, get: { s in MPVValue.double(s.alert?.until?.secondsSince1970) }),
        // The content fetcher (`kiosk play URL`; unavailable without one): url, signed, last-check, result, problem,
        // fetched, cache-bytes, cache-budget, media.
        MPVProperty("kiosk-content", .list, get: { s in s.content.map { .object($0.members(keys: .hyphens)) } }),
        // The health readings (unavailable before the monitor's first round): {"time", "readings": [{"name",
        // "subject"?, "value", "unit", "time"}], "displays": [{"screen", "connector", "state", "monitor"?, "note"?, "time"}]}.
        MPVProperty("kiosk-health", .list, get: { s in s.health.map(\.json) }),
        // A SMIL layout playing (`kiosk play FILE.smil`): its file, and each region with what it shows.
        MPVProperty("kiosk-layout", .text, get: { s in s.layout.map { .string($0) } }),
        MPVProperty("kiosk-regions", .list, get: { s in
            .array(s.regions.map { r in
                var members: [(String, JSONValue)] = [("name", .string(r.name))]
                if let src = r.src { members.append(("src", .string(src))) }
                if let path = r.path { members.append(("filename", .string(path))) }
                members += [("time-pos", .double(r.timePosition)), ("frozen", .bool(r.frozen))]
                return .object(members)
            })
        }),
    ]
}
