import Foundation

/// A report of the play log that a remote asks for (IPC's `play-report`, so `kiosk ctl report`).
public struct PlayReportQuery: Sendable, Equatable {
    /// How showings are grouped: one of `groupings`.
    public var by: String
    /// How the report is written: one of `formats`.
    public var format: String
    /// Showings that started at or after `since` and before `until`; nil: no bound.
    public var since: Date?
    public var until: Date?
    /// The showings counted, by verdict: one of `verdicts` (`seen` by default, as `kiosk report --verdict`).
    public var verdict: String

    /// The groupings `kiosk report` knows.
    public static let groupings = ["item", "hour", "day", "region", "screen", "verdict"]
    /// The verdicts `kiosk report --verdict` takes.
    public static let verdicts = ["seen", "all", "display-absent", "screen-off", "tv-standby", "unknown"]
    /// The formats `kiosk report` writes.
    public static let formats = ["table", "csv", "json", "xibo"]

    /// A query; `by`, `format` and `verdict` must be among `groupings`, `formats` and `verdicts`.
    public init(by: String = "item", format: String = "table", since: Date? = nil, until: Date? = nil, verdict: String = "seen") {
        self.by = by
        self.verdict = verdict
        self.format = format
        self.since = since
        self.until = until
    }
}

extension PlayReportQuery {
    /// An instant as the IPC request carries it: ISO 8601 with a zone (`2026-12-06T08:00:00Z`,
    /// `2026-12-06T09:00:00.250+01:00`), read by `ReportTime` as the CLI and the web page read theirs; nil for
    /// anything else (`2026-13-45T…`, `+99:99`).
    public static func instant(_ text: String) -> Date? {
        try? ReportTime.parse(text, zone: TimeZone(secondsFromGMT: 0) ?? .current, needsZone: true)
    }

    /// `date` as a request carries it (UTC, whole seconds).
    public static func text(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }
}

/// Why a remote's report could not be made, in one line.
public struct PlayReportRefusal: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The play log as the remotes read it: IPC's `play-report` and MQTT's `stats`, and the one thing they ask of its
/// writer: IPC's `sign-play-log` and MQTT's `cmd/sign-play-log`, the chain's head signed now. Set once the log is
/// open, and absent when there is none. A report is read on the asking thread (the IPC server's, the fleet's)
/// through a read-only connection of its own: a WAL reader, so the player writing the log is never held up.
public final class PlayReports: @unchecked Sendable {
    /// Writes a report.
    public typealias Report = @Sendable (PlayReportQuery) throws(PlayReportRefusal) -> String
    /// Today's figures (the local day of `now`) as JSON.
    public typealias Today = @Sendable (Date) throws(PlayReportRefusal) -> JSONValue
    /// Asks the play log's writer to sign the chain's head now; never waits for it.
    public typealias Sign = @Sendable () -> Void

    /// What a remote says once it asked for the signature (IPC's reply, MQTT's log line).
    public static let signingLine = "signing the play log's head"

    /// Why a remote's request finds no play log.
    public static let noPlayLog = "there is no play log (--no-play-log, or no state folder)"

    private let lock = NSLock()
    private var reader: (report: Report, today: Today)?
    private var signer: Sign?
    private var dayZone = TimeZone.current

    /// No log yet.
    public init() {}

    /// The log is open: reports are read through `report` and `today`, whose day is the local day in `zone` (the
    /// player's `--timezone`).
    public func connect(report: @escaping Report, today: @escaping Today, zone: TimeZone) {
        lock.lock()
        reader = (report, today)
        dayZone = zone
        lock.unlock()
    }

    /// The zone "today" is a day in, so hourly publications fall on its whole hours (the system's until connected).
    public var zone: TimeZone {
        lock.lock()
        defer { lock.unlock() }
        return dayZone
    }

    /// The player writes the log: `signHead` asks it through `sign`.
    public func connect(sign: @escaping Sign) {
        lock.lock()
        signer = sign
        lock.unlock()
    }

    /// Asks the writer to sign the chain's head now (on demand; it signs each day and at the player's end anyway). The
    /// signature is written on the writer's thread, a moment later; a head signed already gets no new one.
    public func signHead() throws(PlayReportRefusal) {
        lock.lock()
        let sign = signer
        lock.unlock()
        guard let sign else { throw PlayReportRefusal(Self.noPlayLog) }
        sign()
    }

    private var current: (report: Report, today: Today)? {
        lock.lock()
        defer { lock.unlock() }
        return reader
    }

    /// Whether there is a log to read.
    public var available: Bool { current != nil }

    /// The report `query` asks for.
    public func report(_ query: PlayReportQuery) throws(PlayReportRefusal) -> String {
        guard let r = current else { throw PlayReportRefusal(Self.noPlayLog) }
        return try r.report(query)
    }

    /// Today's figures as of `now`.
    public func today(at now: Date) throws(PlayReportRefusal) -> JSONValue {
        guard let r = current else { throw PlayReportRefusal(Self.noPlayLog) }
        return try r.today(now)
    }
}
