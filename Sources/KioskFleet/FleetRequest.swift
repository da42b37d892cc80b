import Foundation
import KioskCore

/// What one message on `kiosk/ID/cmd/COMMAND` asks for, its payload checked. Pure: no I/O, so every payload rule
/// is tested without a broker. A command the player runs is said in IPC's words, mpv's command arrays, which
/// `MPVCommandTranslator` turns into player commands through the one table IPC, `kiosk ctl` and the web page use:
/// kiosk has one vocabulary of commands. What goes through the fleet's own services (a local load, the schedule,
/// the camera, the play log, an alert's picture) stays here.
enum FleetRequest: Equatable, Sendable {
    /// mpv command arrays (`["playlist-next", "force"]`, `["set_property", "volume", 30]`), run in order.
    case mpv([JSONValue])
    /// A local file, folder or playlist to play instead of what plays (through the media gate); an http(s) URL is
    /// the content fetcher's (`["loadfile", URL]`).
    case load(String)
    /// One of the schedule's targets, by its name.
    case playlist(String)
    /// A JPEG of the screen on the camera topic.
    case snapshot
    /// Today's figures from the play log on the stats topic.
    case stats
    /// The play log's head signed now by its writer (IPC's `sign-play-log`).
    case signPlayLog
    /// An emergency alert (its picture, if any, still to go through the media gate), or its clearing.
    case alert(AlertRequest)

    /// The largest payload a command takes (a path, a view's JSON): anything longer is refused before it is parsed
    /// or copied. The broker is asked (MQTT 5 Maximum Packet Size, `BrokerConnection.maximumPacket`) not to send one
    /// bigger, so it never reaches libmosquitto's buffer; a broker that sends it anyway costs that buffer, once.
    static let maxPayload = 64 * 1024

    /// The commands, as docs/fleets-and-walls.md lists them.
    static let names = ["next", "previous", "pause", "resume", "volume", "mute", "screen", "view", "load", "playlist",
                        "snapshot", "stats", "sign-play-log", "notify", "alert", "check-content"]

