import Foundation
import KioskCore
import KioskPlayer

/// Which folders `kiosk play`'s health readings watch the free space of: the content cache, the state folder and
/// the play log's folder, each where this run keeps it (one reading per folder, even when they share a disk).
enum HealthFolders {
    /// The monitor's settings for a run with options `o`.
    static func settings(_ o: ParsedOptions, stateFolder: String?, playLog: String?) -> HealthMonitor.Settings {
        var settings = HealthMonitor.Settings()
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
