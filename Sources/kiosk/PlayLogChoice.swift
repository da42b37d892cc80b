import Foundation
import KioskCore
import KioskPlayer
import KioskPlayLog

/// Which play log `play` and `record` write (`--play-log FILE`, `--no-play-log`, `--play-log-days N`): `play`
/// writes `plays.sqlite` in the state folder unless told otherwise; `record` (a preview) only the file named.
enum PlayLogChoice {
    /// The log the options ask for, opened; nil when there is none. A log that cannot be opened is one warn
    /// line and nil (playback goes on); bad flags are usage errors.
    static func open(_ o: ParsedOptions, stateFolder: String??, log: Log) throws -> (PlayLog, Double)? {
        let days = Double(o.integer("play-log-days") ?? 400)
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
            let store = try PlayLog(path: path, log: log, busy: 0.25)  // its writer's thread tries again itself
            if store.isOpen { log.info("play log: kept in \(path)") }
            return (store, days)
        } catch {
            log.warn("play log: \(error.description); playing without recording showings")
            return nil
        }
    }

    /// Logs `player`'s showings into the log `open` gave (on its wall clock, which must be set first), and lets the
    /// remotes read it (IPC's `play-report`, MQTT's `stats`; today is the wall clock's local day).
    static func attach(_ opened: (PlayLog, Double)?, to player: Player, reports: PlayReports) {
        guard let (store, days) = opened else { return }
        _ = PlayerPlayLog(store: store, player: player, keepDays: days)
        PlayLogRemote.connect(reports, path: store.path, zone: player.wallClock.zone)
    }
}
