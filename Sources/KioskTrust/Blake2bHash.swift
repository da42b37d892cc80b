internal import CSodium

/// An incremental BLAKE2b-512 hash (libsodium's `crypto_generichash` with a 64-byte output, no key): what a
/// prehashed ("ED") minisign signature signs.
struct Blake2bHash: ~Copyable {
    /// The digest's length in bytes.
    static let outputBytes = 64

    /// libsodium's state, allocated with the 64-byte alignment its header asks for (`CRYPTO_ALIGN(64)`); Swift sees
    /// the over-aligned type only as an opaque pointer.
    private let state: UnsafeMutableRawPointer

    /// A fresh hash.
    init() {
        state = UnsafeMutableRawPointer.allocate(byteCount: crypto_generichash_statebytes(), alignment: 64)
        _ = crypto_generichash_init(typed, nil, 0, Blake2bHash.outputBytes)
    }

    deinit { state.deallocate() }

    private var typed: OpaquePointer { OpaquePointer(state) }

    /// Adds `bytes` to what is hashed.
    func update(_ bytes: UnsafeRawBufferPointer) {
        let input = bytes.bindMemory(to: UInt8.self)
        guard let start = input.baseAddress, !input.isEmpty else { return }
        _ = crypto_generichash_update(typed, start, UInt64(input.count))
    }

    /// The 64-byte digest of everything added.
    consuming func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Blake2bHash.outputBytes)
        _ = crypto_generichash_final(typed, &digest, digest.count)
        return digest
    }

    /// The digest of the file at `path`, read in chunks.
    static func ofFile(_ path: String) throws(TrustError) -> [UInt8] {
        let hash = Blake2bHash()
        let file = try CheckedFile(path)
        try file.forEachChunk { chunk in hash.update(chunk) }
        return hash.finish()
    }

    /// The digest of `bytes`.
    static func of(_ bytes: [UInt8]) -> [UInt8] {
        let hash = Blake2bHash()
        bytes.withUnsafeBytes { hash.update($0) }
        return hash.finish()
    }
}
