import Foundation
import KioskCore

/// One `ThumbnailDiskCache` per folder in a process. The grid and the web page's media list both keep 360 px
/// thumbnails; sharing the folder's one cache keeps its byte count and least-recently-used order true for both
/// (two caches over one folder would each count only their own entries, and evict the other's unseen).
extension ThumbnailDiskCache {
    private static let registry = Registry()

    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var byFolder: [String: ThumbnailDiskCache] = [:]
    }

    /// The process's cache over `folder` (made on first use, with `budget`; a later caller's budget is ignored).
    public static func shared(folder: String, budget: Int = defaultBudget, log: Log) -> ThumbnailDiskCache {
        let key = URL(fileURLWithPath: folder).standardized.path
        registry.lock.lock()
        defer { registry.lock.unlock() }
        if let cache = registry.byFolder[key] { return cache }
        let cache = ThumbnailDiskCache(folder: folder, budget: budget, log: log)
        registry.byFolder[key] = cache
        return cache
    }

    /// The cache the grid's `settings` ask for: `--thumb-cache-dir`, else the default folder (under
    /// `stateDirectory` when there is no cache home); nil with `--no-thumb-cache` or when no folder is known.
    public static func forGrid(_ settings: GridSettings, stateDirectory: String?, log: Log) -> ThumbnailDiskCache? {
        guard settings.diskCache, let folder = settings.diskFolder ?? defaultFolder(stateDirectory: stateDirectory) else { return nil }
        return shared(folder: folder, budget: settings.diskBytes, log: log)
    }
}
