import Foundation
import KioskCore
import KioskPlayLog

/// `kiosk report --verify | --public-key | --sign`: the play log's chain and signatures (docs/proof-of-play.md).
struct PlayLogProof {
    let log: Log

    /// Runs the one asked for on the log at `path`; the exit status.
    func run(_ o: ParsedOptions, path: String) throws -> Int32 {
        let asked = ["verify", "public-key", "sign"].filter { o.has($0) }
        guard asked.count == 1 else { throw UsageError("report: --\(asked.joined(separator: " and --")) go one at a time") }
        if o.string("key") != nil, !o.has("verify") { throw UsageError("report: --key is for --verify") }
        for counting in ["since", "until", "timezone", "by", "format"] where o.string(counting) != nil {
            throw UsageError("report: --\(counting) counts showings; it does not go with --\(asked[0])")
        }
        let keyPath = PlayLogKey.path(forLog: path)
        do {
            if o.has("public-key") {
                let key = try PlayLogKey.load(at: keyPath)
                print(PlayLogKey.text(ofPublicKey: key.publicKey))
                return 0
            }
            guard FileManager.default.fileExists(atPath: path) else {
                log.error("report: \(path): no such play log")
                return 1
            }
            if o.has("sign") {
                let row = try PlayLogSignatures.signHead(path: path, keyPath: keyPath)
                print(row.map { "\(path): signed the head, row \($0)" } ?? "\(path): the head is signed already (or nothing is chained yet)")
                return 0
            }
            let key = try publicKey(o.string("key"), keyPath: keyPath)
            switch try PlayLogVerification.verify(path: path, key: key) {
            case .verified(let summary):
                print(summary)
                return 0
            case .failed(let row, let reason):
                print("\(path): NOT verified" + (row.map { " at row \($0)" } ?? "") + ": \(reason)")
                return 1
            }
        } catch let e as UsageError {
            throw e
        } catch {
            log.error("report: \(error)")
            return 1
        }
    }

    /// The key `--key` names (the key itself, or a file holding it), or the public half of the log's own key.
    private func publicKey(_ named: String?, keyPath: String) throws -> [UInt8] {
        guard let named else { return try PlayLogKey.load(at: keyPath).publicKey }
        if let key = PlayLogKey.publicKey(from: named) { return key }
        guard let data = FileManager.default.contents(atPath: named) else {
            throw UsageError("--key: '\(named)' is neither a public key (base64 or 64 hex digits) nor a file that can be read")
        }
        let text = String(decoding: data, as: UTF8.self)
        if PlayLogKey.isKeyFile(text) { return try PlayLogKey.load(at: named).publicKey }  // a screen's key file: its public half
        guard let key = PlayLogKey.publicKey(from: text) else {
            throw UsageError("--key: \(named) does not hold a public key (one line: base64 or 64 hex digits)")
        }
        return key
    }
}
