/// Text as picture metadata stores it: bytes that should be UTF-8 but are often Latin-1 (older IPTC and EXIF
/// writers), ended by a NUL or by their length.
enum MetadataText {
    /// `bytes` up to the first NUL: UTF-8 when they are valid UTF-8 (or `utf8` says so, invalid sequences then
    /// becoming U+FFFD), else Latin-1, where every byte is a character.
    static func decode(_ bytes: some Collection<UInt8>, utf8: Bool = false) -> String {
        let text = bytes.prefix { $0 != 0 }
        if let valid = String(validating: text, as: UTF8.self) { return valid }
        if utf8 { return String(decoding: text, as: UTF8.self) }
        var out = ""
        out.unicodeScalars.append(contentsOf: text.map { Unicode.Scalar($0) })
        return out
    }

    /// A big-endian unsigned integer of `width` bytes at `offset`, nil when it does not fit in `bytes`.
    static func bigEndian(_ bytes: [UInt8], at offset: Int, width: Int) -> Int? {
        guard offset >= 0, width > 0, offset <= bytes.count - width else { return nil }
        return bytes[offset..<(offset + width)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Whether `bytes` hold `prefix` at `offset`.
    static func has(_ bytes: [UInt8], _ prefix: [UInt8], at offset: Int = 0) -> Bool {
        offset >= 0 && offset <= bytes.count - prefix.count && bytes[offset..<(offset + prefix.count)].elementsEqual(prefix)
    }
}
