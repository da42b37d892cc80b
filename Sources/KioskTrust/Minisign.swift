/// Checks minisign signatures: the file signature (legacy "Ed" over the file, or prehashed "ED" over its
/// BLAKE2b-512 hash), made by the configured key, and the global signature that binds the trusted comment to it.
public enum Minisign {
    /// The largest file a legacy ("Ed") signature is checked over: such a signature covers the bytes themselves, so
    /// the file is read whole into memory. Prehashed ("ED") signatures have no limit (the file is streamed).
    public static let legacyFileLimit = 64 * 1024 * 1024

    /// Verifies `signatureFile` (minisign's .minisig: untrusted comment, base64 sig line, "trusted comment: ..." line,
    /// base64 global signature) over the file `file` with `key`; returns the trusted comment. Supports both the
    /// legacy "Ed" (signature over the raw file) and the prehashed "ED" (signature over BLAKE2b-512 of the file,
    /// minisign's default since 0.8) algorithms; checks key id match, the Ed25519 signature
    /// (crypto_sign_verify_detached), and the global signature over (signature bytes + trusted comment bytes). Reads
    /// the file streaming for ED (crypto_generichash streaming), bounded size for Ed.
    ///
    /// Errors about the signature file's form, its key and its trusted comment name `signatureFile`; a signature
    /// that does not match the content names `file`.
    public static func verify(file: String, signatureFile: String, key: MinisignPublicKey) throws(TrustError) -> String {
        try Sodium.start(for: file)
        let text = try CheckedFile.read(signatureFile, atMost: MinisignSignature.fileLimit, what: "a minisign signature")
        let signature = try MinisignSignature(text, name: signatureFile)
        try checkKeyID(of: signature, against: key, name: signatureFile)
        let signed: [UInt8]
        switch signature.algorithm {
        case .prehashed:
            signed = try Blake2bHash.ofFile(file)
        case .legacy:
            signed = try CheckedFile.read(file, atMost: legacyFileLimit,
                                          what: "a legacy ('Ed') minisign signature (sign it prehashed, minisign's default)")
        }
        guard Ed25519.isValid(signature: signature.signature, of: signed, key: key.ed25519) else {
            throw TrustError(file: file, reason: "the signature in \(signatureFile) does not match the file (changed or forged)")
        }
        return try trustedComment(of: signature, key: key, name: signatureFile)
    }

    /// Same for bytes in memory (`name` names them in errors): `signature` is the .minisig file's text.
    public static func verify(bytes: [UInt8], signature: String, key: MinisignPublicKey, name: String) throws(TrustError) -> String {
        try Sodium.start(for: name)
        let parsed = try MinisignSignature(Array(signature.utf8), name: name)
        try checkKeyID(of: parsed, against: key, name: name)
        let signed = parsed.algorithm == .prehashed ? Blake2bHash.of(bytes) : bytes
        guard Ed25519.isValid(signature: parsed.signature, of: signed, key: key.ed25519) else {
            throw TrustError(file: name, reason: "the signature does not match the file (changed or forged)")
        }
        return try trustedComment(of: parsed, key: key, name: name)
    }

    /// Refuses a signature made by another key than `key` (the ids differ).
    private static func checkKeyID(of signature: MinisignSignature, against key: MinisignPublicKey,
                                   name: String) throws(TrustError) {
        guard signature.keyID == key.keyID else {
            throw TrustError(file: name, reason: "signed by key \(MinisignPublicKey.hex(keyID: signature.keyID)), "
                             + "not by the configured key \(key.keyIDHex)")
        }
    }

    /// The trusted comment, once its global signature (over the file signature followed by the comment) checks out.
    private static func trustedComment(of signature: MinisignSignature, key: MinisignPublicKey,
                                       name: String) throws(TrustError) -> String {
        guard Ed25519.isValid(signature: signature.globalSignature, of: signature.signature + signature.trustedComment,
                              key: key.ed25519) else {
            throw TrustError(file: name, reason: "the trusted comment was changed (its global signature does not match)")
        }
        return String(decoding: signature.trustedComment, as: UTF8.self)
    }
}
