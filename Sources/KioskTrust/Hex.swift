/// Bytes written as hexadecimal digits, two per byte, in the order given.
enum Hex {
    private static let lower = Array("0123456789abcdef".utf8)
    private static let upper = Array("0123456789ABCDEF".utf8)

    /// Lower-case hex (as `sha256sum` prints a digest).
    static func lowerCase<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String { encode(bytes, digits: lower) }

    /// Upper-case hex (as minisign prints a key id).
    static func upperCase<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String { encode(bytes, digits: upper) }

    private static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes, digits: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
