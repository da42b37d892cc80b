import Foundation
import KioskCore

/// Makes a stop signal stop the process even when the frame loop is stuck (in a long text shape, a blocked GL
/// call, a decode): the loop only checks for a stop between frames, so a frame that never ends would hold the
/// process past any stop. The first stop signal arms it; if the loop has not stood it down within `grace`
/// seconds, its own thread gives back what `ExitRestore` holds (console mode, DRM master), lets `beforeExit`
/// settle what the command leaves behind (play: the state as last known; record: its partial file), logs one line and calls `_exit` with 128 + the signal's number, the
/// status of a process ended by that signal. A clean stop stands it down and nothing of this happens.
final class StopWatchdog: @unchecked Sendable {
    /// Seconds a stop signal gives the loop to stop cleanly.
    static let grace = 1.5

    private let log: Log
    private let grace: Double
    private let restore: ExitRestore
    private let beforeExit: @Sendable () -> String
    private let condition = NSCondition()
    private var armed = false
    private var stoodDown = false

    /// A watchdog that waits `grace` seconds after the first stop signal; `beforeExit` runs (on its thread) just
    /// before an unclean exit, must be bounded in time, and says for the line what it left behind.
    init(log: Log, grace: Double = StopWatchdog.grace, restore: ExitRestore = .shared,
         beforeExit: @escaping @Sendable () -> String = { "state as last saved" }) {
        self.log = log
        self.grace = grace
        self.restore = restore
        self.beforeExit = beforeExit
    }

    /// Starts the wait for signal `number` (`name` for the line). Only the first call after the start does
    /// anything: a second SIGTERM does not start a second watchdog, and none starts once the loop stood it down.
    func arm(signal number: Int32, name: String) {
        condition.lock()
        defer { condition.unlock() }
        guard !armed, !stoodDown else { return }
        armed = true
        let thread = Thread { [self] in watch(signal: number, name: name) }
        thread.name = "kiosk-stop-watchdog"
        thread.start()
    }

    /// The loop has stopped (the player returned): an armed watchdog does nothing, a later signal arms none.
    func standDown() {
        condition.lock()
        stoodDown = true
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `body` (the frame loop) and stands down when it returns or throws.
    func guarding<T>(_ body: () throws -> T) rethrows -> T {
        defer { standDown() }
        return try body()
    }

    /// The watchdog's thread: waits out the grace period, then ends the process unless stood down.
    private func watch(signal number: Int32, name: String) {
        let deadline = Date(timeIntervalSinceNow: grace)
        condition.lock()
        while !stoodDown && condition.wait(until: deadline) {}
        let stopped = stoodDown
        condition.unlock()
        if stopped { return }
        let given = restore.runAll()
        let left = beforeExit()
        let back = given.isEmpty ? "nothing to give back" : "gave back " + given.joined(separator: ", ")
        log.error("\(name): the frame loop is stuck (no clean stop within \(String(format: "%.1f", grace)) s): "
                  + "kiosk exits without a clean stop (\(back); \(left))")
        _exit(128 + number)
    }
}
