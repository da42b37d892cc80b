import Foundation

/// A `--schedule` file read into rules: what plays when, by local wall-clock time.
///
/// Each rule is `days time target [dates]`; where rules overlap the later line wins; `fallback TARGET` plays when
/// no rule does (the command line's paths when the file has none). A window that crosses midnight belongs to the
/// day it starts on, and dates apply to that day too. Daylight-saving changes follow `LocalClock`'s rule: an edge
/// at wall-clock time W happens the first time the clock reads W or later (a window inside a spring-forward gap
/// is empty that day; an edge in a fall-back hour happens once, the first time).
public struct Schedule: Sendable, Equatable {
    /// The rules in file order.
    public var rules: [ScheduleRule]
    /// The file's fallback path, or nil (then the command line's paths are the fallback).
    public var fallback: String?
    /// The line of the fallback.
    public var fallbackLine: Int?

    /// The first instant the clock is trusted: before 2020 (e.g. at boot before NTP) the fallback plays.
    public static let validClockStart = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01T00:00:00Z
    /// How long after an untrusted clock reading the player should ask again.
    public static let clockRecheck: TimeInterval = 60

    /// A schedule of `rules` and a `fallback`.
    public init(rules: [ScheduleRule], fallback: String? = nil, fallbackLine: Int? = nil) {
        self.rules = rules
        self.fallback = fallback
        self.fallbackLine = fallbackLine
    }

    /// Reads schedule `text` from `file` (named in errors) whose folder is `base` (relative targets are taken
    /// against it). Throws every problem as `FILE:LINE: reason`.
    public static func parse(text: String, file: String, base: String) throws(ScheduleError) -> Schedule {
        try ScheduleParser.parse(text: text, file: file, base: base)
    }

    /// Whether `date` is late enough to be a real clock reading (not before `validClockStart`).
    public static func isValidClock(_ date: Date) -> Bool { date >= validClockStart }

    /// What plays at `date` in `timeZone`, and when that next changes. With no valid clock: the fallback, never
    /// off, and a recheck a minute later.
    public func decision(at date: Date, timeZone: TimeZone) -> ScheduleDecision {
        guard Self.isValidClock(date) else {
            return ScheduleDecision(action: .fallback(fallback), nextChange: date + Self.clockRecheck, clockValid: false)
        }
        return ruleDecision(at: date, timeZone: timeZone)
    }

    /// The decision the rules give at `date`, trusting the clock.
    func ruleDecision(at date: Date, timeZone: TimeZone) -> ScheduleDecision {
        let (now, next) = RecurringWindow.change(after: date, of: rules.map(\.window), in: timeZone, value: action(of:))
        return ScheduleDecision(action: now, nextChange: next)
    }

    /// The action of the last rule whose window holds `date`, else the fallback.
    func action(at date: Date, timeZone: TimeZone) -> ScheduleDecision.Action {
        action(of: rules.lastIndex { $0.window.contains(date, in: timeZone) })
    }

    /// The action of the rule at `index` in `rules`, or the fallback when nil.
    func action(of index: Int?) -> ScheduleDecision.Action {
        guard let index else { return .fallback(fallback) }
        let rule = rules[index]
        switch rule.target {
        case .path(let p): return .play(p, line: rule.line)
        case .off: return .off(line: rule.line)
        }
    }
}
