import Foundation
internal import CSodium

/// An Ed25519 key that signs (a screen's own, for its play log), made from a 32-byte seed by libsodium's
/// `crypto_sign_seed_keypair`; its signatures are libsodium's detached ones (64 bytes).
public struct Ed25519SigningKey: Sendable {
    /// The seed the key pair is made from (the secret: whoever has it signs as this key).
    public let seed: [UInt8]
    /// The public key (32 bytes): what checks this key's signatures.
    public let publicKey: [UInt8]
    private let secretKey: [UInt8]

    /// The key pair of `seed` (32 bytes); `name` (the key's file) is named in the error.
    public init(seed: [UInt8], name: String) throws(TrustError) {
        try Sodium.start(for: name)
        guard seed.count == Int(crypto_sign_SEEDBYTES) else {
            throw TrustError(file: name, reason: "an Ed25519 seed is \(crypto_sign_SEEDBYTES) bytes, not \(seed.count)")
        }
        var pk = [UInt8](repeating: 0, count: Int(crypto_sign_PUBLICKEYBYTES))
        var sk = [UInt8](repeating: 0, count: Int(crypto_sign_SECRETKEYBYTES))
        guard crypto_sign_seed_keypair(&pk, &sk, seed) == 0 else {
            throw TrustError(file: name, reason: "libsodium could not make a key pair (crypto_sign_seed_keypair failed)")
        }
        self.seed = seed
        publicKey = pk
        secretKey = sk
    }

    /// A new key from libsodium's random source (`randombytes_buf`).
    public static func generate(name: String) throws(TrustError) -> Ed25519SigningKey {
        try Sodium.start(for: name)
        var seed = [UInt8](repeating: 0, count: Int(crypto_sign_SEEDBYTES))
        randombytes_buf(&seed, seed.count)
        return try Ed25519SigningKey(seed: seed, name: name)
    }

    /// This key's detached signature (64 bytes) of `message`.
    public func sign(_ message: [UInt8]) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: Int(crypto_sign_BYTES))
        _ = crypto_sign_detached(&signature, nil, message, UInt64(message.count), secretKey)  // cannot fail
        return signature
    }

    /// Whether `signature` is the signature of `message` by the public key `key` (32 bytes).
    public static func isValid(signature: [UInt8], of message: [UInt8], key: [UInt8]) -> Bool {
        Sodium.startForHashing()
        return Ed25519.isValid(signature: signature, of: message, key: key)
    }
}
