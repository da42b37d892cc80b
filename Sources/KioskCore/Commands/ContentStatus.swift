import Foundation

/// What the remotes see of the content fetcher (`kiosk play URL`): where the content comes from, the last check and
/// how it went, when the content playing was fetched, and the cache's use. IPC's `kiosk-content`, MQTT's state and
/// the web page's status all write it through `members(keys:)`, so the three say the same.
public struct ContentStatus: Sendable, Equatable {
    /// How the last check of the index ended.
    public enum CheckResult: String, Sendable, Equatable, CaseIterable {
        /// A new index and all its media are cached and now play (or play from the end of the item on screen).
        case changed
        /// The index and its media are as cached (an unchanged index costs one request).
        case unchanged
        /// The check failed: the cached content (if any) plays on; `problem` says why.
        case failed
        /// No check has ended yet (one is under way, or kiosk waits for a URL).
        case none
    }

    /// The index URL checked; nil while kiosk plays local files (the link waits for a remote's `load URL`).
    public var url: String?
    /// Whether indexes must be signed (`--content-key`).
    public var signed = false
    /// When the last check ended (UTC); nil before the first.
    public var lastCheck: WallInstant?
    /// How it ended.
    public var result = CheckResult.none
    /// Its first problem, one line (a failed check only).
    public var problem: String?
    /// When the index playing was fetched and found whole (UTC); nil while nothing fetched plays.
    public var fetched: WallInstant?
    /// Bytes the cache's files take.
    public var cacheBytes: Int64 = 0
    /// The cache's budget in bytes (`--content-cache-mb`); nil: none.
    public var cacheBudget: Int64?
    /// The media the index playing names.
    public var media = 0

    /// A status: no URL, nothing checked.
    public init() {}

    /// Why "check now" is refused while no URL is fetched (every remote says it so).
    public static let notFetching = "kiosk is not playing content from a server"

    /// How the remotes spell the members' names: mpv's IPC with hyphens (`last-check`), MQTT and the web page's JSON
    /// with underscores (`last_check`).
    public enum KeyStyle: Sendable {
        case hyphens, underscores
    }

    /// The members as JSON, in a fixed order: `url`, `signed`, `last_check` and `fetched` (ISO 8601, UTC, or null),
    /// `result`, `problem`, `cache_bytes`, `cache_budget` (null: none) and `media`.
    public func members(keys: KeyStyle) -> [(String, JSONValue)] {
        func key(_ name: String) -> String { keys == .hyphens ? name.replacingOccurrences(of: "_", with: "-") : name }
        func time(_ t: WallInstant?) -> JSONValue { t.map { .string(PlayReportQuery.text($0.date)) } ?? .null }
        return [
            (key("url"), url.map { .string($0) } ?? .null),
            (key("signed"), .bool(signed)),
            (key("last_check"), time(lastCheck)),
            (key("result"), .string(result.rawValue)),
            (key("problem"), problem.map { .string($0) } ?? .null),
            (key("fetched"), time(fetched)),
            (key("cache_bytes"), .int(cacheBytes)),
            (key("cache_budget"), cacheBudget.map { .int($0) } ?? .null),
            (key("media"), .int(Int64(media))),
        ]
    }
}
