import KioskCore

/// The metadata segments of a JPEG, found by walking its markers from the start to the first start-of-scan:
/// APP1 `Exif` (EXIF), APP1 XMP and APP13 `Photoshop 3.0` (IPTC). Only segment headers and the bodies of
/// the first of each of those are read (each at most 64 KiB by the format), and the walk stops after
/// `maxMarkers` or when the reader's byte budget is spent.
struct JPEGMetadata {
    /// The TIFF bytes of the first EXIF segment.
    var exif: [UInt8]?
    /// The first XMP packet.
    var xmp: [UInt8]?
    /// The image resources of the first Photoshop segment.
    var photoshop: [UInt8]?

    /// The most markers (fill bytes included) walked before giving up: real files have a handful.
    static let maxMarkers = 1024

    /// Walks `file`, which starts with a JPEG's SOI marker. A segment cut short by the end of the file ends the
    /// walk; what was found before it is kept.
    init(_ file: BoundedFileReads) {
        let exifHeader = Array("Exif\0\0".utf8)
        var offset = 2
        for _ in 0..<Self.maxMarkers {
            let head = file.read(at: offset, count: 4)
            guard head.count >= 2, head[0] == 0xFF else { return }
            let marker = head[1]
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return }  // start of scan or end of image: no metadata after it
            guard head.count == 4 else { return }
            let length = Int(head[2]) << 8 | Int(head[3])
            guard length >= 2 else { return }
            if marker == 0xE1 || marker == 0xED {
                // The header says which segment it is; only a wanted one's body is read (an extended-XMP or
                // ICC run of segments is skipped unread).
                let header = file.read(at: offset + 4, count: min(length - 2, 32))
                let wanted: [UInt8]?
                if marker == 0xE1, exif == nil, MetadataText.has(header, exifHeader) {
                    wanted = exifHeader
                } else if marker == 0xE1, xmp == nil, MetadataText.has(header, XMPText.jpegHeader) {
                    wanted = XMPText.jpegHeader
                } else if marker == 0xED, photoshop == nil, MetadataText.has(header, IPTCText.photoshopHeader) {
                    wanted = IPTCText.photoshopHeader
                } else {
                    wanted = nil
                }
                if let wanted {
                    let body = file.read(at: offset + 4 + wanted.count, count: length - 2 - wanted.count)
                    guard body.count == length - 2 - wanted.count else { return }  // the file ends inside it
                    switch wanted {
                    case exifHeader: exif = body
                    case XMPText.jpegHeader: xmp = body
                    default: photoshop = body
                    }
                }
            }
            offset += 2 + length
        }
    }
}
