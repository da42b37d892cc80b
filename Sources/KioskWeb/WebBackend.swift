import Foundation
import KioskCore

/// What the web page needs from the rest of kiosk, passed in so this target depends on the core alone: the status
/// board, the IPC commands, screenshots, the play log's reports, and the media folder with a probe for its files.
public struct WebBackend: Sendable {
    /// The player's status as last posted.
    public var status: @Sendable () -> PlayerStatus
    /// Runs one IPC command array, as the socket would, and returns its reply (`{"data", "error"}`).
    public var command: @Sendable (JSONValue) -> JSONValue
    /// A JPEG of the screen as presented; throws why not.
    public var screenshot: @Sendable () throws(WebRefusal) -> [UInt8]
    /// The play log's reports.
    public var reports: PlayReports
    /// The media folder uploads go into and the media page lists (`--media-root`, resolved); nil: none.
    public var mediaRoot: String?
    /// What a file is, read from its content: nil when kiosk cannot show it.
    public var probe: @Sendable (String) -> MediaSummary?
    /// The last lines kiosk logged, for the system page.
    public var recentLog: @Sendable () -> [String]
    /// The schedule file (`--schedule`), for the schedule page; nil: none.
    public var schedule: WebSchedule?
    /// Restarts the player (the system page's button): the service manager starts it again.
    public var restart: (@Sendable () -> Void)?
    /// The most pixels a picture or video may have for the player to show it (`--max-pixels`): an upload over it is
    /// refused rather than stored; nil: no limit.
    public var maxPixels: Int?
    /// A media file's thumbnail as JPEG (from the grid's thumbnail cache); nil when it cannot be made.
    public var thumbnail: (@Sendable (String) -> [UInt8]?)?
    /// With several screens (`--screen`): the first screen's name (its parts are `status`, `command` and
    /// `screenshot`) and each further screen's parts, which `?screen=NAME` picks.
    public var firstScreen: String?
    public var screens: [WebScreenParts] = []

    /// A backend.
    public init(status: @escaping @Sendable () -> PlayerStatus, command: @escaping @Sendable (JSONValue) -> JSONValue,
                screenshot: @escaping @Sendable () throws(WebRefusal) -> [UInt8], reports: PlayReports, mediaRoot: String?,
                probe: @escaping @Sendable (String) -> MediaSummary?, recentLog: @escaping @Sendable () -> [String] = { [] }) {
        self.status = status
        self.command = command
        self.screenshot = screenshot
        self.reports = reports
        self.mediaRoot = mediaRoot
        self.probe = probe
        self.recentLog = recentLog
    }
}

/// A screen's own parts for the page: its status, its IPC commands and its screenshot.
public struct WebScreenParts: Sendable {
    /// The screen's name.
    public var name: String
    /// Its status as last posted.
    public var status: @Sendable () -> PlayerStatus
    /// Runs one IPC command array on it.
    public var command: @Sendable (JSONValue) -> JSONValue
    /// A JPEG of it.
    public var screenshot: @Sendable () throws(WebRefusal) -> [UInt8]

    /// Screen `name`'s parts.
    public init(name: String, status: @escaping @Sendable () -> PlayerStatus, command: @escaping @Sendable (JSONValue) -> JSONValue,
                screenshot: @escaping @Sendable () throws(WebRefusal) -> [UInt8]) {
        self.name = name
        self.status = status
        self.command = command
        self.screenshot = screenshot
    }
}

/// The schedule file as the page edits it: read, checked by check-config's own rules (nothing is saved with a
/// problem), saved, and taken up by the player.
public struct WebSchedule: Sendable {
    /// The file.
    public var path: String
    /// Checks `text` as the file: the problems (`FILE:LINE: reason`), or what plays over the next 7 days.
    public var check: @Sendable (String) -> Result<[WebScheduleSpan], WebScheduleProblems>
    /// The player takes up the file as saved.
    public var reload: @Sendable () -> Void

    public init(path: String, check: @escaping @Sendable (String) -> Result<[WebScheduleSpan], WebScheduleProblems>,
                reload: @escaping @Sendable () -> Void) {
        self.path = path
        self.check = check
        self.reload = reload
    }
}

/// A stretch of the next 7 days and what plays in it.
public struct WebScheduleSpan: Sendable, Equatable {
    public var start: Date
    public var end: Date
    /// The target (`/srv/ads`, `off`), `(fallback)` marked.
    public var label: String
    public var off: Bool
    public init(start: Date, end: Date, label: String, off: Bool) {
        self.start = start
        self.end = end
        self.label = label
        self.off = off
    }
}

/// check-config's problems with a schedule, one line each.
public struct WebScheduleProblems: Error, Sendable {
    public var lines: [String]
    public init(_ lines: [String]) { self.lines = lines }
}

/// What a probe says of a media file.
public struct MediaSummary: Sendable, Equatable {
    /// `image`, `animation`, `video`, `audio`.
    public var kind: String
    public var width: Int?
    public var height: Int?
    /// Seconds, for what has a duration.
    public var duration: Double?
    public init(kind: String, width: Int? = nil, height: Int? = nil, duration: Double? = nil) {
        self.kind = kind
        self.width = width
        self.height = height
        self.duration = duration
    }
}

/// Why the backend could not do what a request asked, in one line.
public struct WebRefusal: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// How the page is protected: a crypt(3) password hash (none: loopback only), a bearer token for scripts, the
/// upload cap, and whether it is served over TLS.
public struct WebSecurity: Sendable {
    public var passwordHash: String?
    public var token: String?
    public var uploadLimit: Int64
    public init(passwordHash: String?, token: String?, uploadLimit: Int64) {
        self.passwordHash = passwordHash
        self.token = token
        self.uploadLimit = uploadLimit
    }
}
