internal import CSodium

/// An incremental SHA-256 (for a download being written): update as bytes arrive, finish once.
///
/// libsodium's `crypto_hash_sha256_*` do the hashing. Not for sharing between threads: one writer feeds it.
public final class SHA256Stream {
    /// libsodium's state, on the heap so its address stays put.
    private let state: UnsafeMutablePointer<crypto_hash_sha256_state>
    /// The digest once `finishHex` ran; later updates are ignored and later calls return it again.
    private var finished: String?

    /// A fresh hash of nothing yet.
    public init() {
        Sodium.startForHashing()
        state = UnsafeMutablePointer<crypto_hash_sha256_state>.allocate(capacity: 1)
        _ = crypto_hash_sha256_init(state)
    }

    deinit { state.deallocate() }

    /// Adds `bytes` to what is hashed (ignored after `finishHex`: the digest is already made).
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard finished == nil, let start = bytes.baseAddress, !bytes.isEmpty else { return }
        _ = crypto_hash_sha256_update(state, start.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    /// Adds `bytes` to what is hashed.
    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The lower-case hex SHA-256 of everything added (as `sha256sum` prints it). The first call ends the hash;
    /// later calls return the same digest.
    public func finishHex() -> String {
        if let finished { return finished }
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        _ = crypto_hash_sha256_final(state, &digest)
        let hex = Hex.lowerCase(digest)
        finished = hex
        return hex
    }
}
