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

/// The player's status as a status report says it: one JSON object of what plays and of the content fetcher, the
/// latter as the remotes write it (`ContentStatus.members`), so a CMS reads what `kiosk ctl content`, MQTT and the
/// web page say. Made from the board's status (`PlayerBoard.status`): nothing here reads the cache or the player.
public struct PlayerStatusReport: Sendable, Equatable {
    /// The player's name (the host name).
    public var player: String
    /// When the report was made.
    public var time: Date
    /// The player's status.
    public var status: PlayerStatus

    /// A report of `status`, made at `time` by `player`.
    public init(player: String, time: Date, status: PlayerStatus) {
        self.player = player
        self.time = time
        self.status = status
    }

    /// `{"player", "version", "time", "playing": {"item", "layout", "regions": [{"name", "src", "path"}], "idle",
    /// "screen_on", "alert"}, "content": {"url", "signed", "last_check", "result", "problem", "fetched", "cache_bytes",
    /// "cache_budget", "media"} | null}`; times in UTC, what is unknown `null`.
    public var json: JSONValue {
        func text(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }
        let regions: [JSONValue] = status.regions.map { .object([("name", .string($0.name)), ("src", text($0.src)), ("path", text($0.path))]) }
        let playing: JSONValue = .object([
            ("item", text(status.current?.path)), ("layout", text(status.layout)), ("regions", .array(regions)),
            ("idle", .bool(status.idle)), ("screen_on", .bool(status.screenOn)), ("alert", .bool(status.alert != nil)),
        ])
        return .object([
            ("player", .string(player)), ("version", .string(KioskVersion.number)), ("time", .string(Self.utc(time))),
            ("playing", playing), ("content", status.content.map { .object($0.members(keys: .underscores)) } ?? .null),
        ])
    }

    /// `2026-12-24T21:59:00.250Z`.
    static func utc(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }
}
