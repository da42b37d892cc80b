import KioskCore

/// mpv 0.35's `loop-playlist` value: one of its words (`no`, `inf`, `yes`, `force`; an empty value is the flag
/// form, `inf`) or a loop count 1...10000 (1 is `no`). kiosk loops or not, so a count over 1 loops. Anything else
/// gets mpv's own reply (read from mpv 0.35.1): a string or a JSON integer out of range (2^63-1, 2^31, 0) is
/// "unsupported format for accessing property", and a JSON double (1e19, 2.0) or null is "error accessing
/// property". Before this, 2^63-1 and 2^31 were taken as "loop" and numeric strings were all refused.
extension MPVValue {
    /// The loop counts mpv takes besides its words.
    static let loopCountRange = 1...10000

    /// Whether `value` sets the playlist looping; throws mpv's reply when mpv refuses it.
    static func loopsPlaylist(_ value: JSONValue) throws(MPVError) -> Bool {
        switch value {
        case .bool(let loops):
            return loops
        case .int(let count):
            guard let count = Int(exactly: count), loopCountRange.contains(count) else { throw .propertyFormat }
            return count > 1
        case .string("inf"), .string("yes"), .string("force"), .string(""):
            return true
        case .string("no"):
            return false
        case .string(let text):
            guard let count = mpvInteger(text), loopCountRange.contains(count) else { throw .propertyFormat }
            return count > 1
        default:
            throw .propertyError
        }
    }

    /// `text` read as mpv reads an integer option (m_option.c's parse_longlong: C's `strtoll` in base 10, else in
    /// base 0): leading C white space, an optional sign, then decimal digits or `0x` and hex digits, and nothing
    /// after. Nil when it is no such number or is past `Int` (mpv's clamped value is out of every range anyway).
    static func mpvInteger(_ text: String) -> Int? {
        let cWhiteSpace: Set<Unicode.Scalar> = [" ", "\t", "\n", "\u{0B}", "\u{0C}", "\r"]
        var body = Substring(String(String.UnicodeScalarView(text.unicodeScalars.drop { cWhiteSpace.contains($0) })))
        if let decimal = Int(body) { return decimal }
        var sign = ""
        if let first = body.first, first == "+" || first == "-" {
            sign = first == "-" ? "-" : ""
            body = body.dropFirst()
        }
        guard body.hasPrefix("0x") || body.hasPrefix("0X") else { return nil }
        let hex = body.dropFirst(2)
        // Int(_:radix:) would take a second sign ("0x-10"), which strtoll does not.
        guard let first = hex.first, first.isHexDigit else { return nil }
        return Int(sign + hex, radix: 16)
    }
}
