import Foundation

/// A source of time in seconds. The slideshow, animations and video read time only from a clock.
public protocol Clock: AnyObject, Sendable {
    /// Seconds since the clock started.
    var now: Double { get }
}

/// Real monotonic time, for `kiosk play`. `MonotonicClock.seconds()` is the one place kiosk reads monotonic
/// time: timeouts, deadlines, the presentation clock and benchmarks all go through it.
public final class MonotonicClock: Clock {
    private let start = MonotonicClock.seconds()

    /// Starts at zero now.
    public init() {}

    /// Seconds since creation.
    public var now: Double { Self.seconds() - start }

    /// CLOCK_MONOTONIC in seconds: the clock the kernel stamps page flips (DRM) and input events (libinput) with,
    /// so those timestamps compare directly with it.
    public static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
    }
}

/// Time that moves only when told, for `kiosk record` and tests: exact and faster than real time.
public final class VirtualClock: Clock, @unchecked Sendable {
    private let lock = NSLock()
    private var t: Double

    /// Starts at `start` seconds.
    public init(start: Double = 0) { t = start }

    /// The current virtual time.
    public var now: Double { lock.lock(); defer { lock.unlock() }; return t }

    /// Moves time forward by `seconds` (never backward).
    public func advance(by seconds: Double) {
        lock.lock(); t += max(0, seconds); lock.unlock()
    }

    /// Sets time to `seconds` if that is later than now.
    public func set(_ seconds: Double) {
        lock.lock(); t = max(t, seconds); lock.unlock()
    }
}

extension RealtimeClock {
    /// CLOCK_REALTIME in seconds, the wall clock `--sync-epoch` follows: read here, beside the monotonic clock, so
    /// the system's clocks are read in one file.
    static func systemSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
    }
}
