import Foundation
import KioskCore
import KioskPlayer

/// A test-only stuck frame: with `KIOSK_TEST_STALL_FRAME=SECONDS` in the environment, the first loop turn after
/// the first frame was presented blocks the frame loop for that long (as a long text shape or a blocked GL call
/// would), after one warn line. Nothing of it exists without the variable, so production never stalls.
final class FrameStall: @unchecked Sendable {
    /// The environment variable that asks for the stall.
    static let variable = "KIOSK_TEST_STALL_FRAME"

    private let seconds: Double
    private let log: Log
    private let lock = NSLock()
    private var armed = false
    private var done = false

    private init(seconds: Double, log: Log) {
        self.seconds = seconds
        self.log = log
    }

    /// The stall the environment asks for; nil when the variable is unset. A value that is not a number of
    /// seconds from 0 to 3600 is one warn line naming it, and no stall.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment,
                                log: Log) -> FrameStall? {
        guard let text = environment[variable] else { return nil }
        guard let s = Double(text), s.isFinite, s >= 0, s <= 3600 else {
            log.warn("\(variable): '\(text.prefix(200))' is not a number of seconds from 0 to 3600; no stall")
            return nil
        }
        return FrameStall(seconds: s, log: log)
    }

    /// The first frame was presented: the next loop turn stalls.
    func arm() {
        lock.lock(); armed = true; lock.unlock()
    }

    /// Adds the stall to `player`'s loop turn, after what the turn did already (the service watchdog).
    func attach(to player: Player) {
        let before = player.onLoopTurn
        player.onLoopTurn = { [self] in
            before?()
            turn()
        }
    }

    /// One loop turn: blocks the loop once, the first turn after `arm`.
    private func turn() {
        lock.lock()
        let due = armed && !done
        if due { done = true }
        lock.unlock()
        guard due else { return }
        log.warn("\(Self.variable): this frame stalls the loop for \(seconds) s")
        Thread.sleep(forTimeInterval: seconds)
        log.warn("\(Self.variable): the stalled frame ended")
    }
}
