import Foundation

/// The answer to one request of mpv's JSON IPC (`{"data": ..., "request_id": N, "error": "success"}`).
struct IPCReply {
    /// The line as the server sent it.
    let line: String
    /// mpv's error string: "success", or why the request failed.
    let error: String
    /// The `data` field; nil when the reply has none.
    let data: Any?

    /// Whether the request succeeded.
    var succeeded: Bool { error == "success" }
}

/// A line the server sent on its own (`{"event": "property-change", ...}`).
struct IPCEvent {
    /// The line as the server sent it.
    let line: String
    /// The event's name.
    let name: String
    /// All of the event's fields.
    let fields: [String: Any]
}

/// A client of mpv's JSON IPC (DOCS/man/ipc.rst): one JSON object per line, requests numbered by `request_id`,
/// replies matched by it, events between replies handed to the caller or skipped. Every wait for a reply is
/// bounded by `timeout`.
final class IPCClient {
    /// The connection.
    let connection: IPCConnection
    /// Seconds to wait for each batch of replies.
    let timeout: Double
    private var nextID = 1

    /// Connects to `socket`.
    init(socket: String, timeout: Double) throws(IPCClientError) {
        connection = try IPCConnection(socket: socket, timeout: timeout)
        self.timeout = timeout
    }

    /// Sends `command` and returns its reply; events read before it go to `onEvent`.
    func request(_ command: [Any], onEvent: (IPCEvent) -> Void = { _ in }) throws(IPCClientError) -> IPCReply {
        let replies = try request([command], onEvent: onEvent)
        guard let reply = replies.first else { throw .closed(socket: connection.socket, request: Self.name(command)) }
        return reply
    }

    /// Sends `commands` one after the other without waiting, then returns their replies in the same order
    /// (matched by request id, whatever order they come in); events read meanwhile go to `onEvent`.
    func request(_ commands: [[Any]], onEvent: (IPCEvent) -> Void = { _ in }) throws(IPCClientError) -> [IPCReply] {
        var pending: [Int: Int] = [:]  // request id -> index in commands
        for (index, command) in commands.enumerated() {
            let id = nextID
            nextID += 1
            pending[id] = index
            try connection.send(try Self.encode(["command": command, "request_id": id], request: Self.name(command)))
        }
        var replies = [IPCReply?](repeating: nil, count: commands.count)
        let deadline = IPCDeadline(seconds: timeout)
        while let first = pending.values.min() {
            let name = Self.name(commands[first])
            guard let line = try connection.readLine(until: deadline, request: name) else {
                throw .closed(socket: connection.socket, request: name)
            }
            guard let object = try parse(line) else { continue }
            if let event = object["event"] as? String {
                onEvent(IPCEvent(line: line, name: event, fields: object))
                continue
            }
            guard let id = object["request_id"] as? Int, let index = pending.removeValue(forKey: id) else { continue }
            replies[index] = IPCReply(line: line, error: object["error"] as? String ?? "no error field in the reply",
                                      data: object["data"])
        }
        return replies.compactMap { $0 }
    }

    /// Hands every event to `each` until the server closes the connection (or the connection is interrupted);
    /// stray replies are skipped. No time limit.
    func events(_ each: (IPCEvent) -> Void) throws(IPCClientError) {
        while let line = try connection.readLine(until: nil, request: "events") {
            guard let object = try parse(line), let event = object["event"] as? String else { continue }
            each(IPCEvent(line: line, name: event, fields: object))
        }
    }

    /// The line as a JSON object; nil for an empty line.
    private func parse(_ line: String) throws(IPCClientError) -> [String: Any]? {
        if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { return nil }
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw .badReply(socket: connection.socket, line: line)
        }
        return object
    }

    /// `command` as one line of JSON.
    private static func encode(_ request: [String: Any], request name: String) throws(IPCClientError) -> String {
        guard JSONSerialization.isValidJSONObject(request),
              let data = try? JSONSerialization.data(withJSONObject: request, options: [.withoutEscapingSlashes, .sortedKeys]) else {
            throw .failed(request: name, error: "cannot be written as JSON")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A command's name and arguments for messages: `set_property pause true`.
    static func name(_ command: [Any]) -> String {
        command.map { $0 as? String ?? text($0) }.joined(separator: " ")
    }

    /// A value as JSON text (`true`, `50`, `"a"`, `[1,2]`, `null`).
    static func text(_ value: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: value,
                                                     options: [.fragmentsAllowed, .withoutEscapingSlashes, .sortedKeys]) else {
            return String(describing: value)
        }
        return String(decoding: data, as: UTF8.self)
    }
}
