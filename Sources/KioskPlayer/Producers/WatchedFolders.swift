import Foundation
import KioskCore
import KioskMedia

/// The items `kiosk play`'s paths give at start, and a `FolderSource` for each path that is a folder (unless
/// watching is off): from then on the folder on disk is the source of truth for its items.
///
/// A folder is loaded at start as without watching (the same items, in the same order, before the first frame),
/// and its watcher reports only what differs from that. A folder with more than `loadAtStartLimit` entries is
/// not loaded at start, so its scan does not delay the first frame: the player starts with the other items (or
/// idles) and the folder's items stream in from its watcher's first scan.
public final class WatchedFolders {
    /// Folders with more entries (files and subfolders, counted until the limit) stream in instead.
    public static let loadAtStartLimit = 5000

    /// The items to start with, in the paths' order.
    public let items: [PlaylistItem]
    /// One per watched folder.
    public let sources: [FolderSource]

    /// Loads `paths` (as `PlaylistLoader`) and, with `watch`, makes a source for each folder among them;
    /// `settle` is the watchers' settle time in seconds.
    public init(paths: [String], watch: Bool, settle: Double, log: Log) {
        let loader = PlaylistLoader(log: log)
        var items: [PlaylistItem] = []
        var sources: [FolderSource] = []
        for path in paths {
            guard watch, let folder = Self.folder(path) else {
                items += loader.load([path])
                continue
            }
            let streams = (FileAccess.entries(under: folder, limit: Self.loadAtStartLimit + 1)?.count ?? 0) > Self.loadAtStartLimit
            let loaded = streams ? [] : loader.load([path])
            do {
                sources.append(try FolderSource(folder: folder, known: streams ? nil : loaded.map(\.path), settle: settle, log: log))
                if streams { log.info("\(folder): more than \(Self.loadAtStartLimit) entries: its items stream in while playing") }
                items += loaded
            } catch {
                log.warn("\(folder): not watched for changes: \(error)")
                items += streams ? loader.load([path]) : loaded
            }
        }
        self.items = items
        self.sources = sources
    }

    /// Whether no folder is watched.
    public var isEmpty: Bool { sources.isEmpty }

    /// Starts every watcher, sending to `sink` (the player's inbox).
    public func start(sending sink: CommandSink) {
        for s in sources { s.start(sending: sink) }
    }

    /// Stops every watcher.
    public func stop() {
        for s in sources { s.stop() }
    }

    /// The local folder `path` names (a `file://` URI too), if it is one.
    static func folder(_ path: String) -> String? {
        guard let local = M3U.localPath(path) else { return nil }
        var isFolder: ObjCBool = false
        return FileAccess.exists(local, isDirectory: &isFolder) && isFolder.boolValue ? local : nil
    }
}
