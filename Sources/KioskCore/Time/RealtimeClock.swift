import Foundation

/// The wall clock `--sync-epoch` reads: CLOCK_REALTIME, the clock chrony or linuxptp keep in step across the
/// screens of a wall. It is read afresh on every frame, so a step of the clock (NTP) is seen at once.
///
/// For tests, `KIOSK_TEST_REALTIME_SKEW` moves the reading without changing the system's clock (which needs
/// root): `S` reads S seconds ahead (behind when negative); `S1,AFTER,S2` reads S1 ahead until AFTER seconds after
/// the reader was made, then S2 ahead: a clock step of S2 − S1 seconds.
public final class RealtimeClock: Sendable {
    /// The environment variable of the test skew.
    public static let skewVariable = "KIOSK_TEST_REALTIME_SKEW"

    private let skew: RealtimeSkew
    private let made = MonotonicClock.seconds()

    /// A reader with `skew` (none by default).
    public init(skew: RealtimeSkew = RealtimeSkew()) { self.skew = skew }

    /// A reader with the skew the environment asks for (none when unset or unreadable).
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> RealtimeClock {
        RealtimeClock(skew: environment[skewVariable].flatMap(RealtimeSkew.init(parsing:)) ?? RealtimeSkew())
    }

    /// The line a command that plays logs at start when the environment sets the test skew (nil when it does not),
    /// so that a shipped binary never reads a moved clock without a word: what it reads, or that the value is
    /// unreadable and the clock is not moved.
    public static func environmentNotice(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let text = environment[skewVariable] else { return nil }
        let shown = "\(skewVariable)=\(Log.escaped(String(text.prefix(200))))"
        guard let skew = RealtimeSkew(parsing: text) else {
            return "\(shown) is not S or S1,AFTER,S2 (seconds): a test setting, ignored; the wall clock is not moved"
        }
        let step = skew.stepAfter.map { String(format: ", then %.3f s from %.3f s after start", skew.after, $0) } ?? ""
        return "\(shown): a test setting: the wall clock --sync-epoch reads is moved \(String(format: "%.3f", skew.before)) s ahead\(step)"
    }

    /// CLOCK_REALTIME in seconds (with the test skew).
    public func now() -> Double {
        Self.systemSeconds() + skew.seconds(after: MonotonicClock.seconds() - made)
    }

    /// Wall time minus monotonic time now: add it to a CLOCK_MONOTONIC instant to get its wall time.
    public func offsetFromMonotonic() -> Double {
        let a = MonotonicClock.seconds()
        let r = now()
        let b = MonotonicClock.seconds()
        return r - (a + b) / 2
    }
}

/// A test's skew of the wall clock: `before` seconds ahead, then from `stepAfter` seconds on, `after` seconds ahead.
public struct RealtimeSkew: Sendable, Equatable {
    /// Seconds ahead at first.
    public var before: Double
    /// When the step comes, seconds after the reader was made (nil: never).
    public var stepAfter: Double?
    /// Seconds ahead after the step.
    public var after: Double

    /// No skew.
    public init(before: Double = 0, stepAfter: Double? = nil, after: Double = 0) {
        self.before = before
        self.stepAfter = stepAfter
        self.after = after
    }

    /// Parses `S` or `S1,AFTER,S2`; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.allSatisfy({ $0?.isFinite ?? false }) else { return nil }
        let v = parts.compactMap { $0 }
        switch v.count {
        case 1: self.init(before: v[0], stepAfter: nil, after: v[0])
        case 3 where v[1] >= 0: self.init(before: v[0], stepAfter: v[1], after: v[2])
        default: return nil
        }
    }

    /// Seconds ahead `elapsed` seconds after the reader was made.
    public func seconds(after elapsed: Double) -> Double {
        guard let step = stepAfter else { return before }
        return elapsed < step ? before : after
    }
}
