import Foundation
import KioskCore
import KioskFetch
import KioskMedia
import KioskPlayLog

/// `kiosk play URL`'s reports back to the server: the report subscriptions of the index that plays (A-SMIL's
/// `PlaylogCollection` and `SystemReport`, signageOS's `<meta log>`), each served by an upload of its own: proof of
/// play from the play log (`PlayReportUpload`, its cursor a file in `folder`, one per report URL) and the player's
/// status (`StatusReportUpload`, from `status`). When a new index names other subscriptions, the uploads change with
/// them; one that names none stops them (the play log keeps the showings, and a later index naming the same URL goes
/// on from its cursor).
///
/// For `ContentLink`: `follow(index:url:map:)` each time it hands the player an index, `sendNow()` for a remote's
/// "check now", `stop()` at the end.
final class PlayReportUploads: @unchecked Sendable {
    private let playLog: String?
    private let folder: String
    private let settings: FetchSettings
    private let log: Log
    private let status: @Sendable () -> JSONValue
    private let media = ReportedMedia()
    private let lock = NSLock()
    // guarded by `lock`
    private var plays: PlayReportUpload?
    private var statuses: StatusReportUpload?

    /// Reports of the showings in the play log at `playLog` (nil: none is kept, so no proof of play is sent), their
    /// cursors in `folder` (the state folder's `reports`), with the fetcher's `settings`; `status` makes a status
    /// report's body.
    init(playLog: String?, folder: String, settings: FetchSettings, log: Log, status: @escaping @Sendable () -> JSONValue) {
        self.playLog = playLog
        self.folder = folder
        self.settings = settings
        self.log = log
        self.status = status
    }

    /// Reports whose status is the player's on `board` (`PlayerStatusReport`: what plays, the content fetcher as the
    /// remotes say it), named by this machine's host name.
    convenience init(playLog: String?, folder: String, settings: FetchSettings, log: Log, board: PlayerBoard) {
        let player = FleetControl.hostName()
        self.init(playLog: playLog, folder: folder, settings: settings, log: log) {
            PlayerStatusReport(player: player, time: Date(), status: board.status).json
        }
    }

    /// The index cached at `file`, fetched from `url`, now plays with `map` (nil for a playlist): its subscriptions
    /// are read (what cannot be honoured is one line each) and the uploads follow them.
    func follow(index file: String, url: String, map: ContentMap?) {
        if let map { media.remember(map) }
        var wanted: [ReportSubscription] = []
        if map != nil {
            do throws(MarkupError) {
                let read = try ReportSubscriptions.read(file: file, indexURL: url, name: url)
                for line in read.warnings { log.warn("reports: \(line)") }
                wanted = read.subscriptions
            } catch {
                log.warn("reports: \(error)")
            }
        }
        let playback = wanted.first { $0.kind == .playback }
        let state = wanted.first { $0.kind == .status }
        lock.lock()
        defer { lock.unlock() }
        if plays?.subscription != playback {
            plays?.stop()
            plays = playback.flatMap(startPlays)
        }
        if statuses?.subscription != state {
            statuses?.stop()
            statuses = state.flatMap(startStatus)
        }
    }

    /// Sends proof of play and status now rather than at the end of their periods.
    func sendNow() {
        lock.lock()
        defer { lock.unlock() }
        plays?.sendNow()
        statuses?.sendNow()
    }

    /// Ends the uploads (a report under way is waited for up to 2 s; what it did not send waits in the play log).
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        plays?.stop()
        statuses?.stop()
        plays = nil
        statuses = nil
    }

    private func startPlays(_ subscription: ReportSubscription) -> PlayReportUpload? {
        guard let playLog else {
            log.warn("reports: \(subscription.source) asks for proof of play, but no play log is kept (--no-play-log); none is sent")
            return nil
        }
        do throws(FetchError) {
            let upload = try PlayReportUpload(playLog: playLog, cursorFile: PlayReportUpload.cursorFile(in: folder, for: subscription.url),
                                              subscription: subscription, settings: settings, log: log, mediaURL: media.url)
            upload.start()
            return upload
        } catch {
            log.warn("reports: \(error.description)")
            return nil
        }
    }

    private func startStatus(_ subscription: ReportSubscription) -> StatusReportUpload? {
        do throws(FetchError) {
            let upload = try StatusReportUpload(subscription: subscription, settings: settings, log: log, status: status)
            upload.start()
            return upload
        } catch {
            log.warn("reports: \(error.description)")
            return nil
        }
    }
}

extension PlayReportUpload {
    /// An upload of the showings in the play log at `playLog` (see `PlayLogShowings`).
    convenience init(playLog: String, cursorFile: String, subscription: ReportSubscription, settings: FetchSettings, log: Log,
                     mediaURL: (@Sendable (String) -> String?)? = nil) throws(FetchError) {
        try self.init(source: PlayLogShowings(path: playLog), cursorFile: cursorFile, subscription: subscription, settings: settings,
                      log: log, mediaURL: mediaURL)
    }
}

/// The URL each content cache file was fetched from, for the showings a report names: remembered from every index's
/// map (a cache file's name comes from its URL's hash and version, so one file never stands for two URLs). Thread-safe.
final class ReportedMedia: @unchecked Sendable {
    private let lock = NSLock()
    private var urls: [String: String] = [:]

    /// Remembers the files of `map`, by their path as given and as the play log writes it (absolute, standardized).
    func remember(_ map: ContentMap) {
        lock.lock()
        defer { lock.unlock() }
        for (url, file) in map.files {
            urls[file] = url
            urls[URL(fileURLWithPath: file).standardized.path] = url
        }
    }

    /// The URL the file at `path` was fetched from; nil for a file that was not.
    @Sendable func url(_ path: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return urls[path]
    }
}
