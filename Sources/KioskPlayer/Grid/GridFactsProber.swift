import Foundation
import KioskCore
import KioskMedia

/// Probes every playlist item's headers on one background thread, in playlist order, so the grid's filter
/// chips and badges know each item's kind, length and projection without decoding it. Results are kept by path
/// (a few bytes each); `count` grows as they land and the loop is woken (at most every 0.2 s) to show them.
final class GridFactsProber: @unchecked Sendable {
    private let lock = NSCondition()
    private var queue: [(path: String, override: ProjectionOverride?)] = []
    private var next = 0
    private var known: [String: TileFacts] = [:]
    private var done = Set<String>()
    private var stopped = false
    private var lastWake = 0.0
    private let limits: DecodeLimits
    private let log: Log
    private let onProgress: @Sendable () -> Void
    private var thread: Thread?

    /// A prober; `onProgress` is called from its thread when new facts are in.
    init(limits: DecodeLimits, log: Log, onProgress: @escaping @Sendable () -> Void) {
        self.limits = limits
        self.log = log
        self.onProgress = onProgress
        let t = Thread { [weak self] in self?.work() }
        t.name = "kiosk-grid-facts"
        thread = t
        t.start()
    }

    /// Probes `items` not probed yet, in order (replacing what was still queued).
    func probe(_ items: [PlaylistItem]) {
        lock.lock()
        queue = items.filter { !done.contains($0.path) }.map { ($0.path, $0.override) }
        next = 0
        lock.signal()
        lock.unlock()
    }

    /// The facts of `path`, once probed (nil until then, and for a file that cannot be probed).
    func facts(for path: String) -> TileFacts? {
        lock.lock()
        defer { lock.unlock() }
        return known[path]
    }

    /// How many items have been probed so far.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return done.count
    }

    /// Stops the thread (the queue is dropped).
    func stop() {
        lock.lock()
        stopped = true
        queue = []
        lock.signal()
        lock.unlock()
    }

    private func work() {
        while true {
            lock.lock()
            while !stopped && next >= queue.count { lock.wait() }
            if stopped {
                lock.unlock()
                return
            }
            let job = queue[next]
            next += 1
            lock.unlock()
            let facts = try? TileFactsProbe.facts(path: job.path, override: job.override, limits: limits)
            lock.lock()
            done.insert(job.path)
            if let facts { known[job.path] = facts }
            let now = MonotonicClock.seconds()
            let wake = now - lastWake >= 0.2 || next >= queue.count
            if wake { lastWake = now }
            lock.unlock()
            if wake { onProgress() }
        }
    }
}