    /// The request `command` with `payload` makes, or why it is refused (one line).
    static func parse(_ command: String, payload bytes: [UInt8]) throws(FleetRefusal) -> FleetRequest {
        guard bytes.count <= maxPayload else { throw FleetRefusal("the payload is over \(maxPayload / 1024) KiB") }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw FleetRefusal("the payload is not UTF-8") }
        let payload = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch command {
        // a payload names a region of the layout playing, which steps on its own (`playlist-next REGION`); none (or a
        // Home Assistant button's PRESS) is the playlist's step, the first region's while a layout plays, at the end
        // of the playlist too (`force`)
        case "next": return .mpv([words("playlist-next", .string(region(payload) ?? "force"))])
        case "previous": return .mpv([words("playlist-prev", .string(region(payload) ?? "force"))])
        // the pause property pauses with the reason `remote`, and clears `remote` and `user` when set off
        case "resume": return .mpv([setProperty("pause", .bool(false))])
        case "pause":
            // A switch (Home Assistant's `paused`): empty or on pauses, off resumes.
            return .mpv([setProperty("pause", .bool(try onOff(payload, empty: true)))])
        case "screen": return .mpv([setProperty("kiosk-screen", .bool(try onOff(payload, empty: nil)))])
        case "mute":
            // `cycle mute` flips it in the player, as the mute key does
            if payload.isEmpty || payload.lowercased() == "toggle" { return .mpv([words("cycle", .string("mute"))]) }
            return .mpv([setProperty("mute", .bool(try onOff(payload, empty: nil)))])
        case "volume": return .mpv([setProperty("volume", .int(Int64(try volume(payload))))])
        case "view": return .mpv(try FleetViewPayload.changes(bytes).map(FleetViewPayload.command))
        case "load":
            let given = try path(payload)
            // an http(s) URL is an index for the content fetcher (`kiosk play URL`), not a path for the media gate
            guard ContentMap.isRemote(given) else { return .load(given) }
            guard let url = ContentMap.absolute(given, base: given) else {
                throw FleetRefusal("'\(clipped(given))' is not an http or https URL kiosk can fetch")
            }
            return .mpv([words("loadfile", .string(url))])
        case "check-content": return .mpv([words("check-content")])
        case "playlist":
            guard !payload.isEmpty else { throw FleetRefusal("needs a playlist name") }
            return .playlist(payload)
        case "snapshot": return .snapshot
        case "stats": return .stats
        case "sign-play-log": return .signPlayLog
        case "alert": return .alert(try alert(payload))
        case "notify":
            // the layout's notify(NAME) begins: the payload is NAME
            guard !payload.isEmpty, payload.count <= 64 else { throw FleetRefusal("needs a name (notify(NAME) in the layout)") }
            return .mpv([words("notify", .string(payload))])
        default:
            throw FleetRefusal("unknown command (commands: \(names.joined(separator: ", ")))")
        }
    }

    /// The mpv command array `name` with `args`.
    static func words(_ name: String, _ args: JSONValue...) -> JSONValue { .array([.string(name)] + args) }

    /// `["set_property", name, value]`.
    static func setProperty(_ name: String, _ value: JSONValue) -> JSONValue { words("set_property", .string(name), value) }

    /// An alert payload: JSON `{"text": …, "seconds": …, "image": …}` (`{"clear": true}` or an empty text clears),
    /// or the text itself (Home Assistant's text entity); empty clears.
    private static func alert(_ payload: String) throws(FleetRefusal) -> AlertRequest {
        guard payload.hasPrefix("{") else { return AlertRequest(text: payload) }
        guard let json = try? JSONValue.parse(Array(payload.utf8)), case .object = json else { throw FleetRefusal("not a JSON object") }
        if json["clear"] == .bool(true) { return .clear }
        var text: String?
        if let t = json["text"] {
            guard case .string(let s) = t else { throw FleetRefusal("\"text\" is not a string") }
            text = s
        }
        var seconds: TimeSpan?
        if let v = json["seconds"] {
            let s: Double
            switch v {
            case .int(let n): s = Double(n)
            case .double(let d): s = d
            default: throw FleetRefusal("\"seconds\" is not a number")
            }
            guard s > 0 else { throw FleetRefusal("\"seconds\" is not above 0") }
            guard let span = TimeSpan(seconds: s) else { throw FleetRefusal("\"seconds\": \(TimeSpan.refusal(s))") }
            seconds = span
        }
        var image: String?
        if let v = json["image"] {
            guard case .string(let s) = v else { throw FleetRefusal("\"image\" is not a path") }
            image = try path(s)
        }
        return AlertRequest(text: text, seconds: seconds, image: image)
    }

    /// The region a `next`/`previous` payload names: nil when empty or a button's `PRESS`.
    private static func region(_ payload: String) -> String? {
        payload.isEmpty || payload.uppercased() == "PRESS" ? nil : payload
    }

    /// `on`/`off` (also `true`/`false`, `1`/`0`, any case); an empty payload means `empty` when that is given.
    private static func onOff(_ payload: String, empty: Bool?) throws(FleetRefusal) -> Bool {
        switch payload.lowercased() {
        case "on", "true", "1": return true
        case "off", "false", "0": return false
        case "" where empty != nil: return empty ?? true
        default: throw FleetRefusal("'\(clipped(payload))' is not on or off")
        }
    }

    /// A volume 0...100: a whole number (Home Assistant may send `37.0`).
    private static func volume(_ payload: String) throws(FleetRefusal) -> Int {
        guard let v = Double(payload), v.isFinite, v.rounded() == v else {
            throw FleetRefusal("'\(clipped(payload))' is not a whole number 0...100")
        }
        guard (0...100).contains(v) else { throw FleetRefusal("\(clipped(payload)) is out of range 0...100") }
        return Int(saturating: v, rounding: .towardZero)
    }

    /// A path: one line (whether it is local and allowed is the media gate's to say).
    private static func path(_ payload: String) throws(FleetRefusal) -> String {
        guard !payload.isEmpty else { throw FleetRefusal("needs a path") }
        guard !payload.contains(where: { $0.isNewline || $0 == "\0" }) else { throw FleetRefusal("a path is one line") }
        return payload
    }

    /// `text` cut for a log line.
    static func clipped(_ text: String) -> String {
        text.count <= 60 ? text : String(text.prefix(57)) + "..."
    }
}

