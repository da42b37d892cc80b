import Foundation
import KioskCore
import KioskMedia

/// The player's status sent to the server an index names (its `ReportSubscription` of kind status, A-SMIL's
/// `SystemReport`) on its own period (the subscription's, else 5 minutes, as A-SMIL sends it): one JSON object,
/// made by `status` at each report (`PlayerStatusReport.json` is one), PUT or POSTed to the URL itself. A report
/// that fails is not kept (the next one says the state then); failures are one line per change, retried with
/// backoff.
public final class StatusReportUpload: @unchecked Sendable {
    /// Seconds between reports when the subscription gives none.
    public static let defaultPeriod = 300.0

    /// Where reports go, how and how often.
    public let subscription: ReportSubscription
    private let sender: ReportSender
    private let log: Log
    private let status: @Sendable () -> JSONValue
    private let trouble = ReportTrouble()
    private let passLock = NSLock()
    private var loop: ReportLoop?

    /// An upload of what `status` says to `subscription`'s URL. `retry` overrides the backoff (tests). A subscription
    /// whose URL is not http or https is refused: the error is its one line.
    public init(subscription: ReportSubscription, settings: FetchSettings, log: Log, retry: (first: Double, most: Double)? = nil,
                status: @escaping @Sendable () -> JSONValue) throws(FetchError) {
        guard ReportSender.isSendable(subscription.url) else {
            throw FetchError(url: subscription.url, reason: .refused("not an http or https URL; no status is sent to it"))
        }
        self.subscription = subscription
        self.sender = ReportSender(settings: settings)
        self.log = log
        self.status = status
        let backoff = retry ?? (PlayReportUpload.defaultRetry.first, subscription.retry ?? PlayReportUpload.defaultRetry.most)
        loop = ReportLoop(name: "kiosk-status-reports", period: subscription.period ?? Self.defaultPeriod, retry: backoff) { [weak self] in
            self?.sendOnce() == nil
        }
    }

    /// An upload let go without `stop` ends its thread too.
    deinit { loop?.stop(waiting: 0) }

    /// Sends at once, then every period, on a thread of its own.
    public func start() {
        log.info("reports: status to \(FetchError.quoted(subscription.url)) every \(reportSeconds(subscription.period ?? Self.defaultPeriod)) "
                 + "(\(subscription.method.rawValue))")
        loop?.start()
    }

    /// Sends a report now rather than at the end of the period.
    public func sendNow() { loop?.wake() }

    /// Ends the thread, waiting up to `seconds` for a report under way.
    public func stop(waiting seconds: Double = 2) { loop?.stop(waiting: seconds) }

    /// Sends one report of the status now; nil when the server took it, else why not (one line naming the URL).
    @discardableResult
    public func sendOnce() -> String? {
        passLock.lock()
        defer { passLock.unlock() }
        let body = Array((status().text + "\n").utf8)
        do {
            try sender.send(body, to: subscription.url, method: subscription.method == .put ? .put : .post)
            if trouble.delivered() { log.info("reports: status delivered again to \(FetchError.quoted(subscription.url))") }
            return nil
        } catch {
            if trouble.failed(error.description) { log.warn("reports: status not delivered: \(error.description); the next report says the state then") }
            return error.description
        }
    }
}

/// The player's status as a status report says it: one JSON object of what plays, the content and its cache, and
/// the last check. Made from values the caller read (under its own locks): nothing here reads the cache.
public struct PlayerStatusReport: Sendable, Equatable {
    /// The player's name (the host name).
    public var player: String
    /// When the report was made.
    public var time: Date
    /// What plays now: a line per region or item (a path, or the URL it came from).
    public var playing: [String]
    /// The index that plays (the last good one in the cache), if any.
    public var index: KeptIndex?
    /// The last check of the index URL and how it went, if any.
    public var lastCheck: CheckRecord?
    /// Bytes the content cache holds, and its budget (nil: none).
    public var cacheBytes: Int64?
    /// See `cacheBytes`.
    public var cacheBudget: Int64?

    /// A report of these values.
    public init(player: String, time: Date, playing: [String], index: KeptIndex?, lastCheck: CheckRecord?, cacheBytes: Int64?,
                cacheBudget: Int64?) {
        self.player = player; self.time = time; self.playing = playing; self.index = index; self.lastCheck = lastCheck
        self.cacheBytes = cacheBytes; self.cacheBudget = cacheBudget
    }

    /// `{"player", "version", "time", "playing": […], "content": {"index", "fetched", "signed", "media"} | null,
    /// "cache": {"bytes", "budget"}, "last_check": {"url", "at", "outcome", "problems": […]} | null}`, times in UTC.
    public var json: JSONValue {
        func when(_ seconds: Double) -> JSONValue { .string(Self.utc(Date(timeIntervalSince1970: seconds))) }
        let content: JSONValue = index.map {
            .object([("index", .string($0.url)), ("fetched", when($0.publishedAt)), ("signed", .bool($0.signed)), ("media", .int(Int64($0.media.count)))])
        } ?? .null
        let check: JSONValue = lastCheck.map {
            .object([("url", .string($0.url)), ("at", when($0.at)), ("outcome", .string($0.outcome)), ("problems", .array($0.problems.map { .string($0) }))])
        } ?? .null
        return .object([
            ("player", .string(player)), ("version", .string(KioskVersion.number)), ("time", .string(Self.utc(time))),
            ("playing", .array(playing.map { .string($0) })), ("content", content),
            ("cache", .object([("bytes", cacheBytes.map { .int($0) } ?? .null), ("budget", cacheBudget.map { .int($0) } ?? .null)])),
            ("last_check", check),
        ])
    }

    /// `2026-12-24T21:59:00.250Z`.
    static func utc(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }
}
