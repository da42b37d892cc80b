import Foundation
import KioskTrust

/// The hash chain over the play log's showings (schema version 4, docs/proof-of-play.md).
///
/// A row is chained when it is complete (its end written, by the player or, after a crash, by the next start), in
/// the order rows complete: `chain_seq` is its place (1, 2, 3, … with no gap), so a row on screen for hours (a logo
/// in a layout's side region) holds up no other. `chain` of the row at place n is the lower-case hex SHA-256 of the
/// `chain` at place n-1 (64 hex characters) followed by the canonical encoding of the row's fields (`encode`). The
/// first place continues from its start mark's `previous` (64 zeros for a new log; after retention removed older
/// rows, the chain of the last removed place). A row with a verdict (schema 5, proof of display) is encoded as
/// `kiosk-showing-v2` over `fieldsV2` and its `chain_v` set to 2; one without (an older log's) as `kiosk-showing-v1`.
///
/// The row at the head keeps all 64 hex digits (the next row continues from them, and a signature signs them); once
/// another row is chained after it, it keeps the first 16 (`storedDigits`, 64 bits), which still tell the row that
/// does not match (`kiosk report --verify` computes every chain in full from the start mark and compares): a row's
/// 48 digits fewer are an eighth of what a showing writes to an SD card. Rows chained before kept all 64, and verify.
///
/// Everything here runs inside the caller's transaction, so a row is never complete and unchained on disk: a
/// batch of writes in one transaction chains all its rows at once.
enum PlayLogChain {
    /// The fields hashed, in this order (the encoding's version is its first line). `heartbeat_utc` is left out:
    /// it only says an open row was alive, and is cleared when the row completes (a crash's rows keep it, as their end).
    static let fields = ["id", "start_utc", "end_utc", "duration", "path", "size", "mtime_utc", "kind", "region",
                         "layout", "element", "reason", "screen_on", "screen_off_ms", "screen"]
    /// `fields` as a SELECT list.
    static let columns = fields.joined(separator: ", ")
    /// The fields of `kiosk-showing-v2` (schema version 5: a row with a verdict, `chain_v` 2): `fields`, then what
    /// the display side knew (PlayLogDisplay), so that a verdict cannot be changed unnoticed.
    static let fieldsV2 = fields + ["display_state", "display_id", "cec_power", "verdict", "thumb"]
    /// `fieldsV2` as a SELECT list.
    static let columnsV2 = fieldsV2.joined(separator: ", ")
    /// The index of `verdict` in `fieldsV2`.
    static let verdictIndex = fields.count + 3
    /// What the first row of a new log continues from.
    static let genesis = String(repeating: "0", count: 64)
    /// The encoding's first line: a later schema that hashes more fields says so with a new one.
    static let encodingVersion = "kiosk-showing-v1\n"
    /// The first line of the encoding of `fieldsV2`.
    static let encodingVersion2 = "kiosk-showing-v2\n"
    /// How many leading hex digits of its chain a row keeps once it is no longer the head.
    static let storedDigits = 16

    /// Whether `stored`, a row's `chain` column, is the chain `computed`: all 64 digits, or the first `storedDigits`.
    static func matches(stored: String, computed: String) -> Bool {
        stored.count == 64 ? stored == computed : stored.count == storedDigits && computed.hasPrefix(stored)
    }

