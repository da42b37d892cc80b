import KioskCore

/// The metadata chunks of a PNG before its image data: text chunks (`tEXt`, and `iTXt` that are not
/// compressed) by keyword, an XMP packet (`iTXt` `XML:com.adobe.xmp`) and EXIF (`eXIf`). Only chunk headers and
/// the bodies of those chunks are read, each at most `maxChunk` bytes, and the walk stops after `maxChunks`.
struct PNGMetadata {
    /// Text by keyword (`Description`, `Title`, `Author`, `Creation Time`), the first of each.
    var text: [String: String] = [:]
    /// The XMP packet.
    var xmp: [UInt8]?
    /// The TIFF bytes of the `eXIf` chunk.
    var exif: [UInt8]?

    /// The PNG signature.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The largest metadata chunk read; a larger one is skipped.
    static let maxChunk = 512 * 1024
    /// The most chunks walked before giving up.
    static let maxChunks = 1024
    /// The keywords kept.
    static let keywords: Set<String> = ["Description", "Title", "Author", "Creation Time"]

    /// Walks `file`, which starts with the PNG signature.
    init(_ file: BoundedFileReads) {
        var offset = 8
        for _ in 0..<Self.maxChunks {
            let head = file.read(at: offset, count: 8)
            guard head.count == 8, let length = MetadataText.bigEndian(head, at: 0, width: 4), length <= 0x7FFF_FFFF else { return }
            let type = String(decoding: head[4..<8], as: UTF8.self)
            if type == "IDAT" || type == "IEND" { return }
            if ["tEXt", "iTXt", "eXIf"].contains(type) && length <= Self.maxChunk {
                let body = file.read(at: offset + 8, count: length)
                guard body.count == length else { return }
                switch type {
                case "eXIf": if exif == nil { exif = body }
                case "tEXt": take(latin1TextChunk: body)
                default: take(internationalTextChunk: body)
                }
            }
            offset += 12 + length
        }
    }

    /// `keyword\0text`, Latin-1.
    private mutating func take(latin1TextChunk body: [UInt8]) {
        guard let nul = body.firstIndex(of: 0) else { return }
        let keyword = MetadataText.decode(body[..<nul])
        guard Self.keywords.contains(keyword), text[keyword] == nil else { return }
        var value = ""
        value.unicodeScalars.append(contentsOf: body[(nul + 1)...].map { Unicode.Scalar($0) })
        text[keyword] = value
    }

    /// `keyword\0 compressed method language\0 translated-keyword\0 text`, UTF-8; compressed ones are skipped.
    private mutating func take(internationalTextChunk body: [UInt8]) {
        guard let nul = body.firstIndex(of: 0), nul + 3 <= body.count, body[nul + 1] == 0 else { return }
        let keyword = MetadataText.decode(body[..<nul])
        var i = nul + 3
        for _ in 0..<2 {  // the language tag and the translated keyword
            guard let end = body[i...].firstIndex(of: 0) else { return }
            i = end + 1
        }
        let value = Array(body[i...])
        if keyword == "XML:com.adobe.xmp" {
            if xmp == nil { xmp = value }
        } else if Self.keywords.contains(keyword), text[keyword] == nil {
            text[keyword] = String(decoding: value, as: UTF8.self)
        }
    }
}
