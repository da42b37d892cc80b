internal import CCrypt
import Foundation
import KioskCore

/// The web page's password, as a crypt(3) hash (yescrypt, libxcrypt) in a file `kiosk passwd FILE` writes; and
/// the API's bearer token, from a file of its own.
public enum WebPassword {
    /// Why `password` cannot be a password, or nil: crypt(3) reads a C string, so a NUL byte would end the password
    /// there (a password starting with one would hash as the empty password, which anyone can give), and an empty one
    /// lets anyone in.
    public static func refusal(_ password: String) -> String? {
        if password.isEmpty { return "the password is empty" }
        if password.utf8.contains(0) { return "the password holds a NUL byte (crypt(3) would stop reading it there)" }
        return nil
    }

    /// A yescrypt hash of `password` with a fresh salt; an empty password or one with a NUL byte is refused.
    public static func hash(_ password: String) throws(WebSetupError) -> String {
        if let why = refusal(password) { throw WebSetupError(why) }
        var out = [CChar](repeating: 0, count: Int(CRYPT_OUTPUT_SIZE))
        guard kiosk_crypt_hash(password, &out, out.count) == 0 else { throw WebSetupError("crypt(3) could not hash the password") }
        return out.withUnsafeBufferPointer { String(decoding: $0.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }

    /// Whether `password` matches `hash`; an empty password or one with a NUL byte never does (crypt(3) would read
    /// only its part before the NUL).
    public static func verify(_ password: String, hash: String) -> Bool {
        refusal(password) == nil && kiosk_crypt_verify(password, hash) == 1
    }

    /// The hash in `path` (its first line); a file that cannot be read, holds no crypt hash or the hash of the empty
    /// password is an error naming it.
    public static func readHash(_ path: String) throws(WebSetupError) -> String {
        let line = try firstLine(path, "--http-password-file")
        guard line.hasPrefix("$"), line.count >= 20, !line.contains(":") else {
            throw WebSetupError("--http-password-file: \(path) holds no crypt(3) hash (make one with 'kiosk passwd \(path)')")
        }
        // an old `kiosk passwd` could hash the empty password (16 random bytes, the first a NUL): anyone could log in
        guard kiosk_crypt_verify("", line) != 1 else {
            throw WebSetupError("--http-password-file: \(path) holds the hash of the empty password (make a new one with 'kiosk passwd \(path)')")
        }
        return line
    }

    /// The token in `path` (its first line, at least 16 characters).
    public static func readToken(_ path: String) throws(WebSetupError) -> String {
        let line = try firstLine(path, "--http-token-file")
        guard line.count >= 16, line.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw WebSetupError("--http-token-file: \(path): the token must be at least 16 printable characters on its first line")
        }
        return line
    }

    private static func firstLine(_ path: String, _ flag: String) throws(WebSetupError) -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw WebSetupError("\(flag): cannot read \(path)")
        }
        return text.split(whereSeparator: \.isNewline).first.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
    }
}

/// Why the web server cannot start as asked, in one line naming the flag or file.
public struct WebSetupError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
