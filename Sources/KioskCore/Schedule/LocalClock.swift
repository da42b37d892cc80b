import Foundation

/// Wall-clock time in a time zone ↔ absolute time, with one rule for daylight-saving changes:
/// **a wall-clock time W on a day happens at the first instant the local clock reads W or later.**
///
/// - Spring forward (Europe/Berlin 2026-03-29, 02:00 → 03:00): 02:00 and 02:30 do not exist that day, so both
///   happen at 03:00 CEST, the first instant the clock reads past them. A window 02:00-03:00 is therefore empty
///   that day, and a window 02:30-04:00 starts at 03:00. Put simply: a window plays exactly while the clock on the
///   wall shows a time inside it.
/// - Fall back (Europe/Berlin 2026-10-25, 03:00 → 02:00): 02:30 is read twice; it happens once, the first time
///   (02:30 CEST, 00:30 UTC). When the clock reads 02:00-03:00 the second time, no edge happens again.
///
/// This is the same zone data `Calendar(identifier: .gregorian)` uses (`TimeZone.secondsFromGMT(for:)`), but with
/// the gap rule stated here instead of Foundation's (which moves a skipped 02:30 to 03:30).
public enum LocalClock {
    /// Seconds in a day of wall-clock time.
    public static let secondsPerDay = 86_400

    /// The wall-clock day of `date` in `timeZone`, and seconds since that day's midnight on the wall clock. A date
    /// outside `WallInstant`'s years (1970...9999) reads as the nearest of them: no day number overflows.
    public static func wallClock(of date: Date, in timeZone: TimeZone) -> (day: CivilDate, second: Double) {
        let date = WallInstant(clamping: date).date
        let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        let day = Int(saturating: local / Double(secondsPerDay), rounding: .down)
        return (CivilDate(dayNumber: day), local - Double(day * secondsPerDay))
    }

    /// The first instant whose wall clock in `timeZone` reads `second` seconds after midnight of `day`, or later.
    /// `second` may be 86400 or more (86400 is the next day's midnight).
    public static func instant(_ day: CivilDate, second: Int, in timeZone: TimeZone) -> Date {
        Date(timeIntervalSince1970: Double(firstSecond(wall: day.dayNumber * secondsPerDay + second, in: timeZone)))
    }

    /// Seconds since 1970 (UTC) of the first instant whose wall clock reads `wall` (seconds since 1970 as if the
    /// zone were UTC) or later. Assumes at most one offset change within a day either side, as in real zones.
    static func firstSecond(wall: Int, in timeZone: TimeZone) -> Int {
        func offset(_ t: Int) -> Int { timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))) }
        let offsets = Set([offset(wall - secondsPerDay), offset(wall), offset(wall + secondsPerDay)])
        // Instants whose wall clock reads exactly `wall`: two in a fall-back fold, the first counts.
        let exact = offsets.map { wall - $0 }.filter { offset($0) == wall - $0 }
        if let first = exact.min() { return first }
        // In a spring-forward gap: the first instant at or past `wall` is the change itself. Search for it
        // between the latest and earliest candidate (wall + offset grows with time across the gap).
        guard let high = offsets.max(), let low = offsets.min() else { return wall }
        var lo = wall - high, hi = wall - low
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if mid + offset(mid) >= wall { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}
