import KioskCore

/// What the marker structure of a JPEG file says, read in Swift from its bytes: the EXIF orientation
/// (APP1 `Exif` IFD0 tag 0x0112, either byte order) and whether an end-of-image marker follows the scan.
struct JPEGStructure {
    /// EXIF orientation 1...8; 1 when absent or invalid.
    var orientation: Int = 1
    /// Whether an EOI marker (FFD9) follows the first start-of-scan; false for a truncated file.
    var hasEnd = false
    /// The stored (unoriented) size from the start-of-frame segment, nil when not reached.
    var storedSize: PixelSize?

    /// Whether `bytes` start like a JPEG (SOI marker).
    static func isJPEG(_ bytes: [UInt8]) -> Bool { bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF }

    /// Parses the markers of a whole JPEG file (or its head: then `hasEnd` may be false).
    init(bytes: [UInt8]) {
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }                       // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            if marker == 0xD9 { return }                                  // EOI before any scan
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2 else { return }
            let body = i + 4
            let end = i + 2 + length
            if marker == 0xE1 && orientation == 1 && end <= bytes.count {
                orientation = Self.exifOrientation(bytes[body..<end]) ?? 1
            }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) && body + 5 <= bytes.count {
                storedSize = PixelSize(width: Int(bytes[body + 3]) << 8 | Int(bytes[body + 4]),
                                       height: Int(bytes[body + 1]) << 8 | Int(bytes[body + 2]))
            }
            if marker == 0xDA {
                hasEnd = Self.containsEOI(bytes, from: min(end, bytes.count))
                return
            }
            i = end
        }
    }

    /// Whether FFD9 occurs at or after `start` (entropy-coded data never contains it: 0xFF is stuffed).
    private static func containsEOI(_ bytes: [UInt8], from start: Int) -> Bool {
        var j = bytes.count - 2
        while j >= start {
            if bytes[j] == 0xFF && bytes[j + 1] == 0xD9 { return true }
            j -= 1
        }
        return false
    }

    /// The orientation tag of an APP1 segment body (`Exif\0\0` + TIFF), nil when absent or out of range.
    static func exifOrientation(_ seg: ArraySlice<UInt8>) -> Int? {
        let s = Array(seg)
        guard s.count >= 14, s[0] == 0x45, s[1] == 0x78, s[2] == 0x69, s[3] == 0x66, s[4] == 0, s[5] == 0 else { return nil }
        let t = Array(s[6...])
        let little: Bool
        if t[0] == 0x49 && t[1] == 0x49 { little = true } else if t[0] == 0x4D && t[1] == 0x4D { little = false } else { return nil }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for e in 0..<count {
            let entry = ifd + 2 + e * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112 {
                guard let type = u16(entry + 2), type == 3, let value = u16(entry + 8), (1...8).contains(value) else { return nil }
                return value
            }
        }
        return nil
    }
}
