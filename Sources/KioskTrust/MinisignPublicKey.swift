/// A minisign public key (the file `minisign -G` writes: an "untrusted comment:" line, then base64 of "Ed" +
/// 8-byte key id + 32-byte Ed25519 key).
public struct MinisignPublicKey: Sendable, Equatable {
    /// The most a key file may hold: two short lines, with room for a long comment.
    public static let fileLimit = 4096
    /// The decoded key line: 2 algorithm bytes, the key id, the Ed25519 key.
    static let encodedBytes = 2 + 8 + 32

    /// The key id: 8 bytes, as in the file (minisign prints them in reverse order, see `keyIDHex`).
    public let keyID: [UInt8]
    /// The 32-byte Ed25519 public key.
    let ed25519: [UInt8]

    /// Reads the key file at `path` (at most `fileLimit` bytes).
    public init(file: String) throws(TrustError) {
        let bytes = try CheckedFile.read(file, atMost: MinisignPublicKey.fileLimit, what: "a minisign public key")
        try self.init(bytes: bytes, name: file)
    }

    /// The key from the file's text, or from the bare base64 line (as `minisign -P` takes it); `name` names it in
    /// errors.
    public init(text: String, name: String) throws(TrustError) {
        try self.init(bytes: Array(text.utf8), name: name)
    }

    private init(bytes: [UInt8], name: String) throws(TrustError) {
        let lines = TextLines.split(bytes).map(TextLines.trimmed).filter { !$0.isEmpty }
        guard var line = lines.first else { throw TrustError(file: name, reason: "no minisign public key in it (empty)") }
        if TextLines.after("untrusted comment:", in: line) != nil {
            guard lines.count > 1 else {
                throw TrustError(file: name, reason: "no key line after the 'untrusted comment:' line")
            }
            line = lines[1]
        }
        guard let decoded = Base64Line.decode(line, maxBytes: 3 * line.count / 4 + 3) else {
            throw TrustError(file: name, reason: "the key line is not base64: not a minisign public key")
        }
        guard decoded.count == MinisignPublicKey.encodedBytes else {
            throw TrustError(file: name, reason: "the key line holds \(decoded.count) bytes, not the "
                             + "\(MinisignPublicKey.encodedBytes) of a minisign public key")
        }
        guard MinisignAlgorithm(decoded[0..<2]) == .legacy else {
            throw TrustError(file: name, reason: "key algorithm \(MinisignAlgorithm.describe(decoded[0..<2])) is not "
                             + "minisign's 'Ed' (Ed25519)")
        }
        keyID = Array(decoded[2..<10])
        ed25519 = Array(decoded[10..<42])
    }

    /// The key id in upper-case hex as minisign prints it ("minisign public key 310986869CAB0CF1"): the 8 bytes
    /// read as a little-endian number.
    public var keyIDHex: String { MinisignPublicKey.hex(keyID: keyID) }

    /// A key id (8 bytes as stored) as minisign prints it: the little-endian 64-bit number in upper-case hex with no
    /// leading zeros (`%PRIX64`), so a key whose id ends in a zero byte prints 14 digits or fewer.
    static func hex(keyID: some BidirectionalCollection<UInt8>) -> String {
        let value = keyID.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return String(value, radix: 16, uppercase: true)
    }
}
