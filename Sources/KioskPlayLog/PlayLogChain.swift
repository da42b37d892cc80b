import Foundation
import KioskTrust

/// The hash chain over the play log's showings (schema version 4, docs/proof-of-play.md).
///
/// A row is chained when it is complete (its end written, by the player or, after a crash, by the next start),
/// and only once every row before it is: the chain runs in row id order, and a row still on screen holds up those
/// after it. `chain` of row n is the lower-case hex SHA-256 of row n-1's `chain` (64 hex characters) followed by
/// the canonical encoding of row n's fields (`encode`). The first row of a log continues from its start mark's
/// `previous` (64 zeros for a new log; the last pruned row's chain after retention removed older rows).
///
/// Everything here runs inside the caller's transaction, so a row is never complete and unchained on disk: a
/// batch of writes in one transaction chains all its rows at once.
enum PlayLogChain {
    /// The fields hashed, in this order (the encoding's version is its first line). `heartbeat_utc` is left out:
    /// it only says an open row was alive, and equals `end_utc` once the row is complete.
    static let fields = ["id", "start_utc", "end_utc", "duration", "path", "size", "mtime_utc", "kind", "region",
                         "layout", "element", "reason", "screen_on", "screen_off_ms", "screen"]
    /// `fields` as a SELECT list.
    static let columns = fields.joined(separator: ", ")
    /// What the first row of a new log continues from.
    static let genesis = String(repeating: "0", count: 64)
    /// The encoding's first line: a later schema that hashes more fields says so with a new one.
    static let encodingVersion = "kiosk-showing-v1\n"

    /// The canonical bytes of a row (`fields`' values, in order): `encodingVersion`, then per field its name, a
    /// space, the value and a newline. A value is `N` (NULL), `I` and the integer in decimal, `R` and the 16 hex
    /// digits of the IEEE 754 double's bits, or `T`, the UTF-8 length in decimal, `:` and the text: no value can
    /// run into the next one.
    static func encode(_ row: ArraySlice<SQLiteDatabase.Value>) -> [UInt8] {
        var out = Array(encodingVersion.utf8)
        for (name, value) in zip(fields, row) {
            out += Array(name.utf8)
            out.append(0x20)
            switch value {
            case .null: out.append(UInt8(ascii: "N"))
            case .int(let x): out += Array("I\(x)".utf8)
            case .real(let x):
                let bits = String(x.bitPattern, radix: 16)
                out += Array(("R" + String(repeating: "0", count: 16 - bits.count) + bits).utf8)
            case .text(let s):
                let bytes = Array(s.utf8)
                out += Array("T\(bytes.count):".utf8) + bytes
            }
            out.append(0x0a)
        }
        return out
    }

    /// The chain of a row whose fields are `row`, after a row whose chain was `previous`.
    static func link(previous: String, row: ArraySlice<SQLiteDatabase.Value>) -> String {
        SHA256Sum.hex(Array(previous.utf8) + encode(row))
    }

    /// The last chained row: its id and chain; nil when none is.
    static func head(_ db: SQLiteDatabase) throws(SQLiteError) -> (id: Int64, chain: String)? {
        guard let row = try db.query("SELECT id, chain FROM showings WHERE chain IS NOT NULL ORDER BY id DESC LIMIT 1").first,
              let id = row[0].int, let chain = row[1].text else { return nil }
        return (id, chain)
    }

    /// Chains the complete rows after the head, in id order, up to the first row still open; how many. With nothing
    /// chained yet, the first row continues from its start mark, made now (with `note`) when it has none.
    @discardableResult
    static func extend(_ db: SQLiteDatabase, now: Date, note: String) throws(SQLiteError) -> Int {
        var previous: String
        var after: Int64
        if let head = try head(db) {
            (after, previous) = (head.id, head.chain)
        } else {
            guard let first = try db.query("SELECT min(id) FROM showings").first?.first?.int else { return 0 }
            if let mark = try db.query("""
                SELECT previous FROM chain_marks WHERE row_id = ?1 AND kind IN ('start', 'pruned') ORDER BY id DESC LIMIT 1
                """, [.int(first)]).first?.first?.text {
                previous = mark
            } else {
                try PlayLogMarks.add(db, row: first, kind: .start, at: now, previous: genesis, note: note)
                previous = genesis
            }
            after = first - 1
        }
        var chained = 0
        for row in try db.query("SELECT \(columns) FROM showings WHERE id > ?1 ORDER BY id", [.int(after)]) {
            guard let id = row[0].int, row[2] != .null else { break }  // still on screen: the rest wait for it
            previous = link(previous: previous, row: row[...])
            try db.query("UPDATE showings SET chain = ?2 WHERE id = ?1", [.int(id), .text(previous)])
            chained += 1
        }
        return chained
    }
}
