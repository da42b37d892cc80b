internal import CSodium

/// One line of standard base64 (with padding, as minisign writes keys and signatures), decoded by libsodium.
enum Base64Line {
    /// The bytes `line` stands for, or nil when it is not base64 (a stray character, bad padding) or would decode
    /// to more than `maxBytes`.
    static func decode(_ line: ArraySlice<UInt8>, maxBytes: Int) -> [UInt8]? {
        guard !line.isEmpty, maxBytes > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: maxBytes)
        var decoded = 0
        let status = line.withUnsafeBytes { text in
            text.withMemoryRebound(to: CChar.self) { chars in
                out.withUnsafeMutableBufferPointer { bin -> Int32 in
                    guard let start = bin.baseAddress else { return -1 }
                    // A nil end pointer makes libsodium refuse a line it cannot decode to its last character.
                    return sodium_base642bin(start, bin.count, chars.baseAddress, chars.count, nil, &decoded, nil,
                                             sodium_base64_VARIANT_ORIGINAL)
                }
            }
        }
        guard status == 0 else { return nil }
        return Array(out.prefix(decoded))
    }
}
