/// File names as the kernel keeps them: bytes, not always UTF-8. A `String` made the usual way replaces bytes
/// that are not UTF-8 with U+FFFD, and the file can then not be opened again ("no such file"). Here each such byte
/// b becomes the private-use scalar U+10FE00 + b instead, so the name round-trips: `bytes(of:)` gives back the
/// exact bytes for `open`, and valid UTF-8 names are unchanged. The log shows such a byte as `\xNN`. (A valid
/// UTF-8 name that itself holds U+10FE80...U+10FEFF, private use, would come back as raw bytes: a known limit.)
public enum FileName {
    /// Where the stand-ins for raw bytes 0x80...0xFF start (U+10FE80...U+10FEFF, private use).
    static let rawBase: UInt32 = 0x10FE00

    /// The name for `bytes`: UTF-8 where it is, stand-ins for the bytes that are not.
    public static func decode<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        let a = Array(bytes)
        if let valid = String(validating: a, as: UTF8.self) { return valid }
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < a.count {
            if let (scalar, length) = scalar(in: a, at: i) {
                scalars.append(scalar)
                i += length
            } else {
                scalars.append(Unicode.Scalar(rawBase + UInt32(a[i])) ?? "\u{FFFD}")
                i += 1
            }
        }
        return String(scalars)
    }

    /// The well-formed UTF-8 scalar at `i` and its length, if there is one.
    private static func scalar(in a: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let b0 = a[i]
        if b0 < 0x80 { return (Unicode.Scalar(b0), 1) }
        let length: Int
        switch b0 {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return nil
        }
        guard i + length <= a.count, a[(i + 1)..<(i + length)].allSatisfy({ $0 & 0xC0 == 0x80 }) else { return nil }
        var value = UInt32(b0) & (0xFF >> (length + 1))
        for b in a[(i + 1)..<(i + length)] { value = value << 6 | UInt32(b & 0x3F) }
        let smallest: UInt32 = [0, 0, 0x80, 0x800, 0x10000][length]
        guard value >= smallest, let scalar = Unicode.Scalar(value) else { return nil }  // overlong, surrogate, too big
        return (scalar, length)
    }

    /// The raw byte `scalar` stands for, if it is a stand-in.
    public static func rawByte(_ scalar: Unicode.Scalar) -> UInt8? {
        (rawBase + 0x80...rawBase + 0xFF).contains(scalar.value) ? UInt8(scalar.value - rawBase) : nil
    }

    /// The bytes of `name` for the kernel: UTF-8, with each stand-in turned back into its byte.
    public static func bytes(of name: String) -> [UInt8] {
        guard name.unicodeScalars.contains(where: { rawByte($0) != nil }) else { return Array(name.utf8) }
        var out: [UInt8] = []
        for u in name.unicodeScalars {
            if let b = rawByte(u) { out.append(b) } else { out += Array(String(u).utf8) }
        }
        return out
    }

    /// Calls `body` with `name` as a NUL-terminated C path of its exact bytes.
    public static func withCString<T>(_ name: String, _ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        let bytes = bytes(of: name).map { CChar(bitPattern: $0) } + [0]
        return try bytes.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return try "".withCString(body) }  // never: it holds the NUL
            return try body(start)
        }
    }
}
