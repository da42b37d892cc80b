/// What a minisign signature signs, from its first two bytes.
enum MinisignAlgorithm: Sendable, Equatable {
    /// "Ed": Ed25519 over the file's bytes themselves (minisign before 0.8, and `minisign -S -l`).
    case legacy
    /// "ED": Ed25519 over the BLAKE2b-512 hash of the file (minisign's default since 0.8).
    case prehashed

    /// The algorithm two bytes name, or nil for any other pair.
    init?(_ bytes: some Collection<UInt8>) {
        switch Array(bytes) {
        case Array("Ed".utf8): self = .legacy
        case Array("ED".utf8): self = .prehashed
        default: return nil
        }
    }

    /// Two algorithm bytes as a log can show them: as text when printable ("Ex"), else in hex (0x0001).
    static func describe(_ bytes: some Collection<UInt8>) -> String {
        if bytes.allSatisfy({ (0x21...0x7e).contains($0) }) { return "'" + String(decoding: bytes, as: UTF8.self) + "'" }
        return "0x" + Hex.upperCase(bytes)
    }
}
