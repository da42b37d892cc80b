import Foundation
import KioskCore
import KioskMedia

/// What one pass of a proof-of-play upload did.
public struct PlayReportPass: Sendable, Equatable {
    /// Showings the server acknowledged in this pass.
    public var sent: Int
    /// Reports (HTTP requests) that succeeded.
    public var reports: Int
    /// Why the pass stopped short (one line naming the URL); nil when the backlog was sent whole.
    public var failure: String?

    /// A pass's figures.
    public init(sent: Int, reports: Int, failure: String?) {
        self.sent = sent
        self.reports = reports
        self.failure = failure
    }
}

/// Proof of play sent to the server an index names (its `ReportSubscription` of kind playback): every period, the
/// closed showings of the play log past the cursor go in reports of at most `batchLimit` (500), each a JSON array of
/// `ShowingRecord.json` objects, PUT or POSTed as the subscription says; the cursor (`ReportCursor`, a file) moves
/// past a report only after the server's 2xx. So a server that is down, or answers 500, keeps the backlog in the play
/// log, where a restart finds it; nothing is skipped.
///
/// Delivery is at least once: a report the server took just before kiosk was killed, before its cursor was saved,
/// is sent again. Every showing carries its play-log `id`, increasing and never reused within one log, by which a
/// server drops a showing it already has (with A-SMIL's PUT into a folder, the resent batch also has the same
/// file name, `playlog-FIRST-LAST.json`, when the same showings make it up).
///
/// Failures are one line per change (the first failure, another reason, delivery again), and the next try backs off
/// (10 s, doubling, up to the subscription's retry interval or 10 min). One upload per cursor file.
public final class PlayReportUpload: @unchecked Sendable {
    /// Seconds between reports when the subscription gives none.
    public static let defaultPeriod = 60.0
    /// The first wait after a failure, and the longest when the subscription gives no retry interval.
    public static let defaultRetry = (first: 10.0, most: 600.0)

    /// Where reports go, how and how often.
    public let subscription: ReportSubscription
    /// The cursor's file.
    public let cursorFile: String
    /// The most showings in one report.
    public let batchLimit: Int
    private let source: any ShowingSource
    private let sender: ReportSender
    private let log: Log
    private let mediaURL: (@Sendable (String) -> String?)?
    private let trouble = ReportTrouble()
    private let passLock = NSLock()
    private var loop: ReportLoop?
    // guarded by `passLock`
    private var cursor: ReportCursor
    private var cursorSaveFailed = false

    /// An upload of `source`'s showings to `subscription`'s URL, its cursor kept in `cursorFile` (read now: a
    /// missing file is a new cursor; an unreadable one is one line, and the log is sent from its first showing).
    /// `mediaURL` names the URL a played file was fetched from (nil: none). `retry` overrides the backoff (tests).
    /// A subscription whose URL is not http or https is refused: the error is its one line.
    public init(source: any ShowingSource, cursorFile: String, subscription: ReportSubscription, settings: FetchSettings, log: Log,
                mediaURL: (@Sendable (String) -> String?)? = nil, retry: (first: Double, most: Double)? = nil) throws(FetchError) {
        guard ReportSender.isSendable(subscription.url) else {
            throw FetchError(url: subscription.url, reason: .refused("not an http or https URL; no proof of play is sent to it"))
        }
        self.subscription = subscription
        self.cursorFile = cursorFile
        self.source = source
        self.sender = ReportSender(settings: settings)
        self.log = log
        self.mediaURL = mediaURL
        batchLimit = min(max(1, subscription.batchLimit ?? ReportSubscriptions.largestBatch), ReportSubscriptions.largestBatch)
        let (loaded, problem) = ReportCursor.load(cursorFile)
        if let problem {
            log.warn("reports: cursor \(problem); the play log is sent from its first showing (the server drops what it has by id)")
        }
        cursor = loaded ?? ReportCursor()
        let period = subscription.period ?? Self.defaultPeriod
        let backoff = retry ?? (Self.defaultRetry.first, subscription.retry ?? Self.defaultRetry.most)
        loop = ReportLoop(name: "kiosk-play-reports", period: period, retry: backoff) { [weak self] in
            self?.sendPending().failure == nil
        }
    }

    /// An upload let go without `stop` ends its thread too.
    deinit { loop?.stop(waiting: 0) }

