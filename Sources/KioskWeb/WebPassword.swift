internal import CCrypt
import Foundation
import KioskCore

/// The web page's password, as a crypt(3) hash (yescrypt, libxcrypt) in a file `kiosk passwd FILE` writes; and
/// the API's bearer token, from a file of its own.
public enum WebPassword {
    /// A yescrypt hash of `password` with a fresh salt.
    public static func hash(_ password: String) throws(WebSetupError) -> String {
        var out = [CChar](repeating: 0, count: Int(CRYPT_OUTPUT_SIZE))
        guard kiosk_crypt_hash(password, &out, out.count) == 0 else { throw WebSetupError("crypt(3) could not hash the password") }
        return out.withUnsafeBufferPointer { String(decoding: $0.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }

    /// Whether `password` matches `hash`.
    public static func verify(_ password: String, hash: String) -> Bool {
        kiosk_crypt_verify(password, hash) == 1
    }

    /// The hash in `path` (its first line); a file that cannot be read or holds no crypt hash is an error naming it.
    public static func readHash(_ path: String) throws(WebSetupError) -> String {
        let line = try firstLine(path, "--http-password-file")
        guard line.hasPrefix("$"), line.count >= 20, !line.contains(":") else {
            throw WebSetupError("--http-password-file: \(path) holds no crypt(3) hash (make one with 'kiosk passwd \(path)')")
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
