import Foundation
@preconcurrency import Glibc
import KioskCore
import KioskRemote

/// Lines a `Log` wrote, kept for a test to look at. Thread-safe.
final class CapturedLog: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []

    /// A log at debug level writing into a new capture.
    static func make() -> (Log, CapturedLog) {
        let capture = CapturedLog()
        return (Log(level: .debug) { capture.append($0) }, capture)
    }

    private func append(_ line: String) {
        lock.lock(); kept.append(line); lock.unlock()
    }

    /// The lines so far.
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return kept }

    /// How many lines so far contain `text`.
    func count(_ text: String) -> Int { lines.filter { $0.contains(text) }.count }
}

/// A line protocol for the tests, recording every call and the thread it came on.
/// `LINE` gets `echo:LINE`; `flood` gets 64 KiB; `big` gets 1 MiB; `bye` gets `bye` and a close after it;
/// an overlong line gets `error:overlong LIMIT`.
final class EchoHandler: LineSessionHandler, @unchecked Sendable {
    private let state = NSCondition()
    private var kept: [String] = []
    private var callThreads: Set<UInt> = []

    /// What happened, in order: `accepted 3`, `closed 3`, `overlong 3`, `woken`, `refused 3` (a send that
    /// returned false).
    var events: [String] { state.lock(); defer { state.unlock() }; return kept }
    /// The threads the handler was called on.
    var threads: Set<UInt> { state.lock(); defer { state.unlock() }; return callThreads }
    /// How many `woken` calls so far.
    var wokenCount: Int { events.filter { $0 == "woken" }.count }

    private func record(_ event: String?) {
        state.lock()
        if let event { kept.append(event) }
        callThreads.insert(UInt(pthread_self()))
        state.broadcast()
        state.unlock()
    }

    /// Waits up to `timeout` seconds until `events` satisfy `condition`; false on time-out.
    func wait(timeout: Double = 5, until condition: ([String]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        state.lock()
        defer { state.unlock() }
        while !condition(kept) {
            if !state.wait(until: deadline) { return condition(kept) }
        }
        return true
    }

    /// Waits until `event` has been recorded.
    func wait(for event: String, timeout: Double = 5) -> Bool { wait(timeout: timeout) { $0.contains(event) } }

    private func reply(_ bytes: [UInt8], to client: ClientID, context: LineServerContext) {
        if !context.send(bytes, to: client) { record("refused \(client.value)") }
    }

    func accepted(_ client: ClientID, context: LineServerContext) { record("accepted \(client.value)") }

    func received(_ line: [UInt8], from client: ClientID, context: LineServerContext) {
        record(nil)
        switch String(decoding: line, as: UTF8.self) {
        case "flood": reply([UInt8](repeating: UInt8(ascii: "x"), count: (64 << 10) - 1) + [10], to: client, context: context)
        case "big": reply([UInt8](repeating: UInt8(ascii: "b"), count: 1 << 20) + [10], to: client, context: context)
        case "bye":
            reply(Array("bye\n".utf8), to: client, context: context)
            context.close(client, flush: true)
        default: reply(Array("echo:".utf8) + line + [10], to: client, context: context)
        }
    }

    func overlong(from client: ClientID, limit: Int, context: LineServerContext) {
        record("overlong \(client.value)")
        reply(Array("error:overlong \(limit)\n".utf8), to: client, context: context)
    }

    func closed(_ client: ClientID, context: LineServerContext) { record("closed \(client.value)") }

    func woken(context: LineServerContext) { record("woken") }
}
