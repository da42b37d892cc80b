import Foundation
import KioskCore

/// The schedule of one kind of report, on a thread of its own: a pass at once, then one every `period` seconds while
/// they succeed; after a failure the next pass comes sooner and backs off (`retry.first`, doubling up to
/// `retry.most`) until one succeeds. `wake` runs a pass now; `stop` ends the thread.
final class ReportLoop: @unchecked Sendable {
    private let name: String
    private let period: Double
    private let retry: (first: Double, most: Double)
    private let pass: @Sendable () -> Bool
    private let cond = NSCondition()
    // guarded by `cond`
    private var stopping = false
    private var woken = false
    private var running = false
    private var started = false

    /// A loop named `name` (the thread's name) running `pass` (true: delivered, or nothing to deliver).
    init(name: String, period: Double, retry: (first: Double, most: Double), pass: @escaping @Sendable () -> Bool) {
        self.name = name
        self.period = max(0.01, period)
        self.retry = (max(0.01, retry.first), max(retry.first, retry.most))
        self.pass = pass
    }

    /// Starts the thread (once).
    func start() {
        cond.lock()
        defer { cond.unlock() }
        guard !started else { return }
        started = true
        running = true
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Runs a pass now rather than at the end of the wait.
    func wake() {
        cond.lock()
        woken = true
        cond.broadcast()
        cond.unlock()
    }

    /// Ends the thread, waiting up to `seconds` for a pass under way to end (a transfer gives up within a minute).
    func stop(waiting seconds: Double) {
        cond.lock()
        stopping = true
        cond.broadcast()
        let until = Date(timeIntervalSinceNow: seconds)
        while running, cond.wait(until: until) {}
        cond.unlock()
    }

    /// Whether `stop` was asked.
    var isStopping: Bool {
        cond.lock()
        defer { cond.unlock() }
        return stopping
    }

    private func run() {
        var failures = 0
        while !isStopping {
            failures = pass() ? 0 : failures + 1
            let wait = failures == 0 ? period : min(retry.most, retry.first * pow(2, Double(min(failures - 1, 30))))
            cond.lock()
            let until = Date(timeIntervalSinceNow: wait)
            while !stopping, !woken, cond.wait(until: until) {}
            woken = false
            cond.unlock()
        }
        cond.lock()
        running = false
        cond.broadcast()
        cond.unlock()
    }
}

/// Whether a reporter's deliveries are failing, and why: each change is said once (a failure, a different failure,
/// delivery again), never once per retry.
final class ReportTrouble: @unchecked Sendable {
    private let lock = NSLock()
    private var reason: String?

    /// Records a failure for `reason`; true when that is news (the last pass succeeded, or failed otherwise).
    /// Numbers in the words do not make news: curl's "after 4 ms" is the same failure as its "after 0 ms".
    func failed(_ reason: String) -> Bool {
        let key = Self.key(reason)
        lock.lock()
        defer { lock.unlock() }
        guard self.reason != key else { return false }
        self.reason = key
        return true
    }

    /// `reason` with its numbers but an HTTP status left out.
    static func key(_ reason: String) -> String {
        var out = "", digits = "", previous = ""
        for c in reason + " " {
            if c.isASCII && c.isNumber {
                digits.append(c)
                continue
            }
            if !digits.isEmpty {
                out += previous.hasSuffix("HTTP ") ? digits : "#"
                digits = ""
            }
            out.append(c)
            previous = String(out.suffix(5))
        }
        return out
    }

    /// Records a delivery; true when the passes before it failed.
    func delivered() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        defer { reason = nil }
        return reason != nil
    }
}

/// Seconds as a log line says them: `45 s`, `10 min`.
func reportSeconds(_ s: Double) -> String {
    s < 90 ? (s < 10 && s != s.rounded() ? String(format: "%.1f s", s) : "\(Int(saturating: s)) s") : "\(Int(saturating: s / 60)) min"
}
