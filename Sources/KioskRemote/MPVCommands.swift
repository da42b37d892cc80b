import Foundation
import KioskCore

/// What running an mpv command amounts to.
enum MPVAction {
    /// Answered at once.
    case reply(MPVResult)
    /// Player commands, sent in order; the request is answered when the last has run: success with `data`, or
    /// `failure` when any was refused.
    case player([PlayerCommand], failure: MPVError, data: MPVReplyData)
    /// A `client-message` event to every client, then success.
    case broadcast([String])
}

/// What a successful request's reply carries: nothing (property sets, IPC commands), `null` (mpv's ordinary
/// commands), or loadfile's `{"playlist_entry_id": N}` for the first item it added.
enum MPVReplyData: Equatable {
    case none, null, entryID
    /// A line of text (`check-content`'s `checking URL`).
    case text(String)

    /// The `data` for a request whose commands created `ids`.
    func value(ids: [ItemID]) -> JSONValue? {
        switch self {
        case .none: return nil
        case .null: return .null
        case .text(let line): return .string(line)
        case .entryID:
            guard let first = ids.first else { return .null }
            return .object([("playlist_entry_id", .int(MPVPropertyTable.mpvID(first)))])
        }
    }
}

/// What a command may look at: the status, and how paths become playlist items.
struct MPVCommandContext {
    let status: PlayerStatus
    let media: MediaGate
    let keys: @Sendable (String) -> Int?
    /// The play log, for `play-report`.
    let reports: PlayReports
    /// Where a refused report says why (the reply carries mpv's fixed error text only).
    let log: Log
    /// Says why `command` (its words as the caller gave them) is refused, in one line, for a refusal whose reply
    /// carries mpv's fixed error text only: IPC and the web page log it (`ipc: COMMAND: refused: REASON`), the
    /// translator hands it to its caller with the error (`MPVCommandRefusal.reason`).
    let refuse: @Sendable (_ command: String, _ reason: String) -> Void
}

/// An mpv command: its name and arguments (for `command-list`), and what it does.
struct MPVCommand: Sendable {
    /// One argument.
    struct Arg: Sendable {
        let name: String
        let type: String
        let optional: Bool
    }

    let name: String
    let args: [Arg]
    let vararg: Bool
    let run: @Sendable (MPVArgs, MPVCommandContext) throws(MPVError) -> MPVAction

    /// The `command-list` entry, as mpv writes it.
    var listEntry: JSONValue {
        .object([("name", .string(name)),
                 ("args", .array(args.map { .object([("name", .string($0.name)), ("type", .string($0.type)),
                                                     ("optional", .bool($0.optional))]) })),
                 ("vararg", .bool(vararg))])
    }
}

/// A command's arguments after its name. Numbers given as strings are parsed (`["seek", "10"]`), as mpv does.
struct MPVArgs {
    let values: [JSONValue]

    var count: Int { values.count }

    /// Argument `i` as text (strings, and numbers written out), nil when absent.
    func text(_ i: Int) throws(MPVError) -> String? {
        guard values.indices.contains(i) else { return nil }
        switch values[i] {
        case .string(let s): return s
        case .int(let n): return String(n)
        case .double(let d): return String(d)
        case .bool(let b): return b ? "yes" : "no"
        default: throw .invalidParameter
        }
    }

    /// A required text argument.
    func required(_ i: Int) throws(MPVError) -> String {
        guard let t = try text(i) else { throw .invalidParameter }
        return t
    }

    /// Argument `i` as a number, nil when absent.
    func number(_ i: Int) throws(MPVError) -> Double? {
        guard values.indices.contains(i) else { return nil }
        if let d = values[i].number { return d }
        guard case .string(let s) = values[i], let d = Double(s), d.isFinite else { throw .invalidParameter }
        return d
    }

    /// Argument `i` as an integer, nil when absent. As in mpv, one that is not whole or is outside its 32-bit
    /// range (`1e19`, `2147483648`) is "invalid parameter".
    func integer(_ i: Int) throws(MPVError) -> Int? {
        guard let d = try number(i) else { return nil }
        guard let n = Int(whole: d, in: Int.mpvIntegerRange) else { throw .invalidParameter }
        return n
    }
}

/// mpv's commands that kiosk runs, in `command-list` order. Property commands (`set`, `add`, `cycle`,
/// `multiply`) go through the property table; IPC commands (`get_property`…) are the session's.
enum MPVCommandTable {
    static func arg(_ name: String, _ type: String, optional: Bool = false) -> MPVCommand.Arg {
        MPVCommand.Arg(name: name, type: type, optional: optional)
    }

