internal import CSystemd
import Foundation
import KioskCore

/// Tells the service manager how the player is doing (sd_notify(3), for `Type=notify` units): `READY=1` once the
/// first frame is on screen, `WATCHDOG=1` from the frame loop, `STATUS=` with what is showing, `STOPPING=1` at the
/// end. Outside systemd (no `NOTIFY_SOCKET`) every call does nothing. Thread-safe.
public final class SystemdNotifier: @unchecked Sendable {
    private let lock = NSLock()
    private let send: @Sendable (String) -> Void
    private let now: @Sendable () -> Double
    private var lastStatus: String?
    private var lastPing: Double?
    private var isReady = false
    private var isStopping = false

    /// The shortest time between two `WATCHDOG=1`, in seconds: half of `WATCHDOG_USEC`, as sd_watchdog_enabled(3)
    /// recommends; nil when the manager expects no pings (no watchdog, or `WATCHDOG_PID` names another process).
    public let watchdogInterval: Double?

    /// Reads the watchdog settings (`WATCHDOG_USEC`, `WATCHDOG_PID`) through sd_watchdog_enabled; messages go to
    /// `NOTIFY_SOCKET` (a path, or `@name` for an abstract socket) through sd_notify.
    public convenience init() {
        var usec: UInt64 = 0
        let enabled = sd_watchdog_enabled(0, &usec) > 0 && usec > 0
        self.init(watchdogInterval: enabled ? Double(usec) / 2_000_000 : nil,
                  now: { MonotonicClock.seconds() },
                  send: { state in _ = state.withCString { sd_notify(0, $0) } })
    }

    /// A notifier that hands each message to `send` and reads time from `now` (for tests).
    public init(watchdogInterval: Double?, now: @escaping @Sendable () -> Double, send: @escaping @Sendable (String) -> Void) {
        self.watchdogInterval = watchdogInterval
        self.now = now
        self.send = send
    }

    /// `READY=1`: start-up is over (the first frame is on screen). Sent once; later calls do nothing.
    public func ready() {
        lock.lock()
        let first = !isReady
        isReady = true
        lock.unlock()
        if first { send("READY=1") }
    }

    /// `WATCHDOG=1`, at most once per `watchdogInterval`; nothing when no watchdog is set. Call it from the loop
    /// whose hang should restart the service, often (every frame is fine: the rate is limited here).
    public func watchdog() {
        guard let interval = watchdogInterval else { return }
        let t = now()
        lock.lock()
        let due = lastPing.map { t - $0 >= interval } ?? true
        if due { lastPing = t }
        lock.unlock()
        if due { send("WATCHDOG=1") }
    }

    /// `STATUS=text` (one line, shown by `systemctl status`), only when it differs from the last one sent. Control
    /// characters are escaped as in the log, so a file name cannot add a line such as `READY=1` to the message.
    public func status(_ text: String) {
        let line = Log.escaped(text)
        lock.lock()
        let changed = line != lastStatus
        lastStatus = line
        lock.unlock()
        if changed { send("STATUS=" + line) }
    }

    /// `STOPPING=1`: the service is shutting down (the display is being restored). Sent once.
    public func stopping() {
        lock.lock()
        let first = !isStopping
        isStopping = true
        lock.unlock()
        if first { send("STOPPING=1") }
    }
}
