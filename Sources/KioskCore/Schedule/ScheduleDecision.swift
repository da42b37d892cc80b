import Foundation

/// What a schedule says to play at one instant, and when that next changes.
public struct ScheduleDecision: Sendable, Equatable {
    /// What plays.
    public enum Action: Sendable, Hashable {
        /// A rule's folder or playlist, with the rule's line.
        case play(String, line: Int)
        /// A rule's `off`: the display powered down, with the rule's line.
        case off(line: Int)
        /// No rule applies (or the clock is not valid): the file's fallback, or nil for the command line's paths.
        case fallback(String?)
    }

    /// What plays now.
    public var action: Action
    /// The first instant after now at which `action` is different (to the second, at a window's edge), so the
    /// player can sleep until then and switch within a frame; nil when it never changes. With no valid clock it
    /// is a recheck a minute on (`Schedule.clockRecheck`), for when NTP sets the clock.
    public var nextChange: Date?
    /// Whether the clock could be trusted (not before `Schedule.validClockStart`); when false the action is the
    /// fallback, never `off`.
    public var clockValid: Bool

    /// A decision.
    public init(action: Action, nextChange: Date?, clockValid: Bool = true) {
        self.action = action
        self.nextChange = nextChange
        self.clockValid = clockValid
    }

    /// What plays, without the line: the path, `.off`, or nil for the command line's paths.
    public var target: ScheduleTarget? {
        switch action {
        case .play(let p, _): return .path(p)
        case .off: return .off
        case .fallback(let p): return p.map { .path($0) }
        }
    }

    /// Whether the display should be off.
    public var isOff: Bool { if case .off = action { return true } else { return false } }
}
