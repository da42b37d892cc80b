import Foundation
import Glibc
import KioskCore

/// Times every connection's wait for a request's headers, and for a form's or JSON's body: one that has not sent
/// its headers `headerSeconds` after it opened (or after its last answer, on a kept-alive connection), or its body
/// by the deadline `reading` set, is cut off (shutdown(2) of its socket, which libmicrohttpd then closes).
/// libmicrohttpd's own timeout counts idle time only, so a slow-loris client that trickles a byte every few seconds
/// would otherwise hold its connection for ever.
final class WebConnectionWatch: @unchecked Sendable {
    private struct Entry {
        let socket: Int32
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

    private static func key(_ c: OpaquePointer) -> Int { Int(bitPattern: UnsafeRawPointer(c)) }

    func opened(_ c: OpaquePointer, socket: Int32) {
        lock.lock()
        entries[Self.key(c)] = Entry(socket: socket, since: MonotonicClock.seconds(), busy: false, deadline: nil)
        lock.unlock()
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
                    shutdown(e.socket, Int32(SHUT_RDWR))
                    entries[k]?.since = .infinity  // once
                    entries[k]?.deadline = nil
                    cut += 1
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
