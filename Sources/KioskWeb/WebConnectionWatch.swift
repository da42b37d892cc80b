import Foundation
import Glibc
import KioskCore

/// Times every connection's wait for a request's headers, and for a form's or JSON's body: one that has not sent
/// its headers `headerSeconds` after it opened (or after its last answer, on a kept-alive connection), or its body
/// by the deadline `reading` set, is cut off (shutdown(2) of its socket, which libmicrohttpd then closes).
/// libmicrohttpd's own timeout counts idle time only, so a slow-loris client that trickles a byte every few seconds
/// would otherwise hold its connection for ever.
///
/// It also budgets the connections that wait for headers: past `waiting` of them (below libmicrohttpd's own limit,
/// so a slot is always free), a new connection cuts the oldest waiting one of the address that holds the most. A
/// few addresses (loopback has 16 million) that open connections and send half a request can then not shut out a
/// fresh client, which is accepted at once and answered.
final class WebConnectionWatch: @unchecked Sendable {
    private struct Entry {
        let socket: Int32
        /// The client's address: connections are budgeted by it.
        let address: String
        var since: Double
        var busy: Bool
        /// When a body being read must be in (monotonic seconds); nil: no body is timed.
        var deadline: Double?
    }
    private let lock = NSLock()
    private var entries: [Int: Entry] = [:]
    private var stopping = false
    private let ended = DispatchSemaphore(value: 0)
    private let tick = DispatchSemaphore(value: 0)
    private var running = false
    /// Connections cut off so far.
    private(set) var cut = 0
    /// The most connections that may wait for headers at once.
    private let waiting: Int

    /// A watch that lets at most `waiting` connections wait for headers at once.
    init(waiting: Int) { self.waiting = max(1, waiting) }

    private static func key(_ c: OpaquePointer) -> Int { Int(bitPattern: UnsafeRawPointer(c)) }

    /// A connection from `address` is open: it waits for its headers. Past the budget, the oldest waiting connection
    /// of the address with the most is cut off.
    func opened(_ c: OpaquePointer, socket: Int32, address: String) {
        lock.lock()
        entries[Self.key(c)] = Entry(socket: socket, address: address, since: MonotonicClock.seconds(), busy: false, deadline: nil)
        let waitingNow = entries.filter { !$0.value.busy && $0.value.since.isFinite && $0.value.socket >= 0 }
        if waitingNow.count > waiting {
            let byAddress = Dictionary(grouping: waitingNow, by: { $0.value.address })
            if let heaviest = byAddress.max(by: { $0.value.count < $1.value.count })?.value,
               let oldest = heaviest.min(by: { $0.value.since < $1.value.since }) {
                cutOff(oldest.key)
            }
        }
        lock.unlock()
    }

    /// Cuts off the connection `k` (shutdown(2): libmicrohttpd then closes it); the lock is held.
    private func cutOff(_ k: Int) {
        guard let e = entries[k] else { return }
        shutdown(e.socket, Int32(SHUT_RDWR))
        entries[k]?.since = .infinity  // once
        entries[k]?.deadline = nil
        cut += 1
    }

    /// A request's headers are in: not timed until its answer has gone (`idle`), unless `reading` says so.
    func busy(_ c: OpaquePointer) {
        lock.lock()
        entries[Self.key(c)]?.busy = true
        entries[Self.key(c)]?.deadline = nil
        lock.unlock()
    }

    /// A request's body is being read: it must be in within `seconds`.
    func reading(_ c: OpaquePointer, seconds: Double) {
        lock.lock()
        entries[Self.key(c)]?.busy = true
        entries[Self.key(c)]?.deadline = MonotonicClock.seconds() + seconds
        lock.unlock()
    }

    /// A request is over: the wait for the next one's headers starts.
    func idle(_ c: OpaquePointer) {
        lock.lock()
        entries[Self.key(c)]?.busy = false
        entries[Self.key(c)]?.deadline = nil
        entries[Self.key(c)]?.since = MonotonicClock.seconds()
        lock.unlock()
    }

    func closed(_ c: OpaquePointer) {
        lock.lock()
        entries[Self.key(c)] = nil
        lock.unlock()
    }

    /// Checks every half second.
    func start(headerSeconds: Double) {
        running = true
        let thread = Thread { [self] in
            while true {
                _ = tick.wait(timeout: .now() + 0.5)
                lock.lock()
                if stopping { lock.unlock(); break }
                let now = MonotonicClock.seconds()
                for (k, e) in entries where e.socket >= 0 && ((!e.busy && now - e.since > headerSeconds) || now > e.deadline ?? .infinity) {
                    cutOff(k)
                }
                lock.unlock()
            }
            ended.signal()
        }
        thread.name = "kiosk-http-watch"
        thread.start()
    }

    func stop() {
        lock.lock()
        let was = running && !stopping
        stopping = true
        lock.unlock()
        guard was else { return }
        tick.signal()
        _ = ended.wait(timeout: .now() + 2)
    }
}