    /// The canonical bytes of a row (`fields`' values, in order): `encodingVersion`, then per field its name, a
    /// space, the value and a newline. A value is `N` (NULL), `I` and the integer in decimal, `R` and the 16 hex
    /// digits of the IEEE 754 double's bits, or `T`, the UTF-8 length in decimal, `:` and the text: no value can
    /// run into the next one. A row of `fieldsV2`' values is encoded as `kiosk-showing-v2` (`encodingVersion2`).
    static func encode(_ row: ArraySlice<SQLiteDatabase.Value>) -> [UInt8] {
        let v2 = row.count == fieldsV2.count
        var out = Array((v2 ? encodingVersion2 : encodingVersion).utf8)
        for (name, value) in zip(v2 ? fieldsV2 : fields, row) {
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

    /// The last chained row: its id, chain (all 64 digits) and place in the chain; nil when none is.
    static func head(_ db: SQLiteDatabase) throws(SQLiteError) -> (id: Int64, chain: String, seq: Int64)? {
        guard let row = try db.query("""
            SELECT id, chain, chain_seq FROM showings WHERE chain_seq IS NOT NULL ORDER BY chain_seq DESC LIMIT 1
            """).first, let id = row[0].int, let chain = row[1].text, let seq = row[2].int else { return nil }
        return (id, chain.count == 64 ? chain : try full(db, at: seq) ?? chain, seq)
    }

    /// The fields a stored row is hashed over: `row` is `columnsV2` then `chain_v`; a row whose `chain_v` is 2 hashes
    /// `fieldsV2`, any other (an older log's) `fields`.
    static func hashed(_ row: [SQLiteDatabase.Value]) -> ArraySlice<SQLiteDatabase.Value> {
        row[fieldsV2.count].int == 2 ? row[0..<fieldsV2.count] : row[0..<fields.count]
    }

    /// The chain at place `seq` in all 64 digits: computed from the nearest place at or before it that keeps all 64
    /// (or the start mark), over the rows between; nil when there is neither (for retention's `pruned` mark).
    static func full(_ db: SQLiteDatabase, at seq: Int64) throws(SQLiteError) -> String? {
        var previous: String
        var place: Int64
        if let row = try db.query("""
            SELECT chain, chain_seq FROM showings WHERE chain_seq <= ?1 AND length(chain) = 64 ORDER BY chain_seq DESC LIMIT 1
            """, [.int(seq)]).first, let chain = row[0].text, let at = row[1].int {
            (previous, place) = (chain, at)
        } else if let mark = try PlayLogMarks.anchor(db), mark.seq - 1 <= seq {
            (previous, place) = (mark.previous, mark.seq - 1)
        } else {
            return nil
        }
        let rows = try db.query("SELECT \(columnsV2), chain_v FROM showings WHERE chain_seq > ?1 AND chain_seq <= ?2 ORDER BY chain_seq",
                                [.int(place), .int(seq)])
        for row in rows { previous = link(previous: previous, row: hashed(row)) }
        return previous
    }

    /// Chains the rows `ids` (those completed in this transaction), or with nil every complete row not chained yet
    /// (at start: after a crash, or an older log's), in id order, after the head; how many. The first row of a log
    /// continues from its start or pruned mark; a start mark is made now (with `note`) when there is none.
    @discardableResult
    static func extend(_ db: SQLiteDatabase, ids: [Int64]?, now: Date, note: String) throws(SQLiteError) -> Int {
        let select = "SELECT \(columnsV2) FROM showings WHERE chain_seq IS NULL AND end_utc IS NOT NULL"
        var rows: [[SQLiteDatabase.Value]] = []
        if let ids {
            for id in ids { rows += try db.query(select + " AND id = ?1", [.int(id)]) }
        } else {
            rows = try db.query(select + " ORDER BY id")
        }
        guard let first = rows.first?.first?.int else { return 0 }
        var seq: Int64
        var previous: String
        if let head = try head(db) {
            (seq, previous) = (head.seq, head.chain)
        } else if let mark = try PlayLogMarks.anchor(db) {
            (seq, previous) = (mark.seq - 1, mark.previous)
        } else {
            try PlayLogMarks.add(db, row: first, kind: .start, at: now, seq: 1, previous: genesis, note: note)
            (seq, previous) = (0, genesis)
        }
        // the head keeps all 64 digits only while it is the head
        var last = try head(db)?.id
        for row in rows {
            guard let id = row[0].int else { continue }
            seq += 1
            // a row with a verdict hashes what the display side knew too (v2); one without (an older log's) as before
            let version: Int64 = row[verdictIndex] == .null ? 1 : 2
            previous = link(previous: previous, row: version == 2 ? row[...] : row[0..<fields.count])
            if let last {
                try db.query("UPDATE showings SET chain = substr(chain, 1, ?2) WHERE id = ?1", [.int(last), .int(Int64(storedDigits))])
            }
            try db.query("UPDATE showings SET chain = ?2, chain_seq = ?3, chain_v = ?4 WHERE id = ?1",
                         [.int(id), .text(previous), .int(seq), .int(version)])
            last = id
        }
        return rows.count
    }
}
