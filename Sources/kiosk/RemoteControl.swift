import Foundation
import KioskCore
import KioskMedia
import KioskPlayer
import KioskRemote

/// `kiosk play --input-ipc-server PATH`: mpv's JSON IPC on a Unix socket. The socket is bound before the output
/// opens (a path another server holds fails at once, exit 1), and served once the player runs: requests become
/// commands in the player's inbox; replies, events and properties come from its board.
final class RemoteControl {
    private let server: IPCSocketServer
    private let session: MPVSession
    private let relay = CommandRelay()
    /// The board the player posts to (given to the player before it runs; the fleet's MQTT client reads it too).
    let board: PlayerBoard

    /// Binds the socket the options name, serving from `board`; nil without `--input-ipc-server`. With `screen`
    /// (a screen after the first), the socket is the option's path with `.NAME` after it.
    static func bind(_ o: ParsedOptions, board: PlayerBoard, reports: PlayReports, screen: String? = nil, log: Log) throws -> RemoteControl? {
        guard let given = o.string("input-ipc-server") else {
            if o.string("ipc-mode") != nil { throw UsageError("--ipc-mode needs --input-ipc-server") }
            if o.string("media-root") != nil, o.string("mqtt") == nil, o.string("http") == nil {
                throw UsageError("--media-root needs --input-ipc-server, --mqtt or --http")
            }
            return nil
        }
        let path = (given == "auto" ? IPCSocketPath.standard(environment: ProcessInfo.processInfo.environment) : given)
            + (screen.map { "." + $0 } ?? "")
        let mode: UInt32 = o.string("ipc-mode") == "0660" ? 0o660 : 0o600
        return try RemoteControl(path: path, mode: mode, gate: try mediaGate(o, log: log), board: board, reports: reports, log: log)
    }

    /// The media gate of `--media-root` (anywhere without it), for every remote: IPC and MQTT.
    static func mediaGate(_ o: ParsedOptions, log: Log) throws -> MediaGate {
        do {
            // confined: a playlist a remote loads may not name a playlist or folder outside the root
            let gate = try MediaGate(root: o.string("media-root"), log: log) { path in
                PlaylistLoader(log: log, confined: true).load([path])
            }
            // from here on what lies beneath the root is opened through its descriptor, not by name
            if let root = gate.root { try MediaConfinement.confine(root: root) }
            return gate
        } catch let error as IPCSetupError {
            throw UsageError(error.description)
        } catch let error as MediaError {
            throw UsageError(error.reason)
        }
    }

    private init(path: String, mode: UInt32, gate: MediaGate, board: PlayerBoard, reports: PlayReports, log: Log) throws {
        self.board = board
        session = MPVSession(board: board, sink: relay, gate: gate, log: log, reports: reports, keys: { MPVKeyNames.code($0) })
        server = try IPCSocketServer(path: path, mode: mode, handler: session, log: log)
    }

    /// Serves `player` from now on (its screen `screen`; nil: the first).
    func serve(_ player: Player, screen: String? = nil) {
        if let screen {
            player.setBoard(board, forScreen: screen)
            relay.target = player.commandSink(forScreen: screen)
        } else {
            player.board = board
            relay.target = player.inbox
        }
        player.postStatusNow()
        session.attach(wake: { [server] in server.wake() })
        server.start()
    }

    /// Closes every connection and removes the socket.
    func stop() {
        server.stop()
        session.detach()
    }
}

/// The player's inbox once it exists; until then a command is refused (IPC's and the web page's).
final class CommandRelay: CommandSink, @unchecked Sendable {
    private let lock = NSLock()
    private var _target: CommandSink?

    var target: CommandSink? {
        get { lock.lock(); defer { lock.unlock() }; return _target }
        set { lock.lock(); _target = newValue; lock.unlock() }
    }

    func send(_ command: PlayerCommand, reply: (@Sendable (CommandReply) -> Void)?) {
        guard let t = target else {
            reply?(.failed("the player is not running yet"))
            return
        }
        t.send(command, reply: reply)
    }
}
