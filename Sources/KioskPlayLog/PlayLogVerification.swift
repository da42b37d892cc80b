import Foundation
import KioskTrust

/// `kiosk report --verify`: the whole chain and every signature of a play log checked against a public key.
public enum PlayLogVerification {
    /// What the check found.
    public enum Outcome: Equatable, Sendable {
        /// Everything matches: one summary line.
        case verified(String)
        /// The first thing that does not match: the row (nil when the log as a whole is at fault) and what.
        case failed(row: Int64?, reason: String)
    }

    /// Checks the log at `path`: each row's chain in id order from the start mark, that ids run on without a gap,
    /// that only rows after one still on screen are unchained, and each signature against `key` (32 bytes). The
    /// first problem by row is named; recorded breaks (crashes, retention) are said in the summary. The rows are
    /// read `pageSize` at a time (a year's log need not fit in memory).
    public static func verify(path: String, key: [UInt8], pageSize: Int = 4096) throws(SQLiteError) -> Outcome {
        guard FileManager.default.fileExists(atPath: path) else { throw SQLiteError(path: path, reason: "no such file", code: 14) }
        let db = try SQLiteDatabase(path: path, readOnly: true)
        let version = try db.query("PRAGMA user_version").first?.first?.int ?? 0
        guard version >= 4 else {
            return .failed(row: nil, reason: "schema version \(version) has no chain (kiosk chains it when it next opens the log)")
        }
        try db.execute("BEGIN")  // one snapshot: the player may write meanwhile
        defer { try? db.execute("COMMIT") }
        let signatures = try db.query("SELECT id, row_id, head, time_utc, public_key, signature FROM signatures ORDER BY id")
        var heads: [Int64: String] = Dictionary(signatures.compactMap { $0[1].int.map { ($0, "") } }, uniquingKeysWith: { a, _ in a })
        let summary: String
        switch try walk(db, pageSize: pageSize, heads: &heads, proof: version >= 5) {
        case .failure(let f): return .failed(row: f.row, reason: f.reason)
        case .success(let s): summary = s
        }
        let keyText = PlayLogKey.text(ofPublicKey: key)
        var lastSigned: (row: Int64, time: String)?
        for s in signatures {
            guard let id = s[0].int, let row = s[1].int, let head = s[2].text, let time = s[3].text, let signer = s[4].text,
                  let signature = s[5].text.flatMap({ Data(base64Encoded: $0) }) else {
                return .failed(row: s[1].int, reason: "signature \(s[0].int ?? 0) is malformed")
            }
            guard let chained = heads[row], !chained.isEmpty else {
                return .failed(row: row, reason: "signature \(id) signs row \(row), which is not a chained row of this log (removed?)")
            }
            guard chained == head else {
                return .failed(row: row, reason: "signature \(id) signs a head that is not row \(row)'s chain: a row up to \(row) was changed after it was signed")
            }
            guard signer == keyText else {
                return .failed(row: row, reason: "signature \(id) over row \(row) is by another key (\(signer)), not \(keyText)")
            }
            guard Ed25519SigningKey.isValid(signature: Array(signature), of: PlayLogSignatures.message(row: row, head: head, time: time), key: key) else {
                return .failed(row: row, reason: "signature \(id) over row \(row) is bad (not \(keyText)'s signature of that head)")
            }
            lastSigned = (row, time)
        }
        let signed = lastSigned.map { "\(signatures.count) signature\(signatures.count == 1 ? "" : "s") by \(keyText) good, the last over row \($0.row) at \($0.time)" }
            ?? "no signatures yet"
        return .verified("\(path): verified: \(summary); \(signed)")
    }

    /// A chain problem: the row and what.
    struct Problem: Error {
        let row: Int64
        let reason: String
    }

