/// One closed showing as the play log keeps it, as reports to a server carry it: the play log's row id (which a
/// server deduplicates by), its times in UTC to the millisecond, its seconds on screen, the file and where it showed.
public struct ShowingRecord: Sendable, Equatable {
    /// The play log's row id: increasing, never reused while the log lives.
    public var id: Int64
    /// When it began: `2026-12-24T21:59:00.250Z`.
    public var start: String
    /// When it ended, in the same form.
    public var end: String
    /// Seconds on screen (the screen's off time taken out), to the millisecond; nil when the log has none.
    public var duration: Double?
    /// The file shown (a content cache file for fetched content), or `alert: TEXT` for an emergency alert.
    public var path: String
    /// The URL the file was fetched from, when it came from a server and the reporter knows it.
    public var url: String?
    /// `image`, `animation`, `video`, `audio`, `text`, `layout`, `alert`.
    public var kind: String
    /// The region (`main` for the slideshow).
    public var region: String
    /// The SMIL file, for a layout's region.
    public var layout: String?
    /// The SMIL element's id.
    public var element: String?
    /// Why it ended (`eof`, `next`, `crash`, …).
    public var reason: String?
    /// Whether the screen stayed on throughout.
    public var screenOn: Bool
    /// The screen it showed on (`main` for a player of one screen).
    public var screen: String

    /// A record of every field.
    public init(id: Int64, start: String, end: String, duration: Double?, path: String, url: String? = nil, kind: String,
                region: String, layout: String?, element: String?, reason: String?, screenOn: Bool, screen: String = "main") {
        self.id = id; self.start = start; self.end = end; self.duration = duration; self.path = path; self.url = url
        self.kind = kind; self.region = region; self.layout = layout; self.element = element; self.reason = reason
        self.screenOn = screenOn; self.screen = screen
    }

    /// The record as a report's JSON object: `id`, `start`, `end`, `duration`, `path`, `url`, `kind`, `region`,
    /// `layout`, `element`, `reason`, `screen_on`, `screen`, in that order, a missing value as `null`.
    public var json: JSONValue {
        func text(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
        return .object([
            ("id", .int(id)), ("start", .string(start)), ("end", .string(end)), ("duration", duration.map { .double($0) } ?? .null),
            ("path", .string(path)), ("url", text(url)), ("kind", .string(kind)), ("region", .string(region)),
            ("layout", text(layout)), ("element", text(element)), ("reason", text(reason)), ("screen_on", .bool(screenOn)),
            ("screen", .string(screen)),
        ])
    }
}

/// What a play log holds past a report cursor, read at one instant (one read transaction).
public struct ShowingWindow: Sendable, Equatable {
    /// The closed showings asked for, by id.
    public var records: [ShowingRecord]
    /// The lowest id past the cursor of a showing still on screen (not closed yet); nil when none is open.
    public var firstOpen: Int64?
    /// The highest id in the log; nil when it is empty.
    public var lastID: Int64?
    /// The start of the showing whose id was asked as `mark` (nil: no such row), to tell whether the log is still
    /// the one a cursor was written for.
    public var markStart: String?

    /// A window.
    public init(records: [ShowingRecord], firstOpen: Int64?, lastID: Int64?, markStart: String?) {
        self.records = records; self.firstOpen = firstOpen; self.lastID = lastID; self.markStart = markStart
    }
}

/// Why a play log could not be read for a report: one line naming the file.
public struct ShowingReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `FILE: reason`.
    public let description: String

    /// An error in words.
    public init(_ description: String) { self.description = description }
}

/// Where reports find the showings to send: the play log (KioskPlayLog's `PlayLogShowings`), or a stand-in.
public protocol ShowingSource: Sendable {
    /// The closed showings with an id above `after` and in none of `skipping`, by id, at most `limit`; with the
    /// lowest open id above `after`, the highest id, and the start of showing `mark`, all read at one instant.
    func window(after: Int64, skipping: [ClosedRange<Int64>], limit: Int, mark: Int64?) throws(ShowingReadError) -> ShowingWindow
}
