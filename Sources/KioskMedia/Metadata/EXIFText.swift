import Foundation
import KioskCore

/// The text fields a caption uses from EXIF (a TIFF structure, either byte order): ImageDescription (IFD0
/// 0x010E), Artist (0x013B), DateTime (0x0132) and, in the Exif sub-IFD (0x8769), DateTimeOriginal (0x9003).
/// Every offset and count is checked against the bytes; IFD0 and the one sub-IFD are read once each, so a
/// pointer loop or a huge count costs at most one pass over the bytes.
struct EXIFText {
    /// ImageDescription, unless empty or a camera's stock text (`OLYMPUS DIGITAL CAMERA`).
    var imageDescription: String?
    /// Artist.
    var artist: String?
    /// DateTimeOriginal: when the picture was taken.
    var dateTimeOriginal: CivilDateTime?
    /// DateTime: when the file was last changed.
    var dateTime: CivilDateTime?

    /// Descriptions cameras write by themselves, which say nothing about the picture (compared uppercased).
    static let stockDescriptions: Set<String> = [
        "OLYMPUS DIGITAL CAMERA", "SONY DSC", "DIGITAL CAMERA", "KODAK DIGITAL STILL CAMERA", "DCIM", "IMAGE",
        "DEFAULT", "SAMSUNG", "MINOLTA DIGITAL CAMERA", "CREATOR: GD-JPEG", "LEAD TECHNOLOGIES INC. V1.01",
    ]

    /// The most of a text value read (a description is a caption, not a document): a longer value is read up
    /// to there, cut before a UTF-8 character, and the caption's own bounds cut it further with "…".
    static let maxText = 16 * 1024

    /// Nothing found.
    init() {}

    /// Reads `tiff`, the bytes after a JPEG APP1's `Exif\0\0` or a PNG `eXIf` chunk's body. Anything that
    /// does not fit is skipped.
    init(tiff t: [UInt8]) {
        guard t.count >= 8 else { return }
        let little: Bool
        if t[0] == 0x49 && t[1] == 0x49 { little = true } else if t[0] == 0x4D && t[1] == 0x4D { little = false } else { return }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o <= t.count - 2 else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        /// The ASCII value of the entry at `entry` (its first `maxText` bytes), nil when it is not ASCII or does
        /// not fit.
        func text(_ entry: Int) -> String? {
            guard u16(entry + 2) == 2, let count = u32(entry + 4), count > 0 else { return nil }
            let start: Int
            if count <= 4 { start = entry + 8 } else {
                guard let offset = u32(entry + 8) else { return nil }
                start = offset
            }
            guard start >= 0, start <= t.count - count else { return nil }
            var end = start + min(count, Self.maxText)
            // Cut before a character, not inside one: step back over at most three UTF-8 continuation bytes.
            for _ in 0..<3 where end < start + count && end > start && t[end] & 0xC0 == 0x80 { end -= 1 }
            return MetadataText.decode(t[start..<end])
        }
        /// The entries of the IFD at `offset`: (tag, entry offset), as many as fit in the bytes.
        func entries(_ offset: Int) -> [(tag: Int, at: Int)] {
            guard let count = u16(offset) else { return [] }
            let fitting = min(count, max(0, (t.count - offset - 2) / 12))
            return (0..<fitting).compactMap { e in
                let at = offset + 2 + e * 12
                return u16(at).map { (tag: $0, at: at) }
            }
        }
        guard u16(2) == 42, let ifd0 = u32(4) else { return }
        var subIFD: Int?
        for (tag, at) in entries(ifd0) {
            switch tag {
            case 0x010E: imageDescription = text(at).flatMap(Self.meaningful)
            case 0x013B: artist = text(at)
            case 0x0132: dateTime = text(at).flatMap { CivilDateTime(parsing: $0) }
            case 0x8769: subIFD = u32(at + 8)
            default: break
            }
        }
        if let subIFD, subIFD != ifd0 {
            for (tag, at) in entries(subIFD) where tag == 0x9003 {
                dateTimeOriginal = text(at).flatMap { CivilDateTime(parsing: $0) }
            }
        }
    }

    /// `text` unless it is blank or a camera's stock description.
    static func meaningful(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty || stockDescriptions.contains(trimmed.uppercased()) ? nil : trimmed
    }
}
