internal import CSodium

/// Ed25519 signature checks, by libsodium's `crypto_sign_verify_detached`.
enum Ed25519 {
    /// Whether `signature` (64 bytes) is `key`'s (32 bytes) signature of `message`.
    static func isValid(signature: [UInt8], of message: UnsafeRawBufferPointer, key: [UInt8]) -> Bool {
        guard signature.count == Int(crypto_sign_BYTES), key.count == Int(crypto_sign_PUBLICKEYBYTES) else { return false }
        let bytes = message.bindMemory(to: UInt8.self)
        guard let start = bytes.baseAddress else {
            // An empty message: libsodium still wants a pointer, to nothing it will read.
            var none: UInt8 = 0
            return crypto_sign_verify_detached(signature, &none, 0, key) == 0
        }
        return crypto_sign_verify_detached(signature, start, UInt64(bytes.count), key) == 0
    }

    /// Whether `signature` is `key`'s signature of `message`.
    static func isValid(signature: [UInt8], of message: [UInt8], key: [UInt8]) -> Bool {
        message.withUnsafeBytes { isValid(signature: signature, of: $0, key: key) }
    }
}
