/// SHA-256 digests in lower-case hex, as `sha256sum` prints them (libsodium's `crypto_hash_sha256`).
public enum SHA256Sum {
    /// Lower-case hex SHA-256 of the file at `path`, read in chunks (never whole in memory).
    public static func hex(ofFile path: String) throws(TrustError) -> String {
        let stream = SHA256Stream()
        let file = try CheckedFile(path)
        try file.forEachChunk { chunk in stream.update(chunk) }
        return stream.finishHex()
    }

    /// Lower-case hex SHA-256 of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let stream = SHA256Stream()
        stream.update(bytes)
        return stream.finishHex()
    }
}
