internal import CSodium

/// libsodium, started once: `sodium_init` runs the first time any check needs it (a Swift global is initialised
/// lazily and exactly once, even with many threads asking).
enum Sodium {
    /// Whether `sodium_init` succeeded (0: started now, 1: already started; -1: failed).
    private static let started: Bool = sodium_init() >= 0

    /// Starts libsodium if it is not yet; `name` is the file the caller is checking, named in the error.
    static func start(for name: String) throws(TrustError) {
        guard started else { throw TrustError(file: name, reason: "libsodium could not start (sodium_init failed)") }
    }

    /// Starts libsodium for a call that cannot fail: the hashes need no randomness, so they work even when
    /// `sodium_init` could not set its random source up.
    static func startForHashing() { _ = started }
}
