import KioskCore

/// Reads PNG chunk headers from a file's bytes: the APNG animation control chunk (`acTL`).
enum PNGChunks {
    /// `num_plays` of the `acTL` chunk (0 = forever), nil when the file has none before its image data.
    static func animationPlays(_ bytes: [UInt8]) -> Int? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return nil }
        func u32(_ o: Int) -> Int { Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
        var i = 8
        while i + 8 <= bytes.count {
            let length = u32(i)
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            if type == "acTL" {
                guard i + 16 <= bytes.count else { return nil }
                return u32(i + 12)
            }
            if type == "IDAT" || type == "IEND" { return nil }
            i += 12 + length
        }
        return nil
    }

    /// The width and height in a PNG's IHDR chunk (the first chunk), nil when `bytes` do not start a PNG.
    static func headerSize(_ bytes: [UInt8]) -> PixelSize? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func u32(_ o: Int) -> Int { Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
        return PixelSize(width: u32(16), height: u32(20))
    }
}
