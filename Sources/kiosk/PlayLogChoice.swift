import Foundation
import KioskCore
import KioskPlayer
import KioskPlayLog

/// Which play log `play` and `record` write (`--play-log FILE`, `--no-play-log`, `--play-log-days N`,
/// `--play-log-batch S`): `play` writes `plays.sqlite` in the state folder unless told otherwise; `record` (a
/// preview) only the file named.
enum PlayLogChoice {
    /// The log opened, and how it is kept.
    struct Opened {
        let store: PlayLog
        /// Days of showings kept.
        let days: Double
        /// Seconds of showings written together.
        let batch: Double
    }

    /// Seconds of showings written together unless `--play-log-batch` says otherwise.
    static let defaultBatch = 300.0

    /// Seconds between checkpoints of the WAL for a writer of `batch` seconds: a checkpoint writes each page the
    /// batches since changed once more, so the fewer the better, while the WAL stays small (a few batches).
    static func checkpointEvery(batch: Double) -> Double { batch > 0 ? min(600, max(5, batch * 10)) : 5 }

    /// The log the options ask for, opened; nil when there is none. A log that cannot be opened is one warn
    /// line and nil (playback goes on); bad flags are usage errors.
    static func open(_ o: ParsedOptions, stateFolder: String??, log: Log) throws -> Opened? {
        let days = Double(o.integer("play-log-days") ?? 400)
        let batch = o.number("play-log-batch") ?? defaultBatch
        if o.has("no-play-log") {
            if o.string("play-log") != nil { throw UsageError("--play-log and --no-play-log contradict each other") }
            return nil
        }
        let path: String
        if let named = o.string("play-log") {
            guard !named.isEmpty else { throw UsageError("--play-log: needs a file") }
            path = named
        } else if let folder = stateFolder.flatMap({ $0 }) {
            path = StateDirectory.joined(folder, "plays.sqlite")
        } else {
            if stateFolder != nil { log.info("play log: no state folder to keep it in; give --play-log FILE to record showings") }
            return nil
        }
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        do {
            // its writer's thread tries again itself
            let store = try PlayLog(path: path, log: log, busy: 0.25, checkpointEvery: checkpointEvery(batch: batch))
            if store.isOpen { log.info("play log: kept in \(path)") }
            return Opened(store: store, days: days, batch: batch)
        } catch {
            log.warn("play log: \(error.description); playing without recording showings")
            return nil
        }
    }

    /// Logs `player`'s showings into the log `open` gave (on its wall clock, which must be set first), and lets the
    /// remotes read it (IPC's `play-report`, MQTT's `stats`; today is the wall clock's local day) and have its head
    /// signed (IPC's `sign-play-log`, MQTT's `cmd/sign-play-log`).
    static func attach(_ opened: Opened?, to player: Player, reports: PlayReports) {
        guard let opened else { return }
        let writing = PlayerPlayLog(store: opened.store, player: player, keepDays: opened.days, batch: opened.batch)
        PlayLogRemote.connect(reports, path: opened.store.path, zone: player.wallClock.zone)
        reports.connect(sign: writing.signOnDemand)
    }
}
