import Foundation
import KioskCore

/// What crosses from other threads to the session's: requests the player finished, and log lines for clients
/// that asked for them. Thread-safe; each arrival raises the server's wakeup.
final class MPVMailbox: @unchecked Sendable {
    /// A finished request.
    struct Done: Sendable {
        let client: ClientID
        /// nil: a text command (no reply).
        let requestID: JSONValue?
        let result: MPVResult
    }

    private let lock = NSLock()
    private var done: [Done] = []
    private var lines: [(LogLevel, String)] = []
    private var wantsLines = false
    /// Log lines kept while the session is slow to take them; past this the oldest go.
    static let maxLines = 1000
    /// Raises the server's wakeup (set once, before any arrival).
    var wake: (@Sendable () -> Void)?

    func finished(_ d: Done) {
        lock.lock()
        done.append(d)
        lock.unlock()
        wake?()
    }

    /// Whether log lines are collected (some client asked for them).
    func collectLines(_ on: Bool) {
        lock.lock()
        wantsLines = on
        if !on { lines.removeAll() }
        lock.unlock()
    }

    func logged(_ level: LogLevel, _ line: String) {
        lock.lock()
        guard wantsLines else { return lock.unlock() }
        lines.append((level, line))
        if lines.count > Self.maxLines { lines.removeFirst(lines.count - Self.maxLines) }
        lock.unlock()
        wake?()
    }

    func take() -> ([Done], [(LogLevel, String)]) {
        lock.lock()
        defer { lock.unlock() }
        let out = (done, lines)
        done.removeAll()
        lines.removeAll()
        return out
    }
}

/// Counts the replies to one request's player commands: `record` returns nil until the last, then whether all
/// were done.
final class MPVTally: @unchecked Sendable {
    private let lock = NSLock()
    private var left: Int
    private var allDone = true
    private var ids: [ItemID] = []

    init(count: Int) { left = count }

    /// nil until the last reply; then whether all were done, and the ids they created.
    func record(_ reply: CommandReply) -> (done: Bool, ids: [ItemID])? {
        lock.lock()
        defer { lock.unlock() }
        switch reply {
        case .done(let made): ids += made
        case .failed: allDone = false
        }
        left -= 1
        return left == 0 ? (allDone, ids) : nil
    }
}