    static let byName: [String: MPVCommand] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

    static let all: [MPVCommand] = [
        MPVCommand(name: "loadfile", args: [arg("url", "String"), arg("flags", "Choice", optional: true),
                                            arg("options", "Key/value list", optional: true)], vararg: false) { a, c throws(MPVError) in
            let given = try a.required(0)
            // an http(s) URL is an index for the content fetcher (`kiosk play URL`), never a file to open
            if ContentMap.isRemote(given) { return try MPVContentCommands.load(given, flag: try a.text(1), c, command: "loadfile") }
            let items = try c.media.items(given, list: false)
            return .player(try loadCommands(items, mode: try a.text(1) ?? "replace"), failure: .loadingFailed, data: .entryID)
        },
        MPVCommand(name: "loadlist", args: [arg("url", "String"), arg("flags", "Choice", optional: true)],
                   vararg: false) { a, c throws(MPVError) in
            let given = try a.required(0)
            // an M3U playlist by URL is an index for the content fetcher too, never an empty list that clears the playlist
            if ContentMap.isRemote(given) { return try MPVContentCommands.load(given, flag: try a.text(1), c, command: "loadlist") }
            let items = try c.media.items(given, list: true)
            return .player(try loadCommands(items, mode: try a.text(1) ?? "replace"), failure: .loadingFailed, data: .null)
        },
        MPVCommand(name: "playlist-next", args: [arg("flags", "Choice", optional: true)], vararg: false) { a, c throws(MPVError) in
            try skip(.next, atEdge: c.status.currentPosition.map { $0 + 1 >= c.status.playlist.count } ?? true, c.status, a)
        },
        MPVCommand(name: "playlist-prev", args: [arg("flags", "Choice", optional: true)], vararg: false) { a, c throws(MPVError) in
            try skip(.previous, atEdge: c.status.currentPosition.map { $0 == 0 } ?? true, c.status, a)
        },
        MPVCommand(name: "playlist-play-index", args: [arg("index", "Integer")], vararg: false) { a, c throws(MPVError) in
            let text = try a.required(0)
            if text == "current" {
                guard let p = c.status.currentPosition else { throw .command }
                return .player([.goTo(.position(p))], failure: .command, data: .null)
            }
            guard text != "none" else { return .player([.stopPlayback], failure: .command, data: .null) }
            guard let n = try a.integer(0) else { throw .invalidParameter }
            // As in mpv, an index outside the playlist stops playback (the playlist stays).
            guard n >= 0, n < c.status.playlist.count else { return .player([.stopPlayback], failure: .command, data: .null) }
            return .player([.goTo(.position(n))], failure: .command, data: .null)
        },
        MPVCommand(name: "playlist-remove", args: [arg("index", "Integer")], vararg: false) { a, c throws(MPVError) in
            let ref = try position(try a.required(0), a, c.status)
            return .player([.remove(.position(ref))], failure: .command, data: .null)
        },
        MPVCommand(name: "playlist-move", args: [arg("index1", "Integer"), arg("index2", "Integer")],
                   vararg: false) { a, c throws(MPVError) in
            guard let from = try a.integer(0), let to = try a.integer(1) else { throw .invalidParameter }
            let count = c.status.playlist.count
            guard (0..<count).contains(from), (0...count).contains(to) else { throw .command }
            // mpv's index2 names the entry the moved one goes before, so moving down lands one place earlier.
            let final = from < to ? to - 1 : to
            return .player([.move(.position(from), to: final)], failure: .command, data: .null)
        },
        MPVCommand(name: "playlist-clear", args: [], vararg: false) { _, _ throws(MPVError) in
            .player([.clear(keepCurrent: true)], failure: .command, data: .null)
        },
        MPVCommand(name: "playlist-shuffle", args: [], vararg: false) { _, _ throws(MPVError) in
            .player([.shuffle(true)], failure: .command, data: .null)
        },
        MPVCommand(name: "playlist-unshuffle", args: [], vararg: false) { _, _ throws(MPVError) in
            .player([.shuffle(false)], failure: .command, data: .null)
        },
        MPVCommand(name: "stop", args: [arg("flags", "Flags", optional: true)], vararg: false) { _, _ throws(MPVError) in
            .player([.clear(keepCurrent: false)], failure: .command, data: .null)
        },
        MPVCommand(name: "seek", args: [arg("target", "Time"), arg("flags", "Flags", optional: true),
                                        arg("legacy", "Choice", optional: true)], vararg: false) { a, c throws(MPVError) in
            try seek(a, c.status)
        },
        MPVCommand(name: "screenshot-to-file", args: [arg("filename", "String"), arg("flags", "Choice", optional: true)],
                   vararg: false) { a, c throws(MPVError) in
            let path = try c.media.outputPath(try a.required(0))
            return .player([.screenshot(path: path)], failure: .command, data: .null)
        },
        MPVCommand(name: "keypress", args: [arg("name", "String"), arg("scale", "Double", optional: true)],
                   vararg: false) { a, c throws(MPVError) in
            guard let code = c.keys(try a.required(0)) else { throw .invalidParameter }
            return .player([.key(code: code)], failure: .command, data: .null)
        },
        // kiosk's: what the layout's notify(NAME) begins wait on
        MPVCommand(name: "notify", args: [arg("name", "String")], vararg: false) { a, _ throws(MPVError) in
            let name: String = try a.required(0)
            guard !name.isEmpty, name.count <= 64 else { throw .invalidParameter }
            return .player([.trigger(.notify(name))], failure: .command, data: .null)
        },
        // kiosk's: the item on screen back to the slideshow's own view (zoom 1, centred, the angles it began with);
        // the other view changes are the kiosk-zoom, kiosk-center, kiosk-yaw… properties
        MPVCommand(name: "reset-view", args: [], vararg: false) { _, _ throws(MPVError) in
            .player([.view(.reset)], failure: .command, data: .null)
        },
        // kiosk's: an emergency message over everything for SECONDS (none: until cleared), an empty TEXT clears it
        MPVCommand(name: "alert", args: [arg("text", "String"), arg("seconds", "Double", optional: true),
                                          arg("image", "String", optional: true)], vararg: false) { a, c throws(MPVError) in
            let text = try a.text(0) ?? ""
            guard text.count <= 4 * EmergencyAlert.maxText else { throw .invalidParameter }
            let seconds = try a.number(1).map { s throws(MPVError) in
                guard s > 0, let span = TimeSpan(seconds: s) else { throw .invalidParameter }  // 0 < s <= 100 years
                return span
            }
            var image: String?
            if let given = try a.text(2), !given.isEmpty {
                guard let path = c.media.admitted(MediaGate.absolute(given), what: "alert image") else { throw .command }
                image = path
            }
            return .player([.alert(AlertRequest(text: text, seconds: seconds, image: image))], failure: .command, data: .null)
        },
        // kiosk's: the play log's report (`kiosk report`'s), read on the server's thread, never the player's
        MPVCommand(name: "play-report", args: [arg("by", "String", optional: true), arg("format", "String", optional: true),
                                                arg("since", "String", optional: true), arg("until", "String", optional: true),
                                                arg("verdict", "String", optional: true)],
                   vararg: false) { a, c throws(MPVError) in
            return .reply(try playReport(a, c))
        },
        // kiosk's: the play log's head signed now (its writer signs each day and at the end anyway); the reply comes
        // once asked, the signature a moment later on the writer's thread
        MPVCommand(name: "sign-play-log", args: [], vararg: false) { _, c throws(MPVError) in
            do throws(PlayReportRefusal) {
                try c.reports.signHead()
            } catch {
                c.refuse("sign-play-log", error.description)
                throw .command
            }
            return .reply(.success(.string(PlayReports.signingLine)))
        },
        MPVCommand(name: "script-message", args: [arg("args", "String", optional: true)], vararg: true) { a, _ throws(MPVError) in
            .broadcast(try (0..<a.count).map { i throws(MPVError) in try a.required(i) })
        },
        MPVCommand(name: "quit", args: [arg("code", "Integer", optional: true)], vararg: false) { a, _ throws(MPVError) in
            _ = try a.integer(0)  // a code that is no integer is refused, as in mpv, rather than quitting
            return .player([.quit], failure: .command, data: .null)
        },
    ] + MPVPropertyCommands.all + MPVOverlayCommands.all + MPVContentCommands.all

