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
        let marks = try db.query("SELECT row_id, kind, previous, note FROM chain_marks ORDER BY row_id, id")
        let signatures = try db.query("SELECT id, row_id, head, time_utc, public_key, signature FROM signatures ORDER BY id")
        var heads: [Int64: String] = Dictionary(signatures.compactMap { $0[1].int.map { ($0, "") } }, uniquingKeysWith: { a, _ in a })
        var summary = ""
        if let first = try db.query("SELECT min(id) FROM showings").first?.first?.int {
            let page = { (after: Int64) throws(SQLiteError) -> [[SQLiteDatabase.Value]] in
                try db.query("SELECT \(PlayLogChain.columns), chain FROM showings WHERE id > ?1 ORDER BY id LIMIT ?2", [.int(after), .int(Int64(pageSize))])
            }
            switch try chain(page, first: first, marks: marks, heads: &heads) {
            case .failure(let f): return .failed(row: f.row, reason: f.reason)
            case .success(let s): summary = s
            }
        } else {
            summary = "no showings yet"
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

    /// Walks the rows page by page (`PlayLogChain.columns` and `chain`, after a row id), setting the chain of each
    /// row `heads` names (the rows signed); the summary.
    private static func chain(_ page: (Int64) throws(SQLiteError) -> [[SQLiteDatabase.Value]], first: Int64,
                              marks: [[SQLiteDatabase.Value]], heads: inout [Int64: String]) throws(SQLiteError) -> Result<String, Problem> {
        let starts = marks.filter { $0[1].text == "start" || $0[1].text == "pruned" }
        if starts.isEmpty, let row = try page(first - 1).first, row.last == .null, row[2] == .null {
            return .success("no row complete yet (rows from \(first) on screen)")  // the first row starts the chain when it ends
        }
        guard let start = starts.last(where: { ($0[0].int ?? .max) <= first }), let startRow = start[0].int,
              var previous = start[2].text else {
            let at = starts.first?[0].int.map { "at row \($0)" } ?? "anywhere"
            return .failure(Problem(row: first, reason: "row \(first) is before the chain's start (\(at)): inserted?"))
        }
        guard startRow == first else {
            return .failure(Problem(row: startRow, reason: "row \(startRow) is missing: the chain starts there and the first row is \(first)"))
        }
        var expected = first
        var openAt: Int64?
        var chained = 0
        var lastChained = first - 1
        var rows = try page(first - 1)
        var index = 0
        while true {
            if index == rows.count {
                guard let last = rows.last?.first?.int else { break }
                rows = try page(last)
                index = 0
                if rows.isEmpty { break }
            }
            let row = rows[index]
            index += 1
            guard let id = row[0].int else { continue }
            guard id == expected else {
                let gap = expected == id - 1 ? "row \(expected) is missing" : "rows \(expected)-\(id - 1) are missing"
                return .failure(Problem(row: expected, reason: "\(gap) (ids jump from \(expected - 1) to \(id))"))
            }
            expected += 1
            let fields = row[0..<PlayLogChain.fields.count]
            guard let stored = row[PlayLogChain.fields.count].text else {
                if openAt == nil {
                    guard row[2] == .null else {
                        return .failure(Problem(row: id, reason: "row \(id) is complete but not chained: added after the fact?"))
                    }
                    openAt = id
                }
                continue
            }
            if let openAt {
                return .failure(Problem(row: id, reason: "row \(id) is chained after row \(openAt), which is not: inserted?"))
            }
            guard PlayLogChain.link(previous: previous, row: fields) == stored else {
                return .failure(Problem(row: id, reason: "row \(id) does not match its chain (hash mismatch): changed, or put in another row's place"))
            }
            previous = stored
            if heads[id] != nil { heads[id] = stored }
            chained += 1
            lastChained = id
        }
        var parts = ["rows \(first)-\(lastChained) chained (\(chained))"]
        if start[1].text == "pruned" { parts.append("from row \(first), older rows removed by retention") }
        if let note = start[3].text, start[1].text == "start", note.hasPrefix("chained at") { parts.append(note + " at row \(first)") }
        let breaks = marks.filter { $0[1].text == "crash" }
        if !breaks.isEmpty {
            parts.append("\(breaks.count) recorded break\(breaks.count == 1 ? "" : "s") ("
                         + breaks.map { "row \($0[0].int ?? 0): \($0[3].text ?? "crash")" }.joined(separator: "; ") + ")")
        }
        if let openAt { parts.append("rows from \(openAt) still on screen, not chained yet") }
        return .success(parts.joined(separator: ", "))
    }
}
