import Foundation

/// A split that sweeps back and forth on its own (`mosaic:split=A..B:period=S`), on the player's clock.

/// A split swept from `from` to `to` and back once a `period`, on a cosine: it starts at `from`, passes the
/// middle at a quarter period, reaches `to` at half the period, and slows down at both turns.
public struct SplitSweep: Sendable, Equatable {
    /// The period used when `split=A..B` names none, in seconds.
    public static let defaultPeriod = 10.0
    /// Where the sweep starts (and returns to each period), 0...1.
    public var from: Double
    /// Where it turns, half a period later, 0...1 (may be below `from`: the sweep then starts leftwards).
    public var to: Double
    /// Seconds for a whole back-and-forth, > 0.
    public var period: Double

    /// A sweep from `from` to `to` and back in `period` seconds.
    public init(from: Double, to: Double, period: Double = SplitSweep.defaultPeriod) {
        self.from = from
        self.to = to
        self.period = period
    }

    /// The split `elapsed` seconds after the sweep started: `from + (to - from) · (1 - cos(2π·elapsed/period)) / 2`.
    public func split(after elapsed: Double) -> Double {
        guard period > 0, elapsed.isFinite else { return from }
        let phase = elapsed.truncatingRemainder(dividingBy: period) / period
        return from + (to - from) * (1 - cos(2 * Double.pi * phase)) / 2
    }
}
