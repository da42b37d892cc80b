import Foundation

/// One body the content cache holds: the newest version fetched from its URL.
public struct CacheEntry: Sendable, Equatable, Codable {
    /// Its file's name in the cache's `files` folder.
    public var file: String
    /// The server's `ETag` and `Last-Modified` for it, sent back on the next check.
    public var validators: HTTPValidators
    /// Its size in bytes.
    public var size: Int64
    /// Its SHA-256, lower-case hex.
    public var sha256: String
    /// The `Content-Type` it came with.
    public var contentType: String?
    /// When an index last needed it (seconds since 1970): the least recently used go first when over budget.
    public var lastUsed: Double
}

/// Which kind of index a file is.
public enum IndexKind: String, Sendable, Codable {
    /// A SMIL layout.
    case smil
    /// An M3U playlist.
    case m3u
}

/// An index the cache keeps with everything it needs: the last good one (what plays) or the one it replaced (what
/// may still be on screen until the swap).
public struct KeptIndex: Sendable, Equatable, Codable {
    /// The index's URL.
    public var url: String
    /// SMIL or M3U.
    public var kind: IndexKind
    /// Its file's name in the `files` folder.
    public var file: String
    /// Its validators (the next check is conditional on them).
    public var validators: HTTPValidators
    /// Each medium's absolute URL -> its file's name in the `files` folder.
    public var media: [String: String]
    /// The check period the index asks for (`<meta http-equiv="Refresh" content="N">`), in seconds.
    public var refreshSeconds: Double?
    /// When it was fetched and found whole (seconds since 1970).
    public var publishedAt: Double
    /// Whether its signature was verified (a key was set).
    public var signed: Bool
}

/// The last check of an index and how it went.
public struct CheckRecord: Sendable, Equatable, Codable {
    /// The index URL checked.
    public var url: String
    /// When (seconds since 1970).
    public var at: Double
    /// `changed`, `unchanged` or `failed`.
    public var outcome: String
    /// Its problems, one line each (the first few).
    public var problems: [String]
}

/// Everything the content cache remembers across restarts, as its state file holds it.
struct CacheState: Sendable, Equatable, Codable {
    /// The format of the file; another is not read.
    var format = CacheState.currentFormat
    /// URL -> the newest body fetched from it.
    var entries: [String: CacheEntry] = [:]
    /// URL -> the validators of the body its `.part` file holds (a cut download, continued with `Range`).
    var partials: [String: HTTPValidators] = [:]
    /// The last good index: what plays.
    var current: KeptIndex?
    /// The index the current one replaced (its files are kept until the next replacement).
    var previous: KeptIndex?
    /// The last check.
    var lastCheck: CheckRecord?

    /// The format this kiosk writes.
    static let currentFormat = 1
    /// A larger state file is not one this kiosk wrote.
    static let maxBytes = 64 << 20

    /// The state as JSON.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// The state in `data`.
    static func decode(_ data: Data) throws -> CacheState {
        let state = try JSONDecoder().decode(CacheState.self, from: data)
        guard state.format == currentFormat else {
            throw CacheError("format \(state.format), not the \(currentFormat) this kiosk reads")
        }
        return state
    }
}

/// Why the content cache could not be used: one line naming the file and the reason.
public struct CacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line.
    public let description: String

    /// A failure in words.
    public init(_ description: String) { self.description = description }

    /// A failed call on `path` with `errno` `code`.
    init(_ call: String, _ path: String, errno code: Int32) {
        description = "\(call) \(path): \(String(cString: strerror(code)))"
    }
}
