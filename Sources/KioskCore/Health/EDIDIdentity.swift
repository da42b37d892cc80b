/// A monitor's identity from the base block of its EDID (VESA E-EDID 1.3/1.4): the manufacturer's PNP id, the
/// product code and serial number, and the monitor's name and serial text from the display descriptors. Pure: it
/// reads bytes (a connector's `EDID` property blob, or `/sys/class/drm/*/edid`).
public struct EDIDIdentity: Sendable, Equatable {
    /// The manufacturer's three-letter PNP id (`DEL`, `SAM`, `RHT` for QEMU).
    public var manufacturer: String
    /// The manufacturer's product code (bytes 10–11, little-endian).
    public var productCode: UInt16
    /// The serial number (bytes 12–15, little-endian); 0 when the monitor gives none.
    public var serialNumber: UInt32
    /// The monitor's name (display descriptor 0xFC), if it gives one.
    public var name: String?
    /// The serial number as text (display descriptor 0xFF), if it gives one.
    public var serialText: String?
    /// The year of manufacture (or the model year), and the week (0: none given).
    public var year: Int
    public var week: Int

    /// Why bytes are not an EDID base block.
    public enum ParseError: Error, Equatable, CustomStringConvertible {
        /// Fewer than the 128 bytes of a base block.
        case tooShort(Int)
        /// The first 8 bytes are not 00 FF FF FF FF FF FF 00.
        case badHeader
        /// The block's 128 bytes do not sum to 0 modulo 256.
        case badChecksum
        /// The manufacturer id has a letter out of A–Z.
        case badManufacturer(UInt16)

        /// One line naming the fault.
        public var description: String {
            switch self {
            case .tooShort(let n): return "EDID: \(n) bytes, a base block is 128"
            case .badHeader: return "EDID: no 00 FF FF FF FF FF FF 00 header"
            case .badChecksum: return "EDID: the base block's checksum does not match"
            case .badManufacturer(let v): return "EDID: manufacturer id 0x\(String(v, radix: 16)) is not three letters A-Z"
            }
        }
    }

    /// The identity in the base block at the start of `bytes` (extension blocks after it are not read).
    public init(parsing bytes: [UInt8]) throws(ParseError) {
        guard bytes.count >= 128 else { throw .tooShort(bytes.count) }
        guard Array(bytes[0..<8]) == [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00] else { throw .badHeader }
        guard bytes[0..<128].reduce(UInt8(0), &+) == 0 else { throw .badChecksum }
        let id = UInt16(bytes[8]) << 8 | UInt16(bytes[9])
        var letters = ""
        for shift in [10, 5, 0] {
            let v = (id >> UInt16(shift)) & 0x1F
            guard (1...26).contains(v) else { throw .badManufacturer(id) }
            letters.unicodeScalars.append(Unicode.Scalar(UInt8(64 + v)))
        }
        manufacturer = letters
        productCode = UInt16(bytes[10]) | UInt16(bytes[11]) << 8
        serialNumber = UInt32(bytes[12]) | UInt32(bytes[13]) << 8 | UInt32(bytes[14]) << 16 | UInt32(bytes[15]) << 24
        week = Int(bytes[16])
        year = 1990 + Int(bytes[17])
        for start in stride(from: 54, to: 126, by: 18) {
            let d = bytes[start..<start + 18]
            // a display descriptor: pixel clock 0, then 0, a tag, 0, and 13 bytes of data
            guard d[start] == 0, d[start + 1] == 0, d[start + 2] == 0 else { continue }
            let text = Self.text(Array(d[(start + 5)...]))
            switch d[start + 3] {
            case 0xFC: if name == nil { name = text }
            case 0xFF: if serialText == nil { serialText = text }
            default: break
            }
        }
    }

    /// A descriptor's text: up to 13 bytes, ended by a line feed, padded with spaces (code page 437: bytes past
    /// ASCII are kept as their Latin-1 characters, control bytes dropped).
    static func text(_ data: [UInt8]) -> String {
        let line = data.prefix { $0 != 0x0A }
        var s = ""
        for b in line where b >= 0x20 { s.unicodeScalars.append(Unicode.Scalar(b)) }
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }

    /// `DEL 0xa0c1 serial 12345 "DELL U2415"`: one line for logs and tables.
    public var summary: String {
        var s = "\(manufacturer) product \(productCode) serial \(serialNumber)"
        if let serialText { s += " (\(serialText))" }
        if let name { s += " \"\(name)\"" }
        return s
    }
}