    /// The cursor file for reports to `url`, in `folder` (the state folder's `reports`): named from a hash of the URL,
    /// so each report URL has its own cursor and a URL never becomes a path.
    public static func cursorFile(in folder: String, for url: String) -> String {
        folder + "/playlog-" + CacheNames.stem(url) + ".json"
    }

    /// Sends at once, then every period, on a thread of its own.
    public func start() {
        log.info("reports: proof of play to \(FetchError.quoted(subscription.url)) every \(reportSeconds(subscription.period ?? Self.defaultPeriod)) "
                 + "(\(subscription.method.rawValue), at most \(batchLimit) showings a report)")
        loop?.start()
    }

    /// Sends the backlog now rather than at the end of the period.
    public func sendNow() { loop?.wake() }

    /// Ends the thread, waiting up to `seconds` for a report under way.
    public func stop(waiting seconds: Double = 2) { loop?.stop(waiting: seconds) }

    /// Sends every closed showing past the cursor, report after report, until none is left or one fails; the thread
    /// calls it each period, and a caller may (one pass at a time).
    @discardableResult
    public func sendPending() -> PlayReportPass {
        passLock.lock()
        defer { passLock.unlock() }
        var pass = PlayReportPass(sent: 0, reports: 0, failure: nil)
        var restarted = false
        while loop?.isStopping != true {
            let window: ShowingWindow
            do {
                window = try source.window(after: cursor.through, skipping: cursor.acknowledged, limit: batchLimit, mark: cursor.mark?.id)
            } catch {
                pass.failure = error.description
                break
            }
            if cursor.describesAnotherLog(window), !restarted {
                restarted = true
                log.info("reports: the play log is not the one \(cursorFile) was kept for (a new log); it is sent from its first showing")
                cursor = ReportCursor()
                continue
            }
            guard let first = window.records.first, let last = window.records.last else { break }
            let records = window.records.map { record in
                var r = record
                r.url = mediaURL?(record.path)
                return r
            }
            do {
                try sender.send(Array((JSONValue.array(records.map(\.json)).text + "\n").utf8), to: target(first: first.id, last: last.id),
                                method: subscription.method == .put ? .put : .post)
            } catch {
                pass.failure = error.description
                break
            }
            pass.reports += 1
            pass.sent += records.count
            cursor.acknowledge(records, of: window, limit: batchLimit)
            saveCursor()
            if records.count < batchLimit { break }
        }
        report(pass)
        return pass
    }

    /// The showings past the cursor: how many closed ones wait (at most `limit` counted); nil when the log cannot be read.
    public func backlog(limit: Int = 100_000) -> Int? {
        passLock.lock()
        defer { passLock.unlock() }
        return try? source.window(after: cursor.through, skipping: cursor.acknowledged, limit: limit, mark: nil).records.count
    }

    /// The URL of a report of showings `first` to `last`: the subscription's, or a file of its own in that folder.
    func target(first: Int64, last: Int64) -> String {
        guard subscription.filePerBatch, var parts = URLComponents(string: subscription.url) else { return subscription.url }
        parts.path = (parts.path.hasSuffix("/") ? parts.path : parts.path + "/") + "playlog-\(first)-\(last).json"
        return parts.url?.absoluteString ?? subscription.url
    }

    /// Writes the cursor; a failure is one line (said again only after a save worked), and the cursor in memory goes on.
    private func saveCursor() {
        do throws(CacheError) {
            try cursor.save(cursorFile, url: subscription.url)
            if cursorSaveFailed { log.info("reports: cursor \(cursorFile) written again") }
            cursorSaveFailed = false
        } catch {
            if !cursorSaveFailed {
                log.warn("reports: cannot keep the cursor (\(error.description)); after a restart the showings since are sent again")
            }
            cursorSaveFailed = true
        }
    }

    /// Says what changed: the first failure (or another reason), or delivery again.
    private func report(_ pass: PlayReportPass) {
        if let failure = pass.failure {
            if trouble.failed(failure) {
                log.warn("reports: proof of play not delivered: \(failure); the showings wait in the play log and are sent when it works")
            }
        } else if trouble.delivered() {
            log.info("reports: proof of play delivered again to \(FetchError.quoted(subscription.url)) (\(pass.sent) showing\(pass.sent == 1 ? "" : "s"))")
        }
    }
}
