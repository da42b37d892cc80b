import Foundation

/// A `wallclock(…)` begin (SMIL 3.0 Timing, "Wallclock-sync-value"): a date and time, or a time of the day the
/// layout begins, in local time (`--timezone`) unless it names UTC (`Z`) or an offset (`+01:00`), optionally an
/// ISO 8601 repeat: `R/2026-12-24T09:00:00/PT1H` every hour for ever, `R3/…` three times in all. A date may name a
/// day of the week as A-SMIL does: `2026-01-01+w1` is the first Monday on or after it, `-w7` the last Sunday on or
/// before it (`R/2026-01-01+w1T09:00/P1W`: Mondays at 09:00).
///
/// A repeat's period adds its years, months, weeks and days on the local calendar (daily at 09:00 stays at 09:00
/// across a change to or from summer time) and its hours, minutes and seconds as elapsed time (hourly stays on
/// the hour, the repeated hour of autumn included).
public struct SMILWallclock: Sendable, Hashable {
    /// The day, nil for a time alone (the day the layout begins).
    public var date: CivilDate?
    /// Seconds after midnight on the wall clock.
    public var second: Double
    /// Seconds east of UTC when the value names a zone; nil: the layout's local time.
    public var utcOffset: Int?
    /// How many times in all; nil for a value that does not repeat, `Int.max` for `R` with no count.
    public var count: Int?
    /// The repeat's period.
    public var period: Period

    /// An ISO 8601 duration.
    public struct Period: Sendable, Hashable {
        /// Months (years × 12 + months) and days (weeks × 7 + days), on the calendar.
        public var months = 0, days = 0
        /// Hours, minutes and seconds, elapsed.
        public var seconds = 0.0
        /// A period of `months`, `days` and `seconds`.
        public init(months: Int = 0, days: Int = 0, seconds: Double = 0) {
            self.months = months; self.days = days; self.seconds = seconds
        }
        /// Whether it is no time at all.
        public var isZero: Bool { months == 0 && days == 0 && seconds <= 0 }
    }

