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

    /// What `windows` hold at `date` (`value` of the winning window's index, the last one holding it, or of
    /// nil) and the first instant after `date` at which that differs; nil when it never changes. Days are swept
    /// ten at a time (`WindowTimeline`); where no window's dates begin or end, the windows repeat weekly, so a
    /// sweep that finds no change jumps straight to two days before the next date bound instead of walking day by
    /// day (a rule dated 9999-12-31 costs a few sweeps, not three million days).
    static func change<Value: Equatable>(after date: Date, of windows: [RecurringWindow], in timeZone: TimeZone,
                                         value: (Int?) -> Value) -> (current: Value, next: Date?) {
        let today = LocalClock.wallClock(of: date, in: timeZone).day.dayNumber
        // The days on which some window's dates begin or end: the only days the weekly pattern can change.
        let bounds = Set(windows.flatMap { [$0.dates.first?.dayNumber, $0.dates.last.map { $0.dayNumber + 1 }] }
            .compactMap { $0 }).sorted()
        var current: Value?
        var first = today - 1
        while true {
            let last = first + 9
            let timeline = WindowTimeline(windows: windows, days: first...last, in: timeZone)
            let now = current ?? value(timeline.winner(at: date))
            current = now
            for segment in timeline.segments where segment.start > date && value(segment.winner) != now {
                return (now, segment.start)
            }
            // The first bound after this sweep's days (whose occurrences begin two days before its first).
            let boundIndex = bounds.partitionIndex { $0 > first - 2 }
            guard boundIndex < bounds.count else { return (now, nil) }
            let nextBound = bounds[boundIndex]
            first = nextBound <= last ? last + 1 : Swift.max(last + 1, nextBound - 2)
        }
    }

    /// The first start or end of an occurrence of any of `windows` after `date` at which `value` (of the winning
    /// window's index, see `change`) differs from its value at `date`; nil when it never changes.
    static func nextChange<Value: Equatable>(after date: Date, of windows: [RecurringWindow], in timeZone: TimeZone,
                                             value: (Int?) -> Value) -> Date? {
        change(after: date, of: windows, in: timeZone, value: value).next
    }
}

extension Array where Element: Comparable {
    /// The index of the first element for which `isAfter` holds, in a sorted array where it holds from some
    /// point on (a binary search); `count` when it never does.
    func partitionIndex(where isAfter: (Element) -> Bool) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if isAfter(self[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }
}
