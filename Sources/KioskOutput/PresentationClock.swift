import Foundation
import KioskCore

/// The player's clock on a display: the time the frame being drawn now will be shown, predicted from the
/// last page flip (its timestamp plus one refresh interval), so animations are sampled for the vblank that
/// shows them. Before the first flip, and when the flips fall behind, it is plain `MonotonicClock.seconds()`. Never goes
/// backward. Seconds since the clock was made.
public final class PresentationClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private let start = MonotonicClock.seconds()
    private var lastFlip = 0.0
    private var interval = 0.0
    private var lastReading = 0.0

    /// Starts at zero now.
    public init() {}

    /// Records a page flip at `time` (CLOCK_MONOTONIC seconds) on a display refreshing every `interval` s.
    public func flipped(at time: Double, interval: Double) {
        lock.lock(); lastFlip = time; self.interval = interval; lock.unlock()
    }

    /// The predicted presentation time of a frame drawn now.
    public var now: Double {
        let m = MonotonicClock.seconds()
        lock.lock(); defer { lock.unlock() }
        var t = m
        if lastFlip > 0, interval > 0 {
            let next = lastFlip + interval
            if next >= m && next - m <= interval { t = next }
        }
        lastReading = max(lastReading, t - start)
        return lastReading
    }
}
