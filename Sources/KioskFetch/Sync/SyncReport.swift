import KioskCore

/// What one check of an index found and did.
public struct SyncReport: Sendable {
    /// How the check ended.
    public enum Outcome: String, Sendable {
        /// A new index and everything it needs is in the cache and is now the last good one.
        case changed
        /// The last good index is still current and whole (an unchanged index costs one request).
        case unchanged
        /// Something was missing, refused or failed: the last good index (if any) stays; see `problems`.
        case failed
    }

    /// How it ended.
    public var outcome: Outcome
    /// The index URL checked.
    public var indexURL: String
    /// The last good index after the check (the new one when changed; the old one, or nil, when failed).
    public var index: KeptIndex?
    /// The last good index's map for the player (URL -> absolute path of the cached file).
    public var map: ContentMap?
    /// The last good index's own file (absolute path).
    public var indexFile: String?
    /// The media the checked index names.
    public var mediaCount: Int
    /// Body bytes received in this check.
    public var bytesFetched: Int64
    /// HTTP requests made in this check (redirects counted).
    public var requests: Int
    /// The check period the index asks for (`<meta http-equiv="Refresh" content="N">`), in seconds.
    public var refreshSeconds: Double?
    /// How the checked index asks to be checked (nil when it was not read).
    public var policy: RefreshPolicy?
    /// What kept the index from being taken: one line each (`URL: reason`), empty unless failed.
    public var problems: [String]
    /// What the cache said along the way (a budget it cannot keep, a state file it ignored), one line each.
    public var notes: [String]

    /// One line: the index, its media, the bytes and requests, and the outcome.
    public var summary: String {
        "\(FetchError.quoted(indexURL)): \(outcome.rawValue), \(mediaCount) media, \(bytesFetched) bytes fetched, "
            + "\(requests) request\(requests == 1 ? "" : "s")"
    }
}
