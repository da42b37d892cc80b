import Foundation
import KioskTrust

/// The screen's own Ed25519 key that signs its play log's chain, kept beside the log as `LOG.key` (for the
/// standard log, `plays.sqlite.key` in the state folder), mode 0600: a comment line, then `secret ` and the key's
/// 32-byte seed in base64 (the word keeps it from being mistaken for a public key, which is also 32 bytes).
/// Made on the first start that opens the log; `kiosk report` finds it by the same rule.
public enum PlayLogKey {
    /// Where the key of the log at `logPath` is kept.
    public static func path(forLog logPath: String) -> String { logPath + ".key" }

    /// What the seed's line starts with.
    static let secretWord = "secret "

    /// Whether `text` is a key file's (a secret key), not a public key.
    public static func isKeyFile(_ text: String) -> Bool { text.split(separator: "\n").contains { $0.hasPrefix(secretWord) } }

    /// The key at `path`.
    public static func load(at path: String) throws(TrustError) -> Ed25519SigningKey {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TrustError(file: path, reason: "cannot be read (no key there yet: kiosk makes it when it first opens the log)")
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        guard let line = lines.first(where: { $0.hasPrefix(secretWord) }),
              let seed = Data(base64Encoded: line.dropFirst(secretWord.count).trimmingCharacters(in: .whitespaces)), seed.count == 32 else {
            throw TrustError(file: path, reason: "is not a play log key (a line 'secret ' and 32 bytes in base64)")
        }
        return try Ed25519SigningKey(seed: Array(seed), name: path)
    }

    /// The key at `path`, made there first (mode 0600) when there is none. Written to a file of its own and linked
    /// into place, so two starts at once agree on one key and a power cut leaves none or a whole one.
    public static func loadOrCreate(at path: String) throws(TrustError) -> Ed25519SigningKey {
        if FileManager.default.fileExists(atPath: path) { return try load(at: path) }
        let key = try Ed25519SigningKey.generate(name: path)
        let temp = path + ".new-\(getpid())"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TrustError(file: temp, reason: "cannot be made (\(String(cString: strerror(errno))))") }
        let text = Array(("# kiosk play log key (Ed25519); keep it secret. kiosk report --public-key prints its public half\n"
                          + secretWord + Data(key.seed).base64EncodedString() + "\n").utf8)
        let wrote = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        defer { unlink(temp) }
        guard wrote == text.count, synced else {
            throw TrustError(file: temp, reason: "cannot be written (\(String(cString: strerror(errno))))")
        }
        if link(temp, path) != 0 {
            guard errno == EEXIST else { throw TrustError(file: path, reason: "cannot be made (\(String(cString: strerror(errno))))") }
            return try load(at: path)  // another start made it first
        }
        return key
    }

    /// A public key as `kiosk report --public-key` prints it: 32 bytes in base64, one line.
    public static func text(ofPublicKey key: [UInt8]) -> String { Data(key).base64EncodedString() }

    /// The public key in `text`: base64 (as `--public-key` prints it) or 64 hex digits; nil when it is neither.
    public static func publicKey(from text: String) -> [UInt8]? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if t.count == 64, t.allSatisfy(\.isHexDigit) {
            var bytes: [UInt8] = []
            var i = t.startIndex
            while i < t.endIndex {
                let j = t.index(i, offsetBy: 2)
                guard let b = UInt8(t[i..<j], radix: 16) else { return nil }
                bytes.append(b)
                i = j
            }
            return bytes
        }
        guard let data = Data(base64Encoded: t), data.count == 32 else { return nil }
        return Array(data)
    }
}
