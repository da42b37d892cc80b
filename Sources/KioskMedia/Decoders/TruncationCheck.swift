import KioskCore

/// Cheap structural checks that catch a cut-off file at probe time, before any decoding: a JPEG needs its
/// end-of-image marker, a PNG its IEND chunk, a BMP as many bytes as its header declares.
enum TruncationCheck {
    /// Bytes at the end of a file that are searched for an end marker.
    static let tailBytes = 65536

    /// Throws "truncated or corrupt …" when the file's end is missing.
    static func check(path: String, head: [UInt8], tail: [UInt8], fileSize: Int, jpeg: JPEGStructure?) throws {
        if let jpeg, !jpeg.hasEnd {
            throw MediaError(path: path, reason: "truncated or corrupt JPEG: no end-of-image marker")
        }
        let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if head.count >= 8 && Array(head[0..<8]) == pngSignature {
            let iend: [UInt8] = Array("IEND".utf8)
            let found = tail.count >= 4 && (0...(tail.count - 4)).contains { Array(tail[$0..<($0 + 4)]) == iend }
            if !found {
                let kind = PNGChunks.animationPlays(head) == nil ? "PNG" : "APNG"
                throw MediaError(path: path, reason: "truncated or corrupt \(kind): no IEND chunk")
            }
        }
        if head.count >= 14 && head[0] == 0x42 && head[1] == 0x4D {
            let declared = Int(head[2]) | Int(head[3]) << 8 | Int(head[4]) << 16 | Int(head[5]) << 24
            if declared > fileSize {
                throw MediaError(path: path, reason: "truncated or corrupt BMP: \(fileSize) of \(declared) bytes")
            }
        }
    }
}
