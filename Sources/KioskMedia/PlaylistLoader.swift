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
        switch Self.kind(of: path) {
        case .url:
            log.warn("\(path): skipped: a URL; kiosk is an offline player and plays local files only")
        case .missing(let path):
            log.warn("\(path): skipped: no such file or folder")
        case .folder(let path):
            for f in folderFiles(path) { out.append(PlaylistItem(path: f, override: override, window: entry?.window)) }
        case .playlist(let path):
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
        case .file(let path):
            out.append(PlaylistItem(path: path, duration: duration, override: override, title: entry?.title,
                                    window: entry?.window, caption: entry?.caption))
        }
    }

    /// What a path given to play (or named by a schedule or a playlist) is, as the loader takes it.
    public enum PathKind: Equatable {
        /// A URL (other than `file://`): never opened.
        case url
        /// Nothing is there (the local path).
        case missing(String)
        /// A folder, played recursively (the local path).
        case folder(String)
        /// An `.m3u`/`.m3u8` playlist (the local path).
        case playlist(String)
        /// Any other file (the local path).
        case file(String)
    }

    /// What `path` is: a `file://` URI is taken as its local path.
    public static func kind(of path: String) -> PathKind {
        guard let local = M3U.localPath(path) else { return .url }
        var isDir: ObjCBool = false
        guard FileAccess.exists(local, isDirectory: &isDir) else { return .missing(local) }
        if isDir.boolValue { return .folder(local) }
        let ext = MediaExtensions.of(local)
        return ext == "m3u" || ext == "m3u8" ? .playlist(local) : .file(local)
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
