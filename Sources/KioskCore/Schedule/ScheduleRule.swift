/// What a schedule line plays: a folder or playlist, or `off` (display powered down until the next window).
public enum ScheduleTarget: Sendable, Hashable, CustomStringConvertible {
    /// A folder or a playlist (`.m3u`/`.m3u8`), as an absolute path when the file gave a relative one.
    case path(String)
    /// The display off.
    case off

    /// The path, or `off`.
    public var description: String {
        switch self {
        case .path(let p): return p
        case .off: return "off"
        }
    }

    /// Whether the path names a playlist by its extension (`.m3u`, `.m3u8`, any case); folders otherwise.
    public var isPlaylist: Bool {
        guard case .path(let p) = self else { return false }
        let lower = p.lowercased()
        return lower.hasSuffix(".m3u") || lower.hasSuffix(".m3u8")
    }
}

/// One rule line of a schedule file: `days time target [dates]`.
public struct ScheduleRule: Sendable, Hashable {
    /// The line it was read from (later lines win where rules overlap).
    public var line: Int
    /// When it applies.
    public var window: RecurringWindow
    /// What plays then.
    public var target: ScheduleTarget

    /// A rule from `line`.
    public init(line: Int, window: RecurringWindow, target: ScheduleTarget) {
        self.line = line
        self.window = window
        self.target = target
    }
}
