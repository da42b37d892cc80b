import Foundation
import KioskCore
import KioskMedia

/// With `--schedule`, the folders of what plays now are watched, and only those: each time the schedule starts a
/// target (a window's folder, the fallback, or the command line's paths), the watchers of the one before stop and
/// a watcher starts for each folder among the new target's paths, knowing the items just loaded for it, so only
/// what changes later is sent. While the screen is off nothing is watched (waking loads the target afresh).
///
/// `play(paths:items:)` is called on the player's thread (at the schedule's turns) and once before the player
/// exists; watchers made before `start(sending:)` start then.
public final class ScheduledFolders {
    private let watch: Bool
    private let settle: Double
    private let log: Log
    private var sink: CommandSink?
    private var sources: [FolderSource] = []

    /// Watches targets' folders when `watch` (false: `--no-watch`); `settle` is the watchers' settle time.
    public init(watch: Bool, settle: Double, log: Log) {
        self.watch = watch
        self.settle = settle
        self.log = log
    }

    /// The folders now watched, for logs and tests.
    public var folders: [String] { sources.map(\.folder) }

    /// What plays now is `paths`, loaded as `items`: watch the folders among them instead of the ones before.
    public func play(paths: [String], items: [PlaylistItem]) {
        stopSources()
        guard watch else { return }
        for path in paths {
            guard let folder = WatchedFolders.folder(path) else { continue }
            let inside = folder.hasSuffix("/") ? folder : folder + "/"
            let known = items.map(\.path).filter { $0.hasPrefix(inside) }
            do {
                let source = try FolderSource(folder: folder, known: known, settle: settle, log: log)
                sources.append(source)
                if let sink { source.start(sending: sink) }
            } catch {
                log.warn("\(folder): not watched for changes: \(error)")
            }
        }
    }

    /// Starts the watchers made so far and any made later, sending to `sink` (the player's inbox).
    public func start(sending sink: CommandSink) {
        self.sink = sink
        for s in sources { s.start(sending: sink) }
    }

    /// Stops every watcher (at the end of the run).
    public func stop() {
        stopSources()
        sink = nil
    }

    private func stopSources() {
        for s in sources { s.stop() }
        sources.removeAll()
    }
}
