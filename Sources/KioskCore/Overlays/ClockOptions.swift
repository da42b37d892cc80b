import Foundation

/// The values of the clock flags that go with `--schedule`: `--timezone Area/City` and `--start-time`
/// (a local wall-clock time to start the clock at, for trying a schedule). Errors are one line naming the flag.
public enum ClockOptions {
    /// The zone `--timezone` names (`Europe/Berlin`), or an error naming the flag.
    public static func timeZone(_ value: String) throws(UsageError) -> TimeZone {
        guard !value.isEmpty, let zone = TimeZone(identifier: value) else {
            throw UsageError("--timezone: '\(value)' is not a time zone (expected Area/City, e.g. Europe/Berlin)")
        }
        return zone
    }

    /// The instant `--start-time YYYY-MM-DDTHH:MM[:SS]` names, read as wall-clock time in `timeZone` (a time in
    /// a spring-forward gap is the change itself; a time in a fall-back hour is its first occurrence), or an
    /// error naming the flag.
    public static func startTime(_ value: String, timeZone: TimeZone, flag: String = "--start-time") throws(UsageError) -> Date {
        let halves = value.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        let clock = halves.count == 2 ? halves[1].split(separator: ":", omittingEmptySubsequences: false) : []
        guard halves.count == 2, let day = CivilDate(parsing: halves[0]), (2...3).contains(clock.count),
              clock.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let h = Int(clock[0]), let m = Int(clock[1]), h < 24, m < 60 else {
            throw UsageError("\(flag): '\(value)' is not a local time YYYY-MM-DDTHH:MM[:SS] (e.g. 2026-12-24T08:59:50)")
        }
        let s = clock.count == 3 ? Int(clock[2]) ?? 60 : 0
        guard s < 60 else {
            throw UsageError("\(flag): '\(value)' is not a local time YYYY-MM-DDTHH:MM[:SS] (seconds 00 to 59)")
        }
        return LocalClock.instant(day, second: h * 3600 + m * 60 + s, in: timeZone)
    }
}