/// Why a command's payload is refused: one line (logged with the topic).
public struct FleetRefusal: Error, CustomStringConvertible, Sendable, Equatable {
    /// The reason.
    public let description: String
    /// A refusal.
    public init(_ description: String) { self.description = description }
}

/// `cmd/view`'s JSON: `{"zoom": 2, "x": 0.3, "y": 0.6, "yaw": 30, "pitch": -10, "roll": 0, "fov": 100}`, any subset;
/// `{"reset": true}` goes back to the slideshow's own view. The same changes IPC's kiosk-zoom, kiosk-center and
/// kiosk-yaw… properties make.
enum FleetViewPayload {
    /// The keys taken.
    static let keys = ["zoom", "x", "y", "yaw", "pitch", "roll", "fov", "reset"]

    /// The view changes `bytes` asks for, in a fixed order (reset first, then zoom, centre, angles).
    static func changes(_ bytes: [UInt8]) throws(FleetRefusal) -> [ViewChange] {
        let json: JSONValue
        do { json = try JSONValue.parse(bytes) } catch { throw FleetRefusal("not JSON: \(error)") }
        guard case .object(let members) = json, !members.isEmpty else {
            throw FleetRefusal("expected a JSON object with some of \(keys.joined(separator: ", "))")
        }
        var numbers: [String: Double] = [:]
        var out: [ViewChange] = []
        for (key, value) in members {
            guard keys.contains(key) else { throw FleetRefusal("unknown key '\(FleetRequest.clipped(key))' (keys: \(keys.joined(separator: ", ")))") }
            if key == "reset" {
                guard value == .bool(true) else { throw FleetRefusal("reset takes true") }
                out.append(.reset)
                continue
            }
            guard let n = value.number, n.isFinite else { throw FleetRefusal("\(key) needs a number") }
            numbers[key] = n
        }
        if let z = numbers["zoom"] {
            guard (1...4).contains(z) else { throw FleetRefusal("zoom \(z) is out of range 1...4") }
            out.append(.zoom(z))
        }
        if numbers["x"] != nil || numbers["y"] != nil {
            guard let x = numbers["x"], let y = numbers["y"] else { throw FleetRefusal("x and y go together") }
            guard (0...1).contains(x), (0...1).contains(y) else { throw FleetRefusal("x and y must be in 0...1") }
            out.append(.center(x: x, y: y))
        }
        if let v = numbers["yaw"] { out.append(.yaw(v)) }
        if let v = numbers["pitch"] { out.append(.pitch(v)) }
        if let v = numbers["roll"] { out.append(.roll(v)) }
        if let f = numbers["fov"] {
            guard f > 0, f < 360 else { throw FleetRefusal("fov \(f) is out of range (0...360)") }
            out.append(.fov(f))
        }
        return out
    }

    /// `change` in IPC's words: `reset-view`, or the kiosk-zoom, kiosk-center, kiosk-yaw… property set.
    static func command(_ change: ViewChange) -> JSONValue {
        switch change {
        case .reset: return FleetRequest.words("reset-view")
        case .zoom(let z): return FleetRequest.setProperty("kiosk-zoom", .double(z))
        case .center(let x, let y): return FleetRequest.setProperty("kiosk-center", .array([.double(x), .double(y)]))
        case .yaw(let v): return FleetRequest.setProperty("kiosk-yaw", .double(v))
        case .pitch(let v): return FleetRequest.setProperty("kiosk-pitch", .double(v))
        case .roll(let v): return FleetRequest.setProperty("kiosk-roll", .double(v))
        case .fov(let v): return FleetRequest.setProperty("kiosk-fov", .double(v))
        }
    }
}
