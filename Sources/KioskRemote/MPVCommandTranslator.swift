import Foundation
import KioskCore

/// One mpv command array (`["playlist-next"]`, `["set_property", "volume", 30]`) turned into the player commands
/// it becomes, through the very table and resolver the IPC socket, `kiosk ctl` and the web page use, for a remote
/// that sends them itself and waits for nobody (MQTT): it returns at once, having read the player's board, and
/// never waits for the player. A command that is not a player command (a property get, `script-message`,
/// `play-report`) is refused, as is one the table refuses.
public struct MPVCommandTranslator: Sendable {
    let resolver: MPVRequestResolver

    /// A translator reading `board`, with `gate` for the commands that name local files (`loadfile PATH`,
    /// `loadlist`, `screenshot-to-file`); `log` is where the table's own warnings go.
    public init(board: PlayerBoard, gate: MediaGate, log: Log) {
        // no play log: play-report is refused here (it is a reply, not a player command), without reading one
        resolver = MPVRequestResolver(board: board, gate: gate, keys: { MPVKeyNames.code($0) }, reports: PlayReports(), log: log)
    }

    /// The player commands `request` becomes, in order (one or more), or why it is refused.
    public func commands(_ request: JSONValue) throws(MPVCommandRefusal) -> [PlayerCommand] {
        let words = MPVCommandRefusal.words(request)
        guard case .array(let array) = request, case .string(let name)? = array.first else {
            throw MPVCommandRefusal(command: words, error: .invalidParameter, reason: "not an mpv command array")
        }
        let said = SaidReason()
        let action: MPVAction
        do throws(MPVError) {
            action = try resolver.action(name, MPVArgs(values: Array(array.dropFirst())), refuse: { _, reason in said.set(reason) })
        } catch {
            throw MPVCommandRefusal(command: words, error: error, reason: said.value)
        }
        switch action {
        case .player(let commands, _, _):
            return commands
        case .reply:
            throw MPVCommandRefusal(command: words, error: .unsupported, reason: "its answer is a reply, not a player command")
        case .broadcast:
            throw MPVCommandRefusal(command: words, error: .unsupported, reason: "a script message goes to IPC clients")
        }
    }
}

/// Why an mpv command array is not turned into player commands: mpv's error (the reply IPC would give) and, when
/// the command said, the reason in kiosk's words.
public struct MPVCommandRefusal: Error, CustomStringConvertible, Sendable, Equatable {
    /// The command as words (`set_property kiosk-zoom 2`), cut for a log line.
    public let command: String
    /// mpv's error: its text is IPC's reply.
    public let error: MPVError
    /// Why, when the command said (`kiosk is not playing content from a server`).
    public let reason: String?

    /// A refusal.
    public init(command: String, error: MPVError, reason: String? = nil) {
        self.command = command
        self.error = error
        self.reason = reason
    }

    /// One line: the command and the reason, or mpv's error text.
    public var description: String { "\(command): \(reason ?? error.text)" }

    /// `request` as a text command's words (`set_property kiosk-zoom 2.0`): strings as they are, numbers as Swift
    /// writes them, flags as `yes`/`no`, other values as JSON; cut at 80 characters.
    static func words(_ request: JSONValue) -> String {
        func word(_ v: JSONValue) -> String {
            switch v {
            case .string(let s): return s
            case .int(let n): return String(n)
            case .double(let d): return String(d)
            case .bool(let b): return b ? "yes" : "no"
            default: return v.text
            }
        }
        let text: String
        if case .array(let items) = request { text = items.map(word).joined(separator: " ") } else { text = word(request) }
        return text.count <= 80 ? text : String(text.prefix(77)) + "..."
    }
}

/// The reason a command gave while it was resolved (on the caller's thread, but the closure must be Sendable).
private final class SaidReason: @unchecked Sendable {
    private let lock = NSLock()
    private var reason: String?
    func set(_ r: String) { lock.lock(); if reason == nil { reason = r }; lock.unlock() }
    var value: String? { lock.lock(); defer { lock.unlock() }; return reason }
}
