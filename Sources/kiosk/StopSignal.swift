import Foundation

/// SIGINT and SIGTERM ask the player to stop cleanly; it checks between frames.
final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    private var sources: [DispatchSourceSignal] = []

    /// Whether a stop was asked for.
    var requested: Bool { lock.lock(); defer { lock.unlock() }; return flag }

    /// Installs handlers for SIGINT and SIGTERM.
    static func install() -> StopSignal {
        let s = StopSignal()
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let src = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            src.setEventHandler { [weak s] in
                guard let s else { return }
                s.lock.lock(); s.flag = true; s.lock.unlock()
            }
            src.resume()
            s.sources.append(src)
        }
        return s
    }
}
