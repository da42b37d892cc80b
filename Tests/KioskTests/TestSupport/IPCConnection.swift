import Foundation
import KioskCore
@testable import KioskRemote

/// A test's mpv-IPC client over `UnixSocketClient`: requests with ids, replies matched by id, events kept in
/// order for the test to look at. Every wait is bounded.
final class IPCConnection {
    let socket: UnixSocketClient
    /// Events received so far (and not yet taken).
    private(set) var events: [JSONValue] = []
    private var nextID = 1

    init(path: String, timeout: Double = 5) throws {
        socket = try UnixSocketClient(path: path, timeout: timeout)
    }

    /// Sends `command` (a JSON array text such as `["get_property","pause"]`) and returns the reply.
    func request(_ command: String, timeout: Double = 10) throws -> JSONValue {
        let id = nextID
        nextID += 1
        try socket.write(#"{"command":\#(command),"request_id":\#(id)}"# + "\n")
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, let line = try socket.readLine(timeout: left) else {
                throw SocketTestError(description: "no reply to \(command)")
            }
            let value = try JSONValue.parse(Array(line.utf8))
            if value["event"] != nil { events.append(value); continue }
            if value["request_id"] == .int(Int64(id)) { return value }
        }
    }

    /// The next line that is not an event (events are kept), as sent.
    func nextReply(timeout: Double = 10) throws -> String {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, let line = try socket.readLine(timeout: left) else { throw SocketTestError(description: "no reply") }
            let value = try JSONValue.parse(Array(line.utf8))
            if value["event"] != nil { events.append(value); continue }
            return line
        }
    }

    /// A request's `data` after checking it succeeded.
    func get(_ property: String) throws -> JSONValue? {
        let r = try request(#"["get_property","\#(property)"]"#)
        guard r["error"] == .string("success") else { throw SocketTestError(description: "get \(property): \(r.text)") }
        return r["data"]
    }

    /// Waits until an event named `name` (matching `where`) has come; returns it, or nil on time-out.
    func waitForEvent(_ name: String, timeout: Double = 10, where match: (JSONValue) -> Bool = { _ in true }) throws -> JSONValue? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            if let i = events.firstIndex(where: { $0["event"] == .string(name) && match($0) }) {
                let e = events[i]
                events.removeSubrange(...i)
                return e
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            guard let line = try? socket.readLine(timeout: left) else { return nil }
            events.append(try JSONValue.parse(Array(line.utf8)))
        }
    }
}
