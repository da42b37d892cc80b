import Foundation
import KioskCore

/// What reaches the fleet's thread from the others: the broker's events (libmosquitto's network thread), the
/// board's news and the player's replies (the player's thread). Each sender only appends and signals; the fleet's
/// thread takes everything at once. Thread-safe.
final class FleetMailbox: BrokerEvents, @unchecked Sendable {
    /// One piece of news.
    enum News: Sendable {
        case connected
        case refused(String)
        case lost(String)
        case unreachable(String)
        case message(topic: String, payload: [UInt8])
        /// A message too big to take arrived on `topic` (its size in bytes); it was not copied.
        case oversized(topic: String, bytes: Int)
        case published(Int32)
        /// The player answered a command that came in on `topic`.
        case replied(topic: String, CommandReply)
        /// A snapshot for the camera was written to the file at the path (or failed).
        case snapshot(CommandReply, path: String)
        /// The schedule started a target (its name; nil: the command line's paths, or the screen is off).
        case schedulePlays(String?)
    }

    private let condition = NSCondition()
    private var news: [News] = []
    private var boardChanged = false
    private var stopping = false

    private func add(_ n: News) {
        condition.lock()
        news.append(n)
        condition.signal()
        condition.unlock()
    }

    /// Adds news from any thread.
    func post(_ n: News) { add(n) }

    /// The board has news (called on the player's thread).
    func boardHasNews() {
        condition.lock()
        boardChanged = true
        condition.signal()
        condition.unlock()
    }

    /// Asks the fleet's thread to end.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    /// Waits until there is something (or `deadline`, monotonic seconds, passes), then takes it all (a stop is
    /// taken once).
    func take(until deadline: Double?) -> (news: [News], board: Bool, stop: Bool) {
        condition.lock()
        defer { condition.unlock() }
        while news.isEmpty && !boardChanged && !stopping {
            guard let deadline else { condition.wait(); continue }
            let left = deadline - MonotonicClock.seconds()
            if left <= 0 || !condition.wait(until: Date(timeIntervalSinceNow: left)) { break }
        }
        let out = (news, boardChanged, stopping)
        news.removeAll()
        boardChanged = false
        stopping = false
        return out
    }

    // MARK: - BrokerEvents

    func brokerConnected() { add(.connected) }
    func brokerRefused(_ reason: String) { add(.refused(reason)) }
    func brokerLost(_ reason: String) { add(.lost(reason)) }
    func brokerUnreachable(_ reason: String) { add(.unreachable(reason)) }
    func brokerMessage(topic: String, payload: [UInt8]) { add(.message(topic: topic, payload: payload)) }
    func brokerOversized(topic: String, bytes: Int) { add(.oversized(topic: topic, bytes: bytes)) }
    func brokerPublished(_ mid: Int32) { add(.published(mid)) }
}
