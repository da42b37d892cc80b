import Foundation
import XCTest

/// The real minisign (Debian's /usr/bin/minisign) in a test: key pairs made without a password, files signed
/// (prehashed or legacy), and minisign's own verdict on a signature, to compare with KioskTrust's. Every run is
/// bounded in time; a run that fails throws, naming the command and what minisign said.
enum MinisignTool {
    /// Where Debian's package puts it (Kiosk/setup.sh installs it).
    static let path = "/usr/bin/minisign"
    /// Seconds any one minisign run may take.
    static let timeout = 20.0

    /// A key pair in a test folder.
    struct KeyPair {
        /// The public key file (`untrusted comment: minisign public key ID`, then the base64 line).
        let publicKey: String
        /// The secret key file, not encrypted.
        let secretKey: String
    }

    /// A minisign run that did not do what the test needed.
    struct Failure: Error, CustomStringConvertible {
        /// The command and what it printed.
        let description: String
    }

    /// Makes a key pair `name.pub` / `name.key` in `dir` with no password (`minisign -G -W`).
    static func generate(in dir: TempDir, name: String) throws -> KeyPair {
        let pair = KeyPair(publicKey: dir.file(name + ".pub"), secretKey: dir.file(name + ".key"))
        try run(["-G", "-W", "-p", pair.publicKey, "-s", pair.secretKey])
        return pair
    }

    /// Signs `file` with `pair` into `signature`: prehashed (minisign's default) or `legacy` (`-l`), with a
    /// trusted comment when given (else minisign's default one, a timestamp and the file name).
    static func sign(_ file: String, with pair: KeyPair, into signature: String, legacy: Bool = false,
                     trustedComment: String? = nil) throws {
        var args = ["-S", "-s", pair.secretKey, "-m", file, "-x", signature]
        if legacy { args.append("-l") }
        if let trustedComment { args += ["-t", trustedComment] }
        try run(args)
    }

    /// Whether `minisign -V` accepts `signature` for `file` with the public key file `publicKey` (exit 0).
    static func accepts(_ file: String, signature: String, publicKey: String) throws -> Bool {
        let result = try BoundedProcess.run(path, ["-V", "-q", "-p", publicKey, "-m", file, "-x", signature],
                                            timeout: timeout)
        return result.status == 0 && !result.timedOut
    }

    private static func run(_ args: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Failure(description: "\(path) is missing: install Debian's minisign (Kiosk/setup.sh does)")
        }
        let result = try BoundedProcess.run(path, args, timeout: timeout)
        guard result.status == 0, !result.timedOut else {
            throw Failure(description: "minisign \(args.joined(separator: " ")) exited \(result.status): "
                          + String(decoding: result.stdout + result.stderr, as: UTF8.self))
        }
    }
}