    /// loadfile's and loadlist's flags.
    /// `play-report [BY [FORMAT [SINCE [UNTIL [VERDICT]]]]]`: the report's text (VERDICT: `seen` by default). An unknown grouping or format, or a time not
    /// ISO 8601 with a zone, is "invalid parameter"; a log that is absent or unreadable is "error running command",
    /// with its reason in the server's log.
    static func playReport(_ a: MPVArgs, _ c: MPVCommandContext) throws(MPVError) -> MPVResult {
        func given(_ i: Int) throws(MPVError) -> String? { try a.text(i).flatMap { $0.isEmpty ? nil : $0 } }
        func instant(_ i: Int) throws(MPVError) -> Date? {
            guard let text = try given(i) else { return nil }
            guard let d = PlayReportQuery.instant(text) else { throw .invalidParameter }
            return d
        }
        let query = PlayReportQuery(by: try given(0) ?? "item", format: try given(1) ?? "table", since: try instant(2), until: try instant(3),
                                    verdict: try given(4) ?? "seen")
        guard PlayReportQuery.groupings.contains(query.by), PlayReportQuery.formats.contains(query.format),
              PlayReportQuery.verdicts.contains(query.verdict) else { throw .invalidParameter }
        do {
            return .success(.string(try c.reports.report(query)))
        } catch {
            c.log.warn("ipc: play-report: \(error)")
            throw .command
        }
    }

