import Foundation

/// A wall-clock date and time as a file's metadata writes it: no time zone (an offset written after it is
/// dropped, so the time reads as written), and how much of it was given (a music tag often gives a year alone).

/// A date and time of day on the proleptic Gregorian calendar, with the precision it was written to.
public struct CivilDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// How much of a date-time was written; the parts past it are their first values (January, the 1st, 00:00:00).
    public enum Precision: Int, Sendable, Comparable, CaseIterable {
        /// `2019`.
        case year
        /// `2019-05`.
        case month
        /// `2019-05-03`.
        case day
        /// `2019-05-03 10:20`.
        case minute
        /// `2019-05-03 10:20:30`.
        case second

        /// Coarser first.
        public static func < (a: Precision, b: Precision) -> Bool { a.rawValue < b.rawValue }
    }

    /// The day.
    public let date: CivilDate
    /// 0...23.
    public let hour: Int
    /// 0...59.
    public let minute: Int
    /// 0...59 (a leap second 60 is read as 59).
    public let second: Int
    /// How much was written.
    public let precision: Precision

    /// The date-time with these fields, or nil when the day does not exist or a time field is out of range.
    public init?(year: Int, month: Int = 1, day: Int = 1, hour: Int = 0, minute: Int = 0, second: Int = 0,
                 precision: Precision = .second) {
        guard (1...9999).contains(year), let date = CivilDate(year: year, month: month, day: day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = min(second, 59)
        self.precision = precision
    }

    /// Reads the forms metadata writes, leniently: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, each optionally followed by
    /// `T` or a space and `HH:MM[:SS[.fraction]]` and a zone (`Z`, `+01:00`, dropped). The date's separators may
    /// be `:` as EXIF writes them (`2026:12:24 08:30:00`). Nil for anything else, for EXIF's blank
    /// `    :  :     ` and for `0000:00:00 00:00:00`.
    public init?(parsing raw: some StringProtocol) {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count <= 64, text.allSatisfy(\.isASCII) else { return nil }
        let chars = Array(text.utf8)
        var i = 0
        /// Reads exactly `n` digits at `i`.
        func digits(_ n: Int) -> Int? {
            guard i + n <= chars.count else { return nil }
            var v = 0
            for c in chars[i..<(i + n)] {
                guard (0x30...0x39).contains(c) else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            i += n
            return v
        }
        func take(_ set: String) -> Bool {
            guard i < chars.count, set.utf8.contains(chars[i]) else { return false }
            i += 1
            return true
        }
        guard let year = digits(4) else { return nil }
        var month = 1, day = 1, hour = 0, minute = 0, second = 0
        var precision = Precision.year
        if take("-:") {
            guard let m = digits(2) else { return nil }
            month = m
            precision = .month
            if take("-:") {
                guard let d = digits(2) else { return nil }
                day = d
                precision = .day
                if take("T "), i < chars.count {
                    guard let h = digits(2), take(":"), let mi = digits(2) else { return nil }
                    hour = h
                    minute = mi
                    precision = .minute
                    if take(":") {
                        guard let s = digits(2) else { return nil }
                        second = s
                        precision = .second
                        if take(".,") { while i < chars.count, (0x30...0x39).contains(chars[i]) { i += 1 } }
                    }
                    _ = Self.zoneLength(chars[i...]).map { i += $0 }
                }
            }
        }
        guard i == chars.count else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second, precision: precision)
    }

    /// IPTC's separate date (`CCYYMMDD`) and optional time (`HHMMSS` with an optional `±HHMM` zone, dropped).
    public init?(iptcDate: some StringProtocol, time: (some StringProtocol)?) {
        let d = Array(iptcDate.utf8)
        guard d.count == 8, d.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        func number(_ b: ArraySlice<UInt8>) -> Int { b.reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        let (y, m, day) = (number(d[0..<4]), number(d[4..<6]), number(d[6..<8]))
        if let time {
            let t = Array(time.utf8)
            if t.count >= 6, t[0..<6].allSatisfy({ (0x30...0x39).contains($0) }) {
                self.init(year: y, month: m, day: day, hour: number(t[0..<2]), minute: number(t[2..<4]),
                          second: number(t[4..<6]), precision: .second)
                return
            }
        }
        self.init(year: y, month: m, day: day, precision: .day)
    }

    /// The length of a zone suffix (`Z`, `+HH:MM`, `+HHMM`, `+HH`) starting `rest`, nil when it is not one.
    private static func zoneLength(_ rest: ArraySlice<UInt8>) -> Int? {
        guard let first = rest.first else { return nil }
        if first == 0x5A { return 1 }  // Z
        guard first == 0x2B || first == 0x2D else { return nil }  // + -
        let after = Array(rest.dropFirst())
        let isDigit = { (c: UInt8) in (0x30...0x39).contains(c) }
        if after.count == 5, after[2] == 0x3A, [0, 1, 3, 4].allSatisfy({ isDigit(after[$0]) }) { return 6 }
        if after.count == 4 || after.count == 2, after.allSatisfy(isDigit) { return 1 + after.count }
        return nil
    }

    /// `YYYY-MM-DD HH:MM:SS` cut to the precision (`2019`, `2019-05`, `2019-05-03`, `2019-05-03 10:20`).
    public var description: String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let day = date.description
        switch precision {
        case .year: return String(day.prefix(4))
        case .month: return String(day.prefix(7))
        case .day: return day
        case .minute: return "\(day) \(two(hour)):\(two(minute))"
        case .second: return "\(day) \(two(hour)):\(two(minute)):\(two(second))"
        }
    }

    /// Seconds since 1970-01-01 00:00:00 as written, for ordering.
    private var wallSeconds: Int { date.dayNumber * 86_400 + hour * 3600 + minute * 60 + second }

    /// Earlier first; equal times order the coarser first.
    public static func < (a: CivilDateTime, b: CivilDateTime) -> Bool {
        a.wallSeconds != b.wallSeconds ? a.wallSeconds < b.wallSeconds : a.precision < b.precision
    }
}
