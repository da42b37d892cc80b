import Foundation

/// One stretch of time in which the same thing plays, as `kiosk check-config` lists them.
public struct ScheduleEntry: Sendable, Equatable {
    /// When it starts (the first entry starts at the time asked for).
    public var start: Date
    /// When it ends (excluded).
    public var end: Date
    /// What plays: a path or `off`; nil for the command line's paths (the fallback when the file has none).
    public var target: ScheduleTarget?
    /// Whether it is the fallback (no rule applies).
    public var isFallback: Bool

    /// An entry.
    public init(start: Date, end: Date, target: ScheduleTarget?, isFallback: Bool) {
        self.start = start
        self.end = end
        self.target = target
        self.isFallback = isFallback
    }
}

extension Schedule {
    /// What plays from `start` to the end of the `days`-th local day after it (with `days` 7 on a Monday at
    /// 10:00, through Sunday 24:00), as entries in order; consecutive time with the same target (and fallback or
    /// not) is one entry, and the fallback fills the gaps. The clock is trusted here, whatever the date.
    public func upcoming(from start: Date, days: Int, timeZone: TimeZone) -> [ScheduleEntry] {
        guard days > 0 else { return [] }
        let firstDay = LocalClock.wallClock(of: start, in: timeZone).day.dayNumber
        // One sweep over the whole stretch: asking for a decision at each change re-reads every rule each time.
        let timeline = WindowTimeline(windows: rules.map(\.window), days: firstDay...(firstDay + days - 1), in: timeZone)
        var entries: [ScheduleEntry] = []
        for segment in timeline.segments where segment.end > start {
            let d = ScheduleDecision(action: action(of: segment.winner), nextChange: nil)
            var isFallback = false
            if case .fallback = d.action { isFallback = true }
            if let last = entries.last, last.target == d.target, last.isFallback == isFallback {
                entries[entries.count - 1].end = segment.end
            } else {
                entries.append(ScheduleEntry(start: max(segment.start, start), end: segment.end, target: d.target,
                                             isFallback: isFallback))
            }
        }
        return entries
    }

    /// `entries` as a fixed-width table with the columns day, from, to and target, in `timeZone`'s wall-clock
    /// time. `to` is `HH:MM` on the same day, `24:00` at the next midnight, `Sat 07:00` within the week after,
    /// and `YYYY-MM-DD HH:MM` later than that. Ends with a newline.
    public static func table(_ entries: [ScheduleEntry], timeZone: TimeZone) -> String {
        var rows = [["day", "from", "to", "target"]]
        for e in entries {
            let (day, second) = LocalClock.wallClock(of: e.start, in: timeZone)
            let (endDay, endSecond) = LocalClock.wallClock(of: e.end, in: timeZone)
            let endClock = DailyWindow.clock(Int(saturating: endSecond, rounding: .towardZero) / 60)
            let to: String
            switch endDay.dayNumber - day.dayNumber {
            case 0: to = endClock
            case 1 where Int(saturating: endSecond, rounding: .towardZero) / 60 == 0: to = "24:00"
            case 1...6: to = "\(endDay.weekday.shortName) \(endClock)"
            default: to = "\(endDay) \(endClock)"
            }
            rows.append(["\(day.weekday.shortName) \(day)", DailyWindow.clock(Int(saturating: second, rounding: .towardZero) / 60), to, label(e)])
        }
        let widths = (0..<3).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
                + "  " + row[3]
        }.joined(separator: "\n") + "\n"
    }

    /// The target column: the path or `off`, and the fallback marked as such.
    static func label(_ e: ScheduleEntry) -> String {
        guard e.isFallback else { return e.target?.description ?? "" }
        return e.target.map { "\($0) (fallback)" } ?? "(fallback: the paths on the command line)"
    }
}
