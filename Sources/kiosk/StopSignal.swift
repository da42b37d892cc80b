import Foundation
import KioskCore

/// The process's signals. SIGINT, SIGTERM and SIGQUIT ask for a clean stop (the display restored, a recording
/// finalised): the player checks between frames, and `onStop` can wake its wait at once. SIGHUP reloads the config
/// where the command can (`onReload`: kiosk play). SIGPIPE and SIGXFSZ are ignored, so a closed standard error
/// or a full disk is a failed write, not a dead process.
final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    private var wake: (@Sendable () -> Void)?
    private var reload: (@Sendable () -> Void)?
    private var sources: [DispatchSourceSignal] = []
    private var watchdog: StopWatchdog?
    /// The first stop signal and its name, once one came.
    private var first: (Int32, String)?

    /// The signals that stop the process cleanly, with their names.
    static let stopping: [(Int32, String)] = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM"), (SIGQUIT, "SIGQUIT")]

    /// Whether a stop was asked for.
    var requested: Bool { lock.lock(); defer { lock.unlock() }; return flag }

    /// Calls `wake` on each stop signal from now on (and at once if one came already), e.g. to send the player
    /// a `quit` command so that a wait ends at once.
    func onStop(_ wake: @escaping @Sendable () -> Void) {
        lock.lock()
        self.wake = wake
        let already = flag
        lock.unlock()
        if already { wake() }
    }

    /// Arms `watchdog` at the first stop signal (at once if one came already), so that a stuck frame loop cannot
    /// hold the process past a stop.
    func guardStops(with watchdog: StopWatchdog) {
        lock.lock()
        self.watchdog = watchdog
        let already = first
        lock.unlock()
        if let (number, name) = already { watchdog.arm(signal: number, name: name) }
    }

    /// Calls `reload` on each SIGHUP from now on (on a background thread).
    func onReload(_ reload: @escaping @Sendable () -> Void) {
        lock.lock()
        self.reload = reload
        lock.unlock()
    }

    /// Ignores SIGPIPE and SIGXFSZ: writes to a closed pipe or past the file size limit then fail with EPIPE
    /// or EFBIG, which the writers report. Call first thing.
    static func ignoreWriteSignals() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Installs the handlers; each signal is logged once on `log` as it arrives.
    static func install(log: Log) -> StopSignal {
        let s = StopSignal()
        for (sig, name) in stopping {
            signal(sig, SIG_IGN)
            let src = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            src.setEventHandler { [weak s] in
                guard let s else { return }
                log.info("\(name): stopping")
                s.lock.lock()
                s.flag = true
                if s.first == nil { s.first = (sig, name) }
                let wake = s.wake, watchdog = s.watchdog
                s.lock.unlock()
                watchdog?.arm(signal: sig, name: name)
                wake?()
            }
            src.resume()
            s.sources.append(src)
        }
        signal(SIGHUP, SIG_IGN)
        let hup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        hup.setEventHandler { [weak s] in
            guard let s else { return }
            s.lock.lock(); let reload = s.reload; s.lock.unlock()
            log.info("SIGHUP: reloading the config")
            if let reload { reload() } else { log.warn("SIGHUP: this command has nothing to reload") }
        }
        hup.resume()
        s.sources.append(hup)
        return s
    }
}
