import Foundation

/// One entry of the slideshow: a file and its own settings.
public struct PlaylistItem: Sendable, Equatable {
    /// The file.
    public var path: String
    /// Seconds this item stays, overriding the playlist's duration (stills; animations play whole loops).
    public var duration: Double?
    /// Projection and start view from an `#EXTKIOSK:` line before the entry.
    public var override: ProjectionOverride?
    /// A title, from the `#EXTINF:SECONDS,TITLE` line before the entry.
    public var title: String?
    /// When the item may play (`#EXTKIOSK:days=mon-fri,from=09:00,to=17:30,start=…,end=…`); always without one.
    public var window: ItemWindow?
    /// Its caption from `#EXTKIOSK:caption=…` (see `M3U.splitCaption`); "" says it has none.
    public var caption: String?

    /// Creates an item.
    public init(path: String, duration: Double? = nil, override: ProjectionOverride? = nil, title: String? = nil,
                window: ItemWindow? = nil, caption: String? = nil) {
        self.path = path
        self.duration = duration
        self.override = override
        self.title = title
        self.window = window
        self.caption = caption
    }
}

/// The text of an M3U playlist, read into items without touching the file system: relative entries are taken
/// against the playlist's folder; `#EXTINF:SECONDS,TITLE` sets the next entry's duration and title; `#EXTKIOSK:key=value,...`
/// sets the next entry's projection and start view (see `ProjectionOverride`), play window (`ItemWindow`) and
/// caption (`caption=` takes the rest of the line, see `splitCaption`).
public enum M3U {
    /// The tag of a playlist line setting the next entry's projection and view.
    public static let kioskTag = "#EXTKIOSK:"

    /// The entries of `text`, a playlist in folder `base`; lines that can't be used are logged naming `source`.
    /// With `content` (a playlist the content fetcher got from a server), each entry is a URL, relative ones taken
    /// against the playlist's own URL, and plays from its file in the content cache; one not there is skipped.
    public static func entries(in text: String, base: String, source: String, log: Log, content: ContentMap? = nil) -> [PlaylistItem] {
        var items: [PlaylistItem] = []
        var pendingDuration: Double?
        var pendingOverride: ProjectionOverride?
        var pendingTitle: String?
        var pendingWindow: ItemWindow?
        var pendingCaption: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("\u{FEFF}") { line.removeFirst() }
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if line.uppercased().hasPrefix("#EXTINF:") {
                    let v = line.dropFirst(8).prefix { $0 != "," }
                    // `inf`, `nan`, `1e400` (inf) and past 100 years (`TimeSpan`) are no duration: the entry gets the default.
                    if let d = Double(v.trimmingCharacters(in: .whitespaces)), d > 0, let span = TimeSpan(seconds: d) { pendingDuration = span.seconds }
                    let title = line.dropFirst(8).drop { $0 != "," }.dropFirst().trimmingCharacters(in: .whitespaces)
                    pendingTitle = title.isEmpty ? nil : title
                } else if line.uppercased().hasPrefix(kioskTag) {
                    let (payload, caption) = splitCaption(payload: String(line.dropFirst(kioskTag.count)))
                    if let caption { pendingCaption = caption }
                    if caption != nil && payload.isEmpty { continue }
                    do {
                        let (window, rest) = try ItemWindow.split(payload: payload)
                        if let window { pendingWindow = window }
                        if window == nil || !rest.isEmpty {
                            let o = try ProjectionOverride(parsing: rest)
                            try o.validate()
                            pendingOverride = (pendingOverride ?? ProjectionOverride()).merged(with: o)
                        }
                    } catch {
                        log.warn("\(source): \(line): ignored: \(error)")
                    }
                }
                continue
            }
            let local: String?
            if let content {
                local = content.file(for: line)
                if local == nil {
                    log.warn("\(source): \(line): skipped: "
                             + (content.absolute(line) == nil ? "not an http or https URL" : "not in the content cache"))
                }
            } else {
                local = localPath(line)
                if local == nil {
                    log.warn("\(source): \(line): skipped: a URL; kiosk plays local files here (`kiosk play URL` fetches a playlist and its media from a server)")
                }
            }
            guard let local else {
                pendingDuration = nil
                pendingOverride = nil
                pendingTitle = nil
                pendingWindow = nil
                pendingCaption = nil
                continue
            }
            let full = local.hasPrefix("/") ? local : (base as NSString).appendingPathComponent(local)
            items.append(PlaylistItem(path: full, duration: pendingDuration, override: pendingOverride, title: pendingTitle,
                                      window: pendingWindow, caption: pendingCaption))
            pendingDuration = nil
            pendingOverride = nil
            pendingTitle = nil
            pendingWindow = nil
            pendingCaption = nil
        }
        return items
    }

    /// The local path an entry names, or nil when it is a URL (`scheme://…`, other than a local `file://`).
    /// `file:///abs/path` and `file://localhost/abs/path` become `/abs/path` (percent-escapes decoded); anything
    /// else without `://` is a path as written, so a folder named `http:` stays a folder.
    public static func localPath(_ entry: String) -> String? {
        guard let range = entry.range(of: "://") else { return entry }
        let scheme = entry[..<range.lowerBound]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else {
            return entry  // `a/b://c` or `:://x`: not a URL scheme, a path with odd characters
        }
        guard scheme.lowercased() == "file" else { return nil }
        var rest = String(entry[range.upperBound...])
        if rest.lowercased().hasPrefix("localhost/") { rest.removeFirst("localhost".count) }
        guard rest.hasPrefix("/") else { return nil }  // file://otherhost/…: not on this machine
        return rest.removingPercentEncoding ?? rest
    }
}