    /// Checks every row in id order (a complete row has its place in the chain, an open one none), then the chain
    /// in its order from the start mark, setting the chain of each row `heads` names (the rows signed); the summary.
    /// Each row is hashed in the encoding its `chain_v` names (`proof`: the log has the columns of schema 5; a row
    /// whose `chain_v` is 2 hashes `PlayLogChain.fieldsV2`, any other `fields`).
    private static func walk(_ db: SQLiteDatabase, pageSize: Int, heads: inout [Int64: String], proof: Bool) throws(SQLiteError) -> Result<String, Problem> {
        let limit = SQLiteDatabase.Value.int(Int64(pageSize))
        var after = Int64.min
        var open: [Int64] = []
        var ids = IndexSet()
        while true {
            let rows = try db.query("SELECT id, end_utc IS NULL, chain IS NULL, chain_seq IS NULL FROM showings WHERE id > ?1 ORDER BY id LIMIT ?2",
                                    [.int(after), limit])
            guard let last = rows.last?.first?.int else { break }
            after = last
            for r in rows {
                guard let id = r[0].int else { continue }
                if id >= 0, id < Int64(Int.max) { ids.insert(Int(id)) }
                let (isOpen, noChain, noPlace) = (r[1].int == 1, r[2].int == 1, r[3].int == 1)
                if noChain != noPlace {
                    return .failure(Problem(row: id, reason: "row \(id) has a chain but no place in it (chain_seq), or a place and no chain: inserted?"))
                }
                if noChain, !isOpen {
                    return .failure(Problem(row: id, reason: "row \(id) is complete but not chained: added after the fact?"))
                }
                if isOpen, noChain { open.append(id) }
            }
        }
        guard let anchor = try PlayLogMarks.anchor(db) else {
            if let head = try PlayLogChain.head(db) {
                return .failure(Problem(row: head.id, reason: "the chain has no start mark (chain_marks): it cannot be checked"))
            }
            return .success(ids.isEmpty ? "no showings yet" : "no row complete yet (\(open.count) on screen)")
        }
        var previous = anchor.previous
        var expected = anchor.seq
        var chained = 0
        var lastRow: Int64?
        var place = anchor.seq - 1
        let width = PlayLogChain.fieldsV2.count
        let select = proof ? "\(PlayLogChain.columnsV2), chain_v"
            : PlayLogChain.columns + String(repeating: ", NULL", count: width - PlayLogChain.fields.count + 1)
        while true {
            let rows = try db.query("SELECT \(select), chain, chain_seq FROM showings WHERE chain_seq > ?1 ORDER BY chain_seq LIMIT ?2",
                                    [.int(place), limit])
            guard let last = rows.last?.last?.int else { break }
            place = last
            for row in rows {
                guard let id = row[0].int, let seq = row[width + 2].int,
                      let stored = row[width + 1].text else { continue }
                let hashed = PlayLogChain.hashed(row)
                guard seq == expected else {
                    if seq < expected {
                        return .failure(Problem(row: id, reason: "row \(id) is before the chain's start (place \(anchor.seq)): inserted?"))
                    }
                    let missing = missingRow(ids, above: anchor.kind == "pruned" ? anchor.row : 0)
                    let between = lastRow.map { "between rows \($0) and \(id)" } ?? "before row \(id)"
                    let name = missing.map { "row \($0) is missing" } ?? "a row is missing"
                    return .failure(Problem(row: missing ?? id, reason: "\(name) from the chain \(between) (chain_seq jumps from \(expected - 1) to \(seq))"))
                }
                expected += 1
                let linked = PlayLogChain.link(previous: previous, row: hashed)
                guard PlayLogChain.matches(stored: stored, computed: linked) else {
                    return .failure(Problem(row: id, reason: "row \(id) does not match its chain (hash mismatch): changed, or put in another row's place"))
                }
                previous = linked
                if heads[id] != nil { heads[id] = linked }
                chained += 1
                lastRow = id
            }
        }
        let rowIDs = ids.isEmpty ? "" : " of rows \(ids.first ?? 0)-\(ids.last ?? 0)"
        var parts = ["\(chained) rows chained\(rowIDs)"]
        if anchor.kind == "pruned" { parts.append("from place \(anchor.seq): older rows removed by retention") }
        if anchor.kind == "start", anchor.note.hasPrefix("chained at") { parts.append(anchor.note) }
        let breaks = try db.query("SELECT row_id, note FROM chain_marks WHERE kind = 'crash' ORDER BY row_id")
        if !breaks.isEmpty {
            parts.append("\(breaks.count) recorded break\(breaks.count == 1 ? "" : "s") ("
                         + breaks.map { "row \($0[0].int ?? 0): \($0[1].text ?? "crash")" }.joined(separator: "; ") + ")")
        }
        if !open.isEmpty { parts.append("\(open.count) row\(open.count == 1 ? "" : "s") on screen, not chained yet (from row \(open[0]))") }
        return .success(parts.joined(separator: ", "))
    }

    /// The first row id above `floor` that is not in `ids` (below their largest): the row a gap in the chain lost.
    private static func missingRow(_ ids: IndexSet, above floor: Int64) -> Int64? {
        guard let top = ids.last, let low = ids.first else { return nil }
        var id = max(Int(clamping: floor) + 1, low)
        while id < top {
            if !ids.contains(id) { return Int64(id) }
            id += 1
        }
        return nil
    }
}
