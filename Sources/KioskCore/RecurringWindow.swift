import Foundation

/// A window of wall-clock time that recurs on some days: the days of the week and the calendar days it may start
/// on, and its time of day. A window that crosses midnight belongs to the day it starts on. Shared by schedule
/// rules and playlist items' windows.
public struct RecurringWindow: Sendable, Hashable {
    /// Weekdays it starts on.
    public var days: WeekdaySet
    /// Its time of day.
    public var time: DailyWindow
    /// Calendar days it starts on.
    public var dates: DateSpan

    /// A window on `days` at `time` within `dates`.
    public init(days: WeekdaySet = .all, time: DailyWindow = .wholeDay, dates: DateSpan = .always) {
        self.days = days
        self.time = time
        self.dates = dates
    }

    /// Whether it starts on `day`.
    public func starts(on day: CivilDate) -> Bool { days.contains(day.weekday) && dates.contains(day) }

    /// The instants of the occurrence starting on `day` (start included, end excluded), by `LocalClock`'s rule;
    /// nil when it does not start that day or is empty (a window inside a spring-forward gap).
    public func occurrence(on day: CivilDate, in timeZone: TimeZone) -> Range<Date>? {
        guard starts(on: day) else { return nil }
        let start = LocalClock.instant(day, second: time.start * 60, in: timeZone)
        let end = LocalClock.instant(day, second: time.endSecond, in: timeZone)
        return start < end ? start..<end : nil
    }

    /// Whether `date` lies in one of its occurrences.
    public func contains(_ date: Date, in timeZone: TimeZone) -> Bool {
        let today = LocalClock.wallClock(of: date, in: timeZone).day
        // An occurrence can reach into the next day; one more day each side covers odd zones around midnight.
        return (-1...1).contains { occurrence(on: today.adding(days: $0), in: timeZone)?.contains(date) ?? false }
    }

    /// The first start or end of an occurrence of any of `windows` after `date` at which `value` differs from
    /// `value(date)`; nil when it never changes. Days are scanned in order, up to the point after which every
    /// window repeats weekly (a week past today and past the last dated bound), so a scan is bounded.
    static func nextChange<Value: Equatable>(after date: Date, of windows: [RecurringWindow], in timeZone: TimeZone,
                                             value: (Date) -> Value) -> Date? {
        let current = value(date)
        let today = LocalClock.wallClock(of: date, in: timeZone).day
        let bounds = windows.flatMap { [$0.dates.first, $0.dates.last] }.compactMap { $0?.dayNumber }
        let horizon = max(today.dayNumber + 8, (bounds.max() ?? 0) + 9)
        var occurrences: [Int: [Range<Date>]] = [:]
        func occurring(_ day: Int) -> [Range<Date>] {
            if let known = occurrences[day] { return known }
            let found = windows.compactMap { $0.occurrence(on: CivilDate(dayNumber: day), in: timeZone) }
            occurrences[day] = found
            return found
        }
        var day = today.dayNumber - 1
        while day <= horizon {
            // The edges within this wall-clock day come from occurrences starting on it or up to two days before.
            let from = LocalClock.instant(CivilDate(dayNumber: day), second: 0, in: timeZone)
            let to = LocalClock.instant(CivilDate(dayNumber: day + 1), second: 0, in: timeZone)
            let edges = ((day - 2)...day).flatMap(occurring).flatMap { [$0.lowerBound, $0.upperBound] }
                .filter { $0 >= from && $0 < to && $0 > date }
            for edge in Set(edges).sorted() where value(edge) != current { return edge }
            occurrences[day - 2] = nil
            day += 1
        }
        return nil
    }
}
