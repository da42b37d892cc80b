import Foundation

/// What a caption can say about one item: its caption and the fields a caption format names, gathered from the
/// playlist, a sidecar text file, the picture's metadata or the container's tags (see `CaptionSource`).

/// Where an item's caption comes from. The sources are tried in this order and the first one that has a caption
/// gives it: the playlist (`#EXTKIOSK:caption=`, then the `#EXTINF` title), a sidecar text file, then the
/// picture's own metadata (XMP `dc:description`, IPTC Caption-Abstract, EXIF ImageDescription, a PNG text
/// `Description`), then an audio or video file's tags (`title`, else `description`).
public enum CaptionSource: Int, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    /// `#EXTKIOSK:caption=…` before the playlist entry.
    case playlist
    /// The title of the `#EXTINF:SECONDS,TITLE` line before the entry.
    case playlistTitle
    /// `NAME.EXT.txt` or `NAME.txt` next to the file.
    case sidecar
    /// XMP `dc:description`.
    case xmp
    /// IPTC Caption-Abstract (record 2, dataset 120).
    case iptc
    /// EXIF ImageDescription (IFD0 tag 0x010E).
    case exif
    /// A PNG `tEXt`/`iTXt` chunk with the keyword `Description`.
    case pngText
    /// An audio or video container's `title` tag, else its `description` tag.
    case tags

    /// Earlier sources win.
    public static func < (a: CaptionSource, b: CaptionSource) -> Bool { a.rawValue < b.rawValue }

    /// A short name for logs and tests.
    public var description: String {
        ["playlist caption", "playlist title", "sidecar", "XMP", "IPTC", "EXIF", "PNG text", "tags"][rawValue]
    }
}

/// The metadata of one item that a caption format can show. Plain values only: reading it from the file is
/// `MediaMetadataReader`'s work (KioskMedia).
public struct ItemMetadata: Sendable, Equatable {
    /// The caption, from the first source that has one; nil when none has.
    public private(set) var caption: String?
    /// Which source gave `caption` (or, for a playlist's empty `caption=`, said there is none).
    public private(set) var captionSource: CaptionSource?
    /// A title (the playlist's `#EXTINF` title, XMP `dc:title`, IPTC Object Name, PNG `Title`, the `title` tag).
    public var title: String?
    /// Who made it (XMP `dc:creator`, IPTC By-line, EXIF Artist, PNG `Author`, the `artist` tag).
    public var artist: String?
    /// The `album` tag.
    public var album: String?
    /// When it was taken or made (EXIF DateTimeOriginal, XMP/IPTC dates, EXIF DateTime, the `date` tag, the
    /// `creation_time` tag), as written, in no time zone.
    public var date: CivilDateTime?
    /// The `track` tag as written (`3`, `3/12`).
    public var track: String?
    /// The file's name without its last extension (`photo` for `photo.jpg`).
    public var filename: String
    /// The name of the folder the file is in (`Holiday` for `/media/Holiday/photo.jpg`); empty at the top.
    public var folder: String

    /// The metadata of the file at `path` before any source is read: only its name and folder.
    public init(path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        let name = parts.last.map(String.init) ?? ""
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            filename = String(name[..<dot])
        } else {
            filename = name
        }
        folder = parts.count >= 2 ? String(parts[parts.count - 2]) : ""
    }

    /// Offers `text` as the caption from `source`. It is taken when no earlier source gave one. Text is trimmed;
    /// empty text is no caption from that source, except from the playlist, where `caption=` with nothing after
    /// it says the item has no caption, so no later source is read for one.
    public mutating func offerCaption(_ text: String?, from source: CaptionSource) {
        guard let text, captionSource.map({ source < $0 }) ?? true else { return }
        let trimmed = Self.clean(text)
        if trimmed.isEmpty {
            if source == .playlist { caption = nil; captionSource = .playlist }
            return
        }
        caption = trimmed
        captionSource = source
    }

    /// Sets the field at `key` to `text` (trimmed) unless it already has a value or `text` is empty: the
    /// caller offers the sources in order, best first.
    public mutating func offer(_ text: String?, for key: WritableKeyPath<ItemMetadata, String?>) {
        guard self[keyPath: key] == nil, let text else { return }
        let trimmed = Self.clean(text)
        if !trimmed.isEmpty { self[keyPath: key] = trimmed }
    }

    /// Sets `date` unless it already has one.
    public mutating func offer(date value: CivilDateTime?) {
        if date == nil { date = value }
    }

    /// The most characters one field keeps: a caption is a line or a few, not a document.
    public static let maxFieldLength = 4096

    /// `text` trimmed, with CR LF and CR made LF, other control characters made spaces, and cut to
    /// `maxFieldLength` characters.
    public static func clean(_ text: String) -> String {
        var out = ""
        var previousCR = false
        for scalar in text.unicodeScalars {
            defer { previousCR = scalar == "\r" }
            if scalar == "\n" && previousCR { continue }
            if scalar == "\r" || scalar == "\n" { out.unicodeScalars.append("\n"); continue }
            if scalar.properties.generalCategory == .control || scalar == "\u{FEFF}" {
                out.unicodeScalars.append(" ")
                continue
            }
            out.unicodeScalars.append(scalar)
        }
        let trimmed = out.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.count > maxFieldLength ? String(trimmed.prefix(maxFieldLength)) : trimmed
    }
}
