import Foundation

/// One entry of the slideshow: a file and its own settings.
public struct PlaylistItem: Sendable, Equatable {
    /// The file.
    public var path: String
    /// Seconds this item stays, overriding the playlist's duration (stills; animations play whole loops).
    public var duration: Double?
    /// Projection and start view from an `#EXTKIOSK:` line before the entry.
    public var override: ProjectionOverride?

    /// Creates an item.
    public init(path: String, duration: Double? = nil, override: ProjectionOverride? = nil) {
        self.path = path
        self.duration = duration
        self.override = override
    }
}

/// Turns the paths given on the command line into items: files, folders (recursive, sorted by name) and
/// `.m3u`/`.m3u8` playlists (relative entries against the playlist's folder; `#EXTINF:SECONDS,` sets a duration;
/// `#EXTKIOSK:key=value,...` sets the next entry's projection and start view, see `ProjectionOverride`).
public struct PlaylistLoader {
    /// File name extensions that are tried as media when found in a folder.
    public static let mediaExtensions: Set<String> = [
        "jpg", "jpeg", "png", "bmp", "tif", "tiff", "gif", "webp", "apng",
        "mp4", "m4v", "mov", "mkv", "webm", "avi", "ts", "mpg", "mpeg",
        "mp3", "m4a", "aac", "flac", "wav", "ogg", "opus",
    ]

    /// Where problems go.
    public let log: Log

    /// Creates a loader.
    public init(log: Log) { self.log = log }

    /// Expands `paths` in order. Paths that don't exist are logged and skipped.
    public func load(_ paths: [String]) -> [PlaylistItem] {
        var out: [PlaylistItem] = []
        var seenPlaylists = Set<String>()
        for p in paths { expand(p, into: &out, playlists: &seenPlaylists) }
        return out
    }

    private func expand(_ path: String, into out: inout [PlaylistItem], playlists: inout Set<String>,
                        duration: Double? = nil, override: ProjectionOverride? = nil) {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            log.warn("\(path): skipped: no such file or folder")
            return
        }
        if isDir.boolValue {
            for f in folderFiles(path) { out.append(PlaylistItem(path: f, override: override)) }
            return
        }
        let ext = (path as NSString).pathExtension.lowercased()
        if ext == "m3u" || ext == "m3u8" {
            let real = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
            guard !playlists.contains(real) else {
                log.warn("\(path): skipped: playlist includes itself")
                return
            }
            playlists.insert(real)
            for entry in parsePlaylist(path) {
                expand(entry.path, into: &out, playlists: &playlists, duration: entry.duration, override: entry.override)
            }
            playlists.remove(real)
            return
        }
        out.append(PlaylistItem(path: path, duration: duration, override: override))
    }

    /// Media files under `folder`, recursively, sorted by path (name order, folders in place).
    public func folderFiles(_ folder: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: folder) else { return [] }
        var files: [String] = []
        while let rel = e.nextObject() as? String {
            let name = (rel as NSString).lastPathComponent
            if name.hasPrefix(".") { continue }
            let ext = (rel as NSString).pathExtension.lowercased()
            guard Self.mediaExtensions.contains(ext) else { continue }
            files.append(rel)
        }
        return files.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
            .map { (folder as NSString).appendingPathComponent($0) }
    }

    /// The tag of a playlist line setting the next entry's projection and view.
    public static let kioskTag = "#EXTKIOSK:"

    /// The entries of an M3U playlist, resolved against its folder.
    public func parsePlaylist(_ path: String) -> [PlaylistItem] {
        guard let data = FileManager.default.contents(atPath: path),
              let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) else {
            log.warn("\(path): skipped: playlist cannot be read")
            return []
        }
        let base = (path as NSString).deletingLastPathComponent
        var items: [PlaylistItem] = []
        var pendingDuration: Double?
        var pendingOverride: ProjectionOverride?
        for raw in text.split(whereSeparator: \.isNewline) {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("\u{FEFF}") { line.removeFirst() }
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if line.uppercased().hasPrefix("#EXTINF:") {
                    let v = line.dropFirst(8).prefix { $0 != "," }
                    if let d = Double(v.trimmingCharacters(in: .whitespaces)), d > 0 { pendingDuration = d }
                } else if line.uppercased().hasPrefix(Self.kioskTag) {
                    do {
                        let o = try ProjectionOverride(parsing: String(line.dropFirst(Self.kioskTag.count)))
                        try o.validate()
                        pendingOverride = (pendingOverride ?? ProjectionOverride()).merged(with: o)
                    } catch {
                        log.warn("\(path): \(line): ignored: \(error)")
                    }
                }
                continue
            }
            if line.hasPrefix("file://") { line = String(line.dropFirst(7)) }
            let full = line.hasPrefix("/") ? line : (base as NSString).appendingPathComponent(line)
            items.append(PlaylistItem(path: full, duration: pendingDuration, override: pendingOverride))
            pendingDuration = nil
            pendingOverride = nil
        }
        return items
    }
}
