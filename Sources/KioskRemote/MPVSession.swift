import Foundation
import KioskCore

/// mpv's JSON IPC (DOCS/man/ipc.rst) over the line server: one JSON request per line, answered in order with
/// `{"data":…,"request_id":…,"error":…}`; a line not starting with `{` is an input.conf command, run without a
/// reply. Requests that change the player become `PlayerCommand`s in its inbox: a client's next request waits
/// until the player has run them, so a `get_property` after a `set_property` sees the new value. Events and
/// observed properties come from the player's board. Runs on the server's thread only.
public final class MPVSession: LineSessionHandler {
    /// One client's state.
    final class Client {
        let name: String
        /// Lines received and not handled yet (they wait while the player runs this client's last request).
        var queue: [[UInt8]] = []
        var waiting = false
        var observed: [Observation] = []
        var disabled = Set<String>()
        var logLevel: LogLevel?
        /// Closed for flooding; what it still sends is dropped.
        var closing = false
        init(name: String) { self.name = name }
    }

    /// An observe_property registration.
    struct Observation {
        let id: JSONValue
        let name: String
        let asString: Bool
        /// What was last sent (nil: nothing yet; .some(nil): sent without data).
        var last: JSONValue??
    }

    let board: PlayerBoard
    let sink: CommandSink
    let log: Log
    /// The properties and the command table's commands, as the web page has them too.
    let resolver: MPVRequestResolver
    let mailbox = MPVMailbox()
    private var subscription: BoardSubscription?
    var clients: [ClientID: Client] = [:]
    private var named = 0
    /// Whether an item's picture is on screen (for video-reconfig when it goes).
    private var pictureShown = false
    /// mpv 0.35's client API version (2.0), which kiosk's subset follows.
    static let clientAPIVersion: Int64 = 0x2_0000

    /// A session sending commands to `sink` and reading `board`; `keys` maps mpv key names to evdev codes.
    public init(board: PlayerBoard, sink: CommandSink, gate: MediaGate, log: Log, reports: PlayReports = PlayReports(),
                keys: @escaping @Sendable (String) -> Int?) {
        self.board = board
        self.sink = sink
        self.log = log
        resolver = MPVRequestResolver(board: board, gate: gate, keys: keys, reports: reports, log: log)
    }

    /// Starts hearing the board and the player's replies; `wake` raises the server's wakeup.
    public func attach(wake: @escaping @Sendable () -> Void) {
        mailbox.wake = wake
        subscription = board.subscribe(wake: wake)
        log.tap { [mailbox] level, line in mailbox.logged(level, line) }
    }

    /// Stops hearing the board.
    public func detach() {
        subscription?.cancel()
        subscription = nil
    }

    // MARK: - LineSessionHandler

    public func accepted(_ client: ClientID, context: LineServerContext) {
        clients[client] = Client(name: "ipc_\(named)")  // mpv names IPC clients ipc_0, ipc_1…
        named += 1
    }

    /// Requests a client may have waiting behind one the player is running; a client past it is closed, so a
    /// flood of requests cannot grow the server without bound (lines are at most 1 MiB each).
    static let maxWaitingRequests = 1024

    public func received(_ line: [UInt8], from client: ClientID, context: LineServerContext) {
        guard let c = clients[client] else { return }
        guard c.queue.count < Self.maxWaitingRequests else {
            if !c.closing {
                c.closing = true
                log.warn("ipc: \(c.name) sent over \(Self.maxWaitingRequests) requests without waiting for replies: closing it")
                context.close(client, flush: true)
            }
            return
        }
        c.queue.append(line)
        pump(client, context)
    }

    public func overlong(from client: ClientID, limit: Int, context: LineServerContext) {
        log.warn("ipc: \(clients[client]?.name ?? "\(client)") sent a line over \(limit) bytes: closing it")
        send(reply(.failure(.invalidParameter), id: nil), to: client, context)
    }

    public func closed(_ client: ClientID, context: LineServerContext) {
        clients[client] = nil
    }

    public func woken(context: LineServerContext) {
        let (done, lines) = mailbox.take()
        for d in done {
            guard let c = clients[d.client] else { continue }
            c.waiting = false
            if let id = d.requestID { send(reply(d.result, id: id), to: d.client, context) }
            pump(d.client, context)
        }
        if !lines.isEmpty { sendLogMessages(lines, context) }
        guard let (events, status) = subscription?.take() else { return }
        for e in events {
            var out = MPVEvents.events(for: e)
            // As mpv's video output, the picture going away (idle after an item) is a reconfiguration too.
            if case .itemStarted = e { pictureShown = true }
            if case .idle = e, pictureShown {
                out.insert(.object([("event", .string("video-reconfig"))]), at: 0)
                pictureShown = false
            }
            for event in out { broadcast(event, context) }
        }
        if let status { notifyObservers(status, context) }
    }

    // MARK: - requests

    /// Handles queued lines until one waits for the player.
    func pump(_ client: ClientID, _ context: LineServerContext) {
        while let c = clients[client], !c.waiting, !c.queue.isEmpty {
            handle(c.queue.removeFirst(), from: client, context)
        }
    }

    private func handle(_ line: [UInt8], from client: ClientID, _ context: LineServerContext) {
        guard let first = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
        guard line[first] == UInt8(ascii: "{") else {
            runText(line, from: client, context)
            return
        }
        let request: JSONValue
        do { request = try JSONValue.parse(line) } catch {
            log.debug("ipc: \(clients[client]?.name ?? "?"): malformed JSON: \(error)")
            return send(reply(.failure(.invalidParameter), id: nil), to: client, context)
        }
        let id = request["request_id"]
        guard case .object = request else { return send(reply(.failure(.invalidParameter), id: id), to: client, context) }
        if let async = request["async"] {
            guard case .bool = async else { return send(reply(.failure(.invalidParameter), id: id), to: client, context) }
        }
        guard let (name, args) = Self.command(request["command"]) else {
            return send(reply(.failure(.invalidParameter), id: id), to: client, context)
        }
        run(name, args, from: client, requestID: id ?? .int(0), context)
    }