    /// Reads `wallclock(VALUE)`; nil when `text` is not a wallclock value. A malformed one is a reason.
    public static func parse(_ text: String) -> Result<SMILWallclock, BeginValueError>? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("wallclock("), t.hasSuffix(")") else { return nil }
        let inner = t.dropFirst("wallclock(".count).dropLast().trimmingCharacters(in: .whitespaces)
        var parts = inner.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var value = SMILWallclock(date: nil, second: 0, utcOffset: nil, count: nil, period: Period())
        if parts.count == 3, parts[0].hasPrefix("R") {
            let n = parts[0].dropFirst()
            if n.isEmpty { value.count = .max } else {
                guard let c = Int(n), c >= 1 else { return .failure(BeginValueError("\(parts[0]) is not R or R followed by a count of 1 or more")) }
                value.count = c
            }
            guard let p = period(parts[2]), !p.isZero else { return .failure(BeginValueError("\(parts[2]) is not an ISO 8601 period above zero and up to 100 years")) }
            value.period = p
            parts = [parts[1]]
        }
        guard parts.count == 1, instant(parts[0], into: &value) else {
            return .failure(BeginValueError("\(inner) is not a date and time (2026-12-24T09:00:00, 09:00, R/2026-12-24T09:00/PT1H)"))
        }
        return .success(value)
    }

    /// `[YYYY-MM-DD[±wN][T]]HH:MM[:SS[.f]][Z|±HH:MM]` or `YYYY-MM-DD[±wN]` into `v`.
    private static func instant(_ text: String, into v: inout SMILWallclock) -> Bool {
        var s = Substring(text)
        if s.count >= 10, var d = CivilDate(parsing: s.prefix(10)) {
            s = s.dropFirst(10)
            // A-SMIL's day of the week: `+w1` the first Monday on or after the date, `-w7` the last Sunday on or before
            if s.count >= 3, let sign = s.first, sign == "+" || sign == "-", s.dropFirst().first == "w" {
                let n = s.dropFirst(2).first.flatMap { $0.wholeNumberValue } ?? 0
                guard (1...7).contains(n) else { return false }
                let iso = (d.weekday.rawValue + 5) % 7 + 1  // Monday 1 … Sunday 7
                d = d.adding(days: sign == "+" ? (n - iso + 7) % 7 : -((iso - n + 7) % 7))
                s = s.dropFirst(3)
            }
            v.date = d
            guard !s.isEmpty else { return true }
            guard s.first == "T" else { return false }
            s = s.dropFirst()
        }
        if s.hasSuffix("Z") {
            v.utcOffset = 0
            s = s.dropLast()
        } else if let sign = s.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let zone = s[s.index(after: sign)...].split(separator: ":")
            guard zone.count == 2, let h = Int(zone[0]), let m = Int(zone[1]), (0...14).contains(h), (0...59).contains(m) else { return false }
            v.utcOffset = (s[sign] == "-" ? -1 : 1) * (h * 3600 + m * 60)
            s = s[..<sign]
        }
        let f = s.split(separator: ":", omittingEmptySubsequences: false)
        guard f.count == 2 || f.count == 3, let h = Int(f[0]), let m = Int(f[1]), (0...23).contains(h), (0...59).contains(m),
              f[0].count == 2, f[1].count == 2 else { return false }
        var sec = 0.0
        if f.count == 3 {
            guard let x = Double(f[2]), x >= 0, x < 60, f[2].prefix(2).allSatisfy(\.isNumber) else { return false }
            sec = x
        }
        v.second = Double(h * 3600 + m * 60) + sec
        return true
    }

    /// `P[nY][nM][nW][nD][T[nH][nM][nS]]`.
    private static func period(_ text: String) -> Period? {
        guard text.hasPrefix("P"), text.count > 1 else { return nil }
        var p = Period(), number = "", inTime = false
        for c in text.dropFirst() {
            if c.isNumber || c == "." { number.append(c); continue }
            if c == "T" {
                guard number.isEmpty, !inTime else { return nil }
                inTime = true
                continue
            }
            guard let n = Double(number), n.isFinite else { return nil }
            number = ""
            /// `n` whole units, of which `century` make 100 years (`TimeSpan.longest`); nil past that.
            func units(_ century: Double) -> Int? { n <= century ? Int(saturating: n, rounding: .towardZero) : nil }
            switch (inTime, c) {
            case (false, "Y"): guard let u = units(100) else { return nil }; p.months += u * 12
            case (false, "M"): guard let u = units(1200) else { return nil }; p.months += u
            case (false, "W"): guard let u = units(5218) else { return nil }; p.days += u * 7
            case (false, "D"): guard let u = units(36_525) else { return nil }; p.days += u
            case (true, "H"): p.seconds += n * 3600
            case (true, "M"): p.seconds += n * 60
            case (true, "S"): p.seconds += n
            default: return nil
            }
            guard TimeSpan(seconds: p.seconds) != nil else { return nil }
        }
        return number.isEmpty ? p : nil
    }

    /// Its instants from `from` to before `until`, with the last one before `from` first (an interrupt that
    /// began before the layout may still be playing), for a layout that began on the day of `from` in `zone`.
    /// At most `limit`.
    public func instants(from: Date, until: Date, in zone: TimeZone, limit: Int = 100_000) -> [Date] {
        let day = date ?? LocalClock.wallClock(of: from, in: zone).day
        func at(_ k: Int) -> Date {
            var d = day
            if period.months != 0 { d = Self.adding(months: period.months * k, to: d) }
            d = d.adding(days: period.days * k)
            let wall = Double(d.dayNumber * LocalClock.secondsPerDay) + second
            let base: Double
            if let utcOffset {
                base = wall - Double(utcOffset)
            } else {
                let whole = Int(saturating: wall, rounding: .down)
                base = Double(LocalClock.firstSecond(wall: whole, in: zone)) + (wall - Double(whole))
            }
            return Date(timeIntervalSince1970: base + period.seconds * Double(k))
        }
        let total = count ?? 1
        var k = 0
        // a period of elapsed time alone: jump to the repeat just before `from`
        if total > 1, period.months == 0, period.days == 0, period.seconds > 0 {
            k = max(0, Int(saturating: (from.timeIntervalSince(at(0))) / period.seconds, rounding: .down))
        }
        var out: [Date] = []
        while k < total, out.count < limit {
            let t = at(k)
            if t >= until { break }
            if t < from { out = [t] } else { out.append(t) }
            k += 1
        }
        return out
    }

    /// `d` moved on by `months` calendar months, the day kept (cut to the month's last day).
    private static func adding(months: Int, to d: CivilDate) -> CivilDate {
        let m0 = d.year * 12 + (d.month - 1) + months
        let (y, m) = (m0 / 12, m0 % 12 + 1)
        var day = d.day
        while day > 28, CivilDate(year: y, month: m, day: day) == nil { day -= 1 }
        return CivilDate(year: y, month: m, day: day) ?? d
    }
}

/// Why a begin value (a wallclock, syncbase or event value) cannot be read.
public struct BeginValueError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
