import Foundation
import KioskTrust

/// Signatures of the chain's head by the screen's key, in the `signatures` table: the head row's id, its chain,
/// the time of signing, the public key (base64) and the Ed25519 signature (base64) of `message`.
public enum PlayLogSignatures {
    /// What is signed: `kiosk play log head v1`, the head row's id, its chain and the time, one a line.
    static func message(row: Int64, head: String, time: String) -> [UInt8] {
        Array("kiosk play log head v1\n\(row)\n\(head)\n\(time)\n".utf8)
    }

    /// Signs the chain's head with `key` at `now`, unless it is signed already; the row signed, or nil. In the
    /// caller's transaction.
    @discardableResult
    static func sign(_ db: SQLiteDatabase, key: Ed25519SigningKey, now: Date) throws(SQLiteError) -> Int64? {
        guard let head = try PlayLogChain.head(db) else { return nil }
        let last = try db.query("SELECT row_id FROM signatures ORDER BY id DESC LIMIT 1").first?.first?.int
        guard last != head.id else { return nil }
        let time = PlayLog.timestamp(now)
        let signature = key.sign(message(row: head.id, head: head.chain, time: time))
        try db.query("INSERT INTO signatures (row_id, head, time_utc, public_key, signature) VALUES (?1, ?2, ?3, ?4, ?5)",
                     [.int(head.id), .text(head.chain), .text(time), .text(PlayLogKey.text(ofPublicKey: key.publicKey)),
                      .text(Data(signature).base64EncodedString())])
        return head.id
    }

    /// The time of the last signature; nil when there is none.
    static func lastTime(_ db: SQLiteDatabase) throws(SQLiteError) -> Date? {
        guard let text = try db.query("SELECT time_utc FROM signatures ORDER BY id DESC LIMIT 1").first?.first?.text else { return nil }
        return PlayLogSignatures.date(text)
    }

    /// The date of a `PlayLog.timestamp`.
    static func date(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: text)
    }

    /// Signs the head of the log at `path` now with the key at `keyPath` (`kiosk report --sign`, while the player
    /// runs or not: one short transaction); the row signed, or nil when it was signed already or nothing is chained.
    public static func signHead(path: String, keyPath: String) throws -> Int64? {
        let key = try PlayLogKey.load(at: keyPath)
        let db = try SQLiteDatabase(path: path, busy: 5)
        let version = try db.query("PRAGMA user_version").first?.first?.int ?? 0
        guard version >= 4 else {
            throw SQLiteError(description: "\(path): schema version \(version) has no chain yet (kiosk migrates it when it next opens it)", code: 1)
        }
        try db.execute("BEGIN IMMEDIATE")
        do {
            let row = try sign(db, key: key, now: Date())
            try db.execute("COMMIT")
            return row
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }
}
