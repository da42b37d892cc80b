/// A minisign signature file (.minisig) taken apart, not yet checked: four lines, an "untrusted comment: ..." line,
/// the base64 signature line (algorithm, key id, Ed25519 signature), a "trusted comment: ..." line and the base64
/// global signature over the signature and the trusted comment.
struct MinisignSignature {
    /// The most a signature file may hold: minisign's comments are one line each, well under this.
    static let fileLimit = 16 * 1024
    /// The decoded signature line: 2 algorithm bytes, the 8-byte key id, the 64-byte Ed25519 signature.
    static let encodedBytes = 2 + 8 + 64
    /// An Ed25519 signature's length (the global signature line decodes to one).
    static let ed25519Bytes = 64

    /// What the signature signs: the file itself or its BLAKE2b-512 hash.
    let algorithm: MinisignAlgorithm
    /// The id of the key that made it, 8 bytes as stored.
    let keyID: [UInt8]
    /// The Ed25519 signature over the file (legacy) or its hash (prehashed).
    let signature: [UInt8]
    /// The trusted comment's bytes, after "trusted comment: ", as signed.
    let trustedComment: [UInt8]
    /// The Ed25519 signature over `signature` followed by `trustedComment`.
    let globalSignature: [UInt8]

    /// Takes the signature file's `bytes` apart; `name` names it in errors.
    init(_ bytes: [UInt8], name: String) throws(TrustError) {
        func refuse(_ reason: String) -> TrustError { TrustError(file: name, reason: reason) }
        guard bytes.count <= MinisignSignature.fileLimit else {
            throw refuse("larger than \(MinisignSignature.fileLimit) bytes, too big for a minisign signature")
        }
        let lines = TextLines.split(bytes)
        guard let first = lines.first, TextLines.after("untrusted comment: ", in: first) != nil else {
            throw refuse("not a minisign signature: its first line does not start with 'untrusted comment: '")
        }
        guard lines.count > 1, !TextLines.trimmed(lines[1]).isEmpty else {
            throw refuse("no signature line after the untrusted comment (truncated?)")
        }
        let line = TextLines.trimmed(lines[1])
        guard let decoded = Base64Line.decode(line, maxBytes: 3 * line.count / 4 + 3) else {
            throw refuse("the signature line is not base64")
        }
        guard decoded.count == MinisignSignature.encodedBytes else {
            throw refuse("the signature line holds \(decoded.count) bytes, not the \(MinisignSignature.encodedBytes) "
                         + "of a minisign signature")
        }
        guard let algorithm = MinisignAlgorithm(decoded[0..<2]) else {
            throw refuse("signature algorithm \(MinisignAlgorithm.describe(decoded[0..<2])) is neither 'Ed' (legacy) "
                         + "nor 'ED' (prehashed)")
        }
        guard lines.count > 2, !lines[2].isEmpty else {
            throw refuse("no 'trusted comment: ' line after the signature (truncated?)")
        }
        guard let comment = TextLines.after("trusted comment: ", in: lines[2]) else {
            throw refuse("the third line does not start with 'trusted comment: '")
        }
        guard lines.count > 3, !TextLines.trimmed(lines[3]).isEmpty else {
            throw refuse("no global signature line after the trusted comment (truncated?)")
        }
        let globalLine = TextLines.trimmed(lines[3])
        guard let global = Base64Line.decode(globalLine, maxBytes: 3 * globalLine.count / 4 + 3) else {
            throw refuse("the global signature line (after the trusted comment) is not base64")
        }
        guard global.count == MinisignSignature.ed25519Bytes else {
            throw refuse("the global signature line holds \(global.count) bytes, not the "
                         + "\(MinisignSignature.ed25519Bytes) of an Ed25519 signature")
        }
        self.algorithm = algorithm
        keyID = Array(decoded[2..<10])
        signature = Array(decoded[10...])
        trustedComment = Array(comment)
        globalSignature = global
    }
}