    /// The command's name and arguments: `["name", args…]`, or mpv's named form `{"name": …, "arg": …}`.
    static func command(_ node: JSONValue?) -> (String, MPVArgs)? {
        switch node {
        case .array(let items)?:
            guard case .string(let name)? = items.first else { return nil }
            return (name, MPVArgs(values: Array(items.dropFirst())))
        case .object(let members)?:
            // mpv takes the named form for its commands, not for the IPC layer's own (get_property…).
            guard case .string(let name)? = members.first(where: { $0.0 == "name" })?.1,
                  !ipcCommands.contains(name) else { return nil }
            let spec = MPVCommandTable.byName[name]
            var values: [JSONValue] = []
            for arg in spec?.args ?? [] {
                guard let v = members.first(where: { $0.0 == arg.name })?.1 else { break }
                values.append(v)
            }
            return (name, MPVArgs(values: values))
        default:
            return nil
        }
    }

    /// Runs one command for `client`; `requestID` nil: a text command, which gets no reply.
    func run(_ name: String, _ args: MPVArgs, from client: ClientID, requestID: JSONValue?, _ context: LineServerContext) {
        let result: MPVResult
        do throws(MPVError) {
            let action: MPVAction
            if let ipc = try ipcCommand(name, args, client: client) {
                action = ipc
            } else {
                action = try resolver.action(name, args)
            }
            switch action {
            case .reply(let r):
                result = r
            case .broadcast(let words):
                broadcast(.object([("event", .string("client-message")), ("args", .array(words.map { .string($0) }))]), context)
                result = .success(nil)
            case .player(let commands, let failure, let data):
                return sendToPlayer(commands, failure: failure, data: data, client: client, requestID: requestID)
            }
        } catch {
            result = .failure(error)
        }
        if let requestID { send(reply(result, id: requestID), to: client, context) }
        if case .success = result, name == "observe_property" || name == "observe_property_string" {
            notifyObservers(board.status, context, only: client)  // the current value, right after the reply
        }
    }

    /// Sends `commands` to the player; the client waits until the last has run.
    func sendToPlayer(_ commands: [PlayerCommand], failure: MPVError, data: MPVReplyData, client: ClientID,
                      requestID: JSONValue?) {
        clients[client]?.waiting = true
        let tally = MPVTally(count: commands.count)
        for command in commands {
            sink.send(command) { [mailbox] reply in
                guard let all = tally.record(reply) else { return }
                mailbox.finished(MPVMailbox.Done(client: client, requestID: requestID,
                                                 result: all.done ? .success(data.value(ids: all.ids)) : .failure(failure)))
            }
        }
    }

    /// An input.conf line: `set pause yes`, `playlist-next`, `cycle pause`; prefixes such as `no-osd` are
    /// dropped. No reply, but the client's later requests still wait for it.
    private func runText(_ line: [UInt8], from client: ClientID, _ context: LineServerContext) {
        let words = MPVTextCommand.words(String(decoding: line, as: UTF8.self))
        guard let name = words.first else { return }
        run(name, MPVArgs(values: words.dropFirst().map { .string($0) }), from: client, requestID: nil, context)
    }

    // MARK: - writing

    /// A reply line: `data` (when present), `request_id` (echoed, or 0), `error`.
    func reply(_ result: MPVResult, id: JSONValue?) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if case .success(let data?) = result { members.append(("data", data)) }
        members.append(("request_id", id ?? .int(0)))
        switch result {
        case .success: members.append(("error", .string("success")))
        case .failure(let e): members.append(("error", .string(e.text)))
        }
        return .object(members)
    }

    func send(_ value: JSONValue, to client: ClientID, _ context: LineServerContext) {
        context.send(Array((value.text + "\n").utf8), to: client)
    }

    /// An event to every client that has not disabled it.
    func broadcast(_ event: JSONValue, _ context: LineServerContext) {
        let name = event["event"]?.string ?? ""
        for (id, c) in clients where !c.disabled.contains(name) { send(event, to: id, context) }
    }

    /// property-change events for observed properties whose value changed (all of `only`'s new ones).
    func notifyObservers(_ status: PlayerStatus, _ context: LineServerContext, only: ClientID? = nil) {
        for (id, c) in clients where only == nil || only == id {
            guard !c.disabled.contains("property-change") else { continue }
            for i in c.observed.indices {
                let o = c.observed[i]
                var value = resolver.propertyValue(o.name, status)
                if o.asString { value = value.map { .string(MPVEvents.string($0)) } }
                if let last = o.last, last == value { continue }
                c.observed[i].last = .some(value)
                send(MPVEvents.propertyChange(id: o.id, name: o.name, value: value), to: id, context)
            }
        }
    }

    /// log-message events for clients that asked (request_log_messages), at their level.
    private func sendLogMessages(_ lines: [(LogLevel, String)], _ context: LineServerContext) {
        for (id, c) in clients {
            guard let wanted = c.logLevel, !c.disabled.contains("log-message") else { continue }
            for (level, text) in lines where level <= wanted {
                send(.object([("event", .string("log-message")), ("prefix", .string("kiosk")),
                              ("level", .string(level.name)), ("text", .string(text + "\n"))]), to: id, context)
            }
        }
    }
}
