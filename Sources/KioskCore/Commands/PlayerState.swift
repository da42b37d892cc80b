import Foundation

/// What `kiosk play` keeps across restarts and power cuts: the item on screen (by path) and a clip's position,
/// volume and mute, whether someone paused it, and where long clips were left. Saved as a small JSON object
/// whose `"kiosk-state"` member is both the marker (a file without it is not ours) and the format version.
///
/// `paused` covers the two pauses someone asked for: the user's (a key, a gesture) and a remote's (IPC
/// `set_property pause true`). Either way a box paused before a power cut comes back paused; it is restored as
/// the user's pause, which both the keyboard and the remote can lift. The other reasons (zoomed, a finger down,
/// a schedule, the grid) belong to the moment and are not kept.
public struct PlayerState: Codable, Equatable, Sendable {
    /// The format this kiosk writes and reads.
    public static let currentFormat = 1

    /// The format version (the `"kiosk-state"` marker).
    public var format: Int = PlayerState.currentFormat
    /// The item on screen, as the playlist names it; nil when nothing has shown yet.
    public var path: String?
    /// Seconds into the item, when it is a clip (a video or a sound file).
    public var position: Double?
    /// The clip's length in seconds, when it is a clip (the 7-minute rule is decided from it at start).
    public var duration: Double?
    /// Sound volume 0...100.
    public var volume: Int = 100
    /// Sound muted.
    public var muted: Bool = false
    /// Paused by the user or a remote.
    public var paused: Bool = false
    /// Where long clips other than the one on screen were left: path → seconds (the resume book).
    public var resume: [String: Double] = [:]
    /// When it was saved: seconds since 1970 (wall clock; for people reading the file, never for decisions).
    public var saved: Double = 0
    /// The emergency alert on screen, if one is: shown again after a restart until its end.
    public var alert: EmergencyAlert?
    /// With several screens (`--screen`), where each screen after the first was, by name (the first screen's is
    /// the state's own; nil, and not written, with one screen).
    public var screens: [String: ScreenState]?

    /// A state with defaults: nothing shown, full volume, playing.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case format = "kiosk-state"
        case path, position, duration, volume, muted, paused, resume, saved, alert, screens
    }
}

/// Where a screen after the first was: its item, a clip's position and length, and whether someone paused it. The
/// sound, the resume book and an alert are the player's, kept once in the `PlayerState` around it.
public struct ScreenState: Codable, Equatable, Sendable {
    /// The item on screen, as its playlist names it.
    public var path: String?
    /// Seconds into the item, when it is a clip.
    public var position: Double?
    /// The clip's length in seconds, when it is a clip.
    public var duration: Double?
    /// Paused by the user or a remote.
    public var paused: Bool = false

    /// Nothing shown yet.
    public init() {}

    /// The state a screen restores: `around`'s sound, resume book and alert with this screen's item and pause.
    public func restoring(within around: PlayerState) -> PlayerState {
        var s = around
        s.screens = nil
        (s.path, s.position, s.duration, s.paused) = (path, position, duration, paused)
        return s
    }
}

/// Why a state file's bytes were not taken: one line for the log.
public struct PlayerStateError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The reason.
    public var description: String
    /// An error with `description`.
    public init(_ description: String) { self.description = description }
}

extension PlayerState {
    /// The JSON bytes of the state (one line, sorted keys).
    public func encoded() throws(PlayerStateError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self) + Data("\n".utf8)
        } catch {
            throw PlayerStateError("cannot be written as JSON: \(error)")
        }
    }

    /// The state in `bytes`, or why they are not a state this kiosk takes: empty, not JSON (corrupt or cut
    /// short), JSON without the `"kiosk-state"` marker (another program's file), a newer format, or a value
    /// out of range.
    public static func decode(_ bytes: Data) throws(PlayerStateError) -> PlayerState {
        guard !bytes.isEmpty else { throw PlayerStateError("the file is empty") }
        let marker: Marker
        do {
            marker = try JSONDecoder().decode(Marker.self, from: bytes)
        } catch DecodingError.typeMismatch {
            throw PlayerStateError("not a kiosk state file (not a JSON object)")
        } catch {
            throw PlayerStateError("not valid JSON (corrupt or cut short)")
        }
        guard marker.present else { throw PlayerStateError("not a kiosk state file (no \"kiosk-state\" marker)") }
        guard let format = marker.format else { throw PlayerStateError("its \"kiosk-state\" marker is not a format number") }
        guard format == currentFormat else {
            throw PlayerStateError("state format \(format) is not this kiosk's (\(currentFormat))")
        }
        let state: PlayerState
        do {
            state = try JSONDecoder().decode(PlayerState.self, from: bytes)
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw PlayerStateError("bad value at \(Self.describe(context.codingPath))")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            // a value a type refused (`"alert": {"until": 1e300}`): the path and the type's reason
            throw PlayerStateError("bad value at \(Self.describe(context.codingPath)): \(context.debugDescription)")
        } catch DecodingError.dataCorrupted {
            // The marker was read, so the JSON is whole: this is a number Foundation cannot hold (`"volume": 1e19`,
            // `"position": 1e400`), which it calls "not valid JSON".
            throw Self.numberOutOfRange(bytes)
        } catch let DecodingError.keyNotFound(key, _) {
            throw PlayerStateError("missing \"\(key.stringValue)\"")
        } catch {
            throw PlayerStateError("not a kiosk state file (\(error))")
        }
        try state.validate()
        return state
    }

    /// Checks the values a hand-edited or damaged file could get wrong: every time is a `TimeSpan` (0 to 100
    /// years; the alert's end, a `WallInstant`, is checked as it is decoded).
    func validate() throws(PlayerStateError) {
        guard (0...100).contains(volume) else { throw PlayerStateError("volume \(volume) is not 0...100") }
        for (name, value) in [("position", position), ("duration", duration)] {
            if let v = value, TimeSpan(seconds: v) == nil { throw PlayerStateError("\(name) \(TimeSpan.refusal(v))") }
        }
        if let bad = resume.first(where: { TimeSpan(seconds: $0.value) == nil }) {
            throw PlayerStateError("resume position of \(bad.key): \(TimeSpan.refusal(bad.value))")
        }
        for (name, screen) in screens ?? [:] {
            for (what, value) in [("position", screen.position), ("duration", screen.duration)] {
                if let v = value, TimeSpan(seconds: v) == nil { throw PlayerStateError("screen \(name)'s \(what) \(TimeSpan.refusal(v))") }
            }
        }
    }

    /// Names the number that no Int (or Double) holds: the volume when it is that one.
    private static func numberOutOfRange(_ bytes: Data) -> PlayerStateError {
        if let top = try? JSONValue.parse([UInt8](bytes)), case .double(let v)? = top["volume"] {
            return PlayerStateError("volume \(v) is not 0...100")
        }
        return PlayerStateError("a number in it is out of range")
    }

    /// Just the marker, read first so that another program's JSON is named as such.
    private struct Marker: Decodable {
        var present: Bool
        var format: Int?
        enum CodingKeys: String, CodingKey { case format = "kiosk-state" }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)  // not an object: typeMismatch
            present = c.contains(.format)
            format = try? c.decodeIfPresent(Int.self, forKey: .format)
        }
    }

    private static func describe(_ path: [CodingKey]) -> String {
        path.isEmpty ? "the top" : "\"" + path.map(\.stringValue).joined(separator: ".") + "\""
    }
}
