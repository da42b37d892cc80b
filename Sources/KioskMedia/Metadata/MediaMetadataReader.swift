import KioskCore

/// Reads what a caption shows for an item, with bounded I/O: its playlist caption or title, a sidecar text
/// file, the metadata segments of a JPEG (walked up to the first scan) or the chunks of a PNG (up to the image
/// data), or an audio or video file's tags through libavformat under `LocalMediaPolicy`. The caption comes from
/// the first source that has one, in `CaptionSource`'s order:
/// `#EXTKIOSK:caption=` › `#EXTINF` title › sidecar › XMP `dc:description` › IPTC Caption-Abstract ›
/// EXIF ImageDescription › PNG `Description` text › the `title` tag, else the `description` tag.
/// Hostile or broken metadata is skipped, never fatal: what could be read is kept.
public enum MediaMetadataReader {
    /// The most bytes read from a picture's metadata segments or chunks.
    public static let pictureBudget = 2 << 20
    /// The bytes of an audio or video file's start handed to the format sniffer.
    static let sniffBytes = 64 * 1024

    /// The metadata of `item`: its playlist fields first, then its file's. A sidecar that exists but cannot be
    /// read is logged as a warning (one line naming it); a media file that cannot be read for metadata is logged
    /// at debug level only, since playing it reports the same problem.
    public static func read(_ item: PlaylistItem, log: Log) -> ItemMetadata {
        var m = ItemMetadata(path: item.path)
        m.offerCaption(item.caption, from: .playlist)
        m.offerCaption(item.title, from: .playlistTitle)
        m.offer(item.title, for: \.title)
        if m.captionSource == nil { m.offerCaption(CaptionSidecar.text(for: item.path, log: log), from: .sidecar) }
        do throws(MediaError) {
            try readFile(item.path, into: &m)
        } catch {
            log.debug("\(error.path): no caption metadata: \(error.reason)")
        }
        return m
    }

    /// The metadata of the file at `path`, with no playlist entry.
    public static func read(path: String, log: Log) -> ItemMetadata { read(PlaylistItem(path: path), log: log) }

    /// Adds the file's own metadata to `m`.
    static func readFile(_ path: String, into m: inout ItemMetadata) throws(MediaError) {
        let file = try BoundedFileReads(path, budget: pictureBudget)
        let head = file.read(at: 0, count: 16)
        if JPEGStructure.isJPEG(head) {
            let segments = JPEGMetadata(file)
            apply(xmp: segments.xmp.map { XMPText(packet: $0) } ?? XMPText(),
                  iptc: segments.photoshop.map { IPTCText(photoshopResources: $0) } ?? IPTCText(),
                  exif: segments.exif.map { EXIFText(tiff: $0) } ?? EXIFText(), png: [:], to: &m)
        } else if MetadataText.has(head, PNGMetadata.signature) {
            let chunks = PNGMetadata(file)
            apply(xmp: chunks.xmp.map { XMPText(packet: $0) } ?? XMPText(), iptc: IPTCText(),
                  exif: chunks.exif.map { EXIFText(tiff: $0) } ?? EXIFText(), png: chunks.text, to: &m)
        } else if MediaFile.Family(head: head) == .ffmpeg {
            apply(tags: try ContainerTags(path: path, head: file.read(at: 0, count: sniffBytes)), to: &m)
        }
    }

    /// Adds a picture's metadata, best source first for each field.
    static func apply(xmp: XMPText, iptc: IPTCText, exif: EXIFText, png: [String: String], to m: inout ItemMetadata) {
        m.offerCaption(xmp.description, from: .xmp)
        m.offerCaption(iptc.caption, from: .iptc)
        m.offerCaption(exif.imageDescription, from: .exif)
        m.offerCaption(png["Description"], from: .pngText)
        for title in [xmp.title, iptc.objectName, png["Title"]] { m.offer(title, for: \.title) }
        for artist in [xmp.creator, iptc.byline, exif.artist, png["Author"]] { m.offer(artist, for: \.artist) }
        for date in [exif.dateTimeOriginal, xmp.date, iptc.date, exif.dateTime,
                     png["Creation Time"].flatMap { CivilDateTime(parsing: $0) }] {
            m.offer(date: date)
        }
    }

    /// Adds an audio or video file's tags.
    static func apply(tags: ContainerTags, to m: inout ItemMetadata) {
        m.offerCaption(tags["title"] ?? tags["description"], from: .tags)
        m.offer(tags["title"], for: \.title)
        m.offer(tags["artist"], for: \.artist)
        m.offer(tags["album"], for: \.album)
        m.offer(tags["track"], for: \.track)
        m.offer(date: tags["date"].flatMap { CivilDateTime(parsing: $0) })
        m.offer(date: tags["creation_time"].flatMap { CivilDateTime(parsing: $0) })
    }
}

