import Foundation
import KioskCore
import KioskPlayer

/// Which folders `kiosk play`'s health readings watch the free space of: the content cache, the state folder and
/// the play log's folder, each where this run keeps it (one reading per folder, even when they share a disk); and
/// how often it reads and what it alerts on (`--health-interval`, `--health-alert-*`).
enum HealthFolders {
    /// The monitor's settings for a run with options `o`; a bad threshold is one usage error naming its flag.
    static func settings(_ o: ParsedOptions, stateFolder: String?, playLog: String?) throws(UsageError) -> HealthMonitor.Settings {
        var settings = HealthMonitor.Settings()
        settings.interval = o.number("health-interval") ?? settings.interval
        settings.alerts = try HealthAlertRules(o)
        var folders: [(name: String, path: String)] = []
        if let cache = o.string("content-cache") ?? stateFolder.map({ StateDirectory.joined($0, "content") }) {
            folders.append(("cache", cache))
        }
        if let stateFolder { folders.append(("state", stateFolder)) }
        if let playLog { folders.append(("play-log", (playLog as NSString).deletingLastPathComponent)) }
        settings.folders = folders
        return settings
    }
}
