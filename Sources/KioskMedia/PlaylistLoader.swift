import Foundation
import KioskCore

/// Turns the paths given on the command line into items: files, folders (recursive, sorted by name, media
/// extensions only) and `.m3u`/`.m3u8` playlists (read here, parsed by `M3U`). URLs (`http://…`, `rtmp://…`)
/// are skipped with one warning: kiosk is an offline player; `file://` URIs name local files.
public struct PlaylistLoader {
    /// Where problems go.
    public let log: Log

    /// Creates a loader.
    public init(log: Log) { self.log = log }

    /// Expands `paths` in order. Paths that don't exist, and URLs, are logged and skipped.
    public func load(_ paths: [String]) -> [PlaylistItem] {
        var out: [PlaylistItem] = []
        var seenPlaylists = Set<String>()
        for p in paths { expand(p, into: &out, playlists: &seenPlaylists) }
        return out
    }

    private func expand(_ path: String, into out: inout [PlaylistItem], playlists: inout Set<String>,
                        duration: Double? = nil, override: ProjectionOverride? = nil, entry: PlaylistItem? = nil) {
        guard let path = M3U.localPath(path) else {
            log.warn("\(path): skipped: a URL; kiosk is an offline player and plays local files only")
            return
        }
        var isDir: ObjCBool = false
        guard FileAccess.exists(path, isDirectory: &isDir) else {
            log.warn("\(path): skipped: no such file or folder")
            return
        }
        if isDir.boolValue {
            for f in folderFiles(path) { out.append(PlaylistItem(path: f, override: override, window: entry?.window)) }
            return
        }
        let ext = MediaExtensions.of(path)
        if ext == "m3u" || ext == "m3u8" {
            let real = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            guard !playlists.contains(real) else {
                log.warn("\(path): skipped: playlist includes itself")
                return
            }
            playlists.insert(real)
            for entry in parsePlaylist(path) {
                expand(entry.path, into: &out, playlists: &playlists, duration: entry.duration, override: entry.override,
                       entry: entry)
            }
            playlists.remove(real)
            return
        }
        out.append(PlaylistItem(path: path, duration: duration, override: override, title: entry?.title, window: entry?.window,
                                caption: entry?.caption))
    }

    /// Media files under `folder`, recursively, sorted by path (`PathOrder`: name order, folders in place).
    public func folderFiles(_ folder: String) -> [String] {
        guard let entries = FileAccess.entries(under: folder) else { return [] }
        let files = entries.filter { FolderMedia.counts(($0 as NSString).lastPathComponent) }
        return PathOrder.sorted(files).map { FolderMedia.path(folder, $0) }
    }

    /// The entries of the M3U playlist file at `path`, resolved against its folder.
    public func parsePlaylist(_ path: String) -> [PlaylistItem] {
        do {
            _ = try LocalFile(path)  // a FIFO or device named .m3u would block the read
        } catch let error as MediaError {
            log.warn("\(path): skipped: \(error.reason)")
            return []
        } catch {
            log.warn("\(path): skipped: \(error)")
            return []
        }
        guard let data = FileAccess.contents(path),
              let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
            log.warn("\(path): skipped: playlist cannot be read")
            return []
        }
        return M3U.entries(in: text, base: (path as NSString).deletingLastPathComponent, source: path, log: log)
    }
}