    static func loadCommands(_ items: [PlaylistItem], mode: String) throws(MPVError) -> [PlayerCommand] {
        switch mode {
        case "replace": return [.load(items, .replace)]
        case "append", "append-play": return [.load(items, .append)]
        case "insert-next": return [.load(items, .insertNext)]
        case "insert-next-play": return [.load(items, .insertNext), .next]
        default: throw .invalidParameter
        }
    }

    /// playlist-next/prev: `weak` fails at the end of the playlist (mpv's default), `force` moves anyway; kiosk
    /// loops, so the edge is only an edge with loop-playlist off.
    private static func skip(_ command: PlayerCommand, atEdge: Bool, _ s: PlayerStatus,
                             _ a: MPVArgs) throws(MPVError) -> MPVAction {
        let flag = try a.text(0) ?? "weak"
        if s.layout != nil {
            // a layout plays: `playlist-next REGION` steps that region; without one the player's own step (the first
            // region's, or past a layout playing as a playlist item)
            guard flag != "weak" && flag != "force" else { return .player([command], failure: .command, data: .null) }
            return region(flag, command, s)
        }
        // the slideshow is the one-region layout: `playlist-next main` is its plain step
        let flagged = flag == SlideshowLayout.regionName ? "weak" : flag
        guard flagged == "weak" || flagged == "force" else { return region(flag, command, s) }
        if s.playlist.isEmpty || (flagged == "weak" && atEdge && !s.loop) { throw .command }
        return .player([command], failure: .command, data: .null)
    }

    /// `playlist-next REGION`: the player, which knows the regions playing (the board may lag a layout that just
    /// began), steps it or refuses it with its reason ("no region side in the slideshow"). A refusal is mpv's
    /// "invalid parameter" for a flag that names no region on the board, else "error running command". MQTT's
    /// `next REGION` is this command.
    private static func region(_ name: String, _ command: PlayerCommand, _ s: PlayerStatus) -> MPVAction {
        let known = s.regions.contains { $0.name == name }
        return .player([.region(name, command == .next ? .next : .previous)], failure: known ? .command : .invalidParameter,
                       data: .null)
    }

    /// `N` or `current` as a playlist position.
    private static func position(_ text: String, _ a: MPVArgs, _ s: PlayerStatus) throws(MPVError) -> Int {
        if text == "current" {
            guard let p = s.currentPosition else { throw .command }
            return p
        }
        guard let n = try a.integer(0) else { throw .invalidParameter }
        guard n >= 0, n < s.playlist.count else { throw .command }
        return n
    }

    /// `seek TARGET [relative|absolute|absolute-percent|relative-percent[+exact|+keyframes]]`.
    private static func seek(_ a: MPVArgs, _ s: PlayerStatus) throws(MPVError) -> MPVAction {
        guard let target = try a.number(0) else { throw .invalidParameter }
        let flags = (try a.text(1) ?? "relative").split(separator: "+").map(String.init)
        var mode = "relative"
        for f in flags {
            switch f {
            case "relative", "absolute", "absolute-percent", "relative-percent": mode = f
            case "exact", "keyframes": break
            default: throw .invalidParameter
            }
        }
        guard s.currentID != nil else { throw .command }  // nothing playing (a still's timer seeks, as in mpv)
        let length = s.duration ?? 0
        switch mode {
        case "absolute": return .player([.seek(target, relative: false)], failure: .command, data: .null)
        case "absolute-percent": return .player([.seek(length * target / 100, relative: false)], failure: .command, data: .null)
        case "relative-percent": return .player([.seek(length * target / 100, relative: true)], failure: .command, data: .null)
        default: return .player([.seek(target, relative: true)], failure: .command, data: .null)
        }
    }
}
