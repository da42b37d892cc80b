import Foundation
@preconcurrency import Glibc
import KioskCore

/// Turns the paths given on the command line into items: files, folders (recursive, sorted by name, media
/// extensions only) and `.m3u`/`.m3u8` playlists (read here, parsed by `M3U`). URLs (`http://…`, `rtmp://…`)
/// are skipped with one warning: kiosk is an offline player; `file://` URIs name local files. A playlist's bytes
/// are read through the one open `LocalFile` makes (beneath `--media-root`, through the root's descriptor), never
/// by its name again after a check, and at most `maxBytes` of them.
public struct PlaylistLoader {
    /// Where problems go.
    public let log: Log
    /// Whether every playlist, folder and file read must lie beneath `--media-root` (a remote's `loadlist` or `load`):
    /// one outside, such as a playlist an inside playlist names, is skipped with one line, unread.
    public let confined: Bool
    /// The largest playlist file read, in bytes (16 MiB, some 300,000 entries); a bigger one is skipped.
    public static let maxBytes = 16 << 20

    /// Creates a loader; `confined` for what a remote names (see `confined`).
    public init(log: Log, confined: Bool = false) {
        self.log = log
        self.confined = confined
    }

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
            log.warn("\(path): skipped: a URL; kiosk plays local files here (`kiosk play URL` fetches a playlist and its media from a server)")
        case .missing(let path):
            log.warn("\(path): skipped: no such file or folder")
        case .folder(let given):
            guard let path = confinedFolder(given) else { return }
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
            guard admitsConfined(path) else { return }
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

    /// The entries of the M3U playlist file at `path`, resolved against its folder. The file is opened once,
    /// through `LocalFile` (a FIFO or device named .m3u is refused before it could block the read; beneath
    /// `--media-root` a symlink leaving the root is refused), and read through that open file.
    public func parsePlaylist(_ path: String) -> [PlaylistItem] {
        guard admitsConfined(path) else { return [] }
        let bytes: [UInt8]
        do throws(MediaError) {
            let file = try BoundedFileReads(path, budget: Self.maxBytes)
            guard file.size <= Self.maxBytes else {
                throw MediaError(path: path, reason: "the playlist is \(file.size) bytes, over the \(Self.maxBytes >> 20) MiB kiosk reads")
            }
            bytes = file.read(at: 0, count: file.size)
        } catch {
            log.warn("\(path): skipped: \(error.reason)")
            return []
        }
        let data = Data(bytes)
        guard let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
            log.warn("\(path): skipped: playlist cannot be read")
            return []
        }
        return M3U.entries(in: text, base: (path as NSString).deletingLastPathComponent, source: path, log: log)
    }

    /// Whether `path` may be read: always, unless the loader is `confined` under a media root and `path` is
    /// neither the root nor beneath it (then one line says so). The test is on the name (`..` in it included);
    /// the read itself goes through `LocalFile`, whose open beneath the root refuses what would leave it.
    private func admitsConfined(_ path: String) -> Bool {
        guard confined, let root = MediaConfinement.rootPath, path != root, MediaConfinement.beneath(path) == nil else {
            return true
        }
        refuseOutside(path, root: root)
        return false
    }

    /// The folder to list for `path`: itself when not `confined`; else its real location (`realpath`, so a `..`
    /// or a symlink leading out counts), when that is the root or beneath it; else nil, with one line.
    private func confinedFolder(_ path: String) -> String? {
        guard confined, let root = MediaConfinement.rootPath else { return path }
        guard let resolved = FileName.withCString(path, { realpath($0, nil) }) else {
            log.warn("\(path): skipped: cannot resolve: \(String(cString: strerror(errno)))")
            return nil
        }
        let real = FileName.decode(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
        free(resolved)
        guard real == root || MediaConfinement.beneath(real) != nil else {
            refuseOutside(path, root: root)
            return nil
        }
        return real
    }

    /// The one line for a playlist, folder or file outside the root that a remote's playlist (or the schedule the web
    /// page edits) named.
    private func refuseOutside(_ path: String, root: String) {
        log.warn("\(path): skipped: outside --media-root \(root) (named by a playlist a remote loaded)")
    }
}
