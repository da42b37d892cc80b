/// A calendar day as written on a wall calendar (proleptic Gregorian), with no time and no time zone.
/// Schedules compare days as whole numbers, so no `Calendar` is needed to step, compare or find a weekday.

/// A day of the week, numbered as Foundation's Gregorian `Calendar` numbers them (Sunday is 1).
public enum Weekday: Int, Sendable, CaseIterable, Comparable {
    /// Sunday.
    case sunday = 1
    /// Monday.
    case monday
    /// Tuesday.
    case tuesday
    /// Wednesday.
    case wednesday
    /// Thursday.
    case thursday
    /// Friday.
    case friday
    /// Saturday.
    case saturday

    /// The three-letter English name, capitalized (`Mon`), as the schedule table prints it.
    public var shortName: String { ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][rawValue - 1] }

    /// The day after this one (Saturday → Sunday).
    public var next: Weekday { Weekday(rawValue: rawValue % 7 + 1) ?? .sunday }

    /// Order by `rawValue` (Sunday first).
    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}

/// A day of the Gregorian calendar: year, month, day, and its day number (days since 1970-01-01).
public struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before).
    public let dayNumber: Int
    /// The year (e.g. 2026).
    public let year: Int
    /// The month, 1...12.
    public let month: Int
    /// The day of the month, 1...31.
    public let day: Int

    /// The date with these fields, or nil when there is no such day (2026-02-29, month 13).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day) else { return nil }
        self.init(dayNumber: Self.dayNumber(year: year, month: month, day: day))
    }

    /// The date `dayNumber` days after 1970-01-01 (Howard Hinnant's civil-from-days).
    public init(dayNumber: Int) {
        self.dayNumber = dayNumber
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Parses `YYYY-MM-DD` exactly (four-digit year, two-digit month and day); nil when it is not a real day.
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// The day of the week (1970-01-01 was a Thursday).
    public var weekday: Weekday {
        let r = (dayNumber + 4) % 7
        return Weekday(rawValue: (r < 0 ? r + 7 : r) + 1) ?? .sunday
    }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + days) }

    /// `YYYY-MM-DD`.
    public var description: String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let y = String(year)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + two(month) + "-" + two(day)
    }

    /// Earlier days first.
    public static func < (a: CivilDate, b: CivilDate) -> Bool { a.dayNumber < b.dayNumber }

    /// Equal when the same day.
    public static func == (a: CivilDate, b: CivilDate) -> Bool { a.dayNumber == b.dayNumber }

    /// Hashes the day number.
    public func hash(into hasher: inout Hasher) { hasher.combine(dayNumber) }

    /// Days in `month` of `year`, leap years included.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a valid date (Howard Hinnant's days-from-civil).
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
