import Foundation

/// Retention on a chained log: old rows are removed only from the chain's start, so what stays is one unbroken
/// chain from a `pruned` mark that holds the last removed row's chain.
enum PlayLogRetention {
    /// Removes the rows from the start of the log up to (not including) the first that is open, not chained, or
    /// ended at or after `endedBefore` (a `PlayLog.timestamp`), and always keeps the last row (new rows' ids follow
    /// it). The signatures and marks of removed rows go with them; a `pruned` mark at the first row kept continues
    /// the chain. How many rows went. In the caller's transaction.
    static func removeChainStart(_ db: SQLiteDatabase, endedBefore: String, now: Date) throws(SQLiteError) -> Int {
        guard let newest = try db.query("SELECT max(id) FROM showings").first?.first?.int else { return 0 }
        let keep = try db.query("""
            SELECT min(id) FROM showings WHERE end_utc IS NULL OR end_utc >= ?1 OR chain IS NULL
            """, [.text(endedBefore)]).first?.first?.int
        let last = min(keep.map { $0 - 1 } ?? newest, newest - 1)
        guard let chain = try db.query("SELECT chain FROM showings WHERE id = ?1", [.int(last)]).first?.first?.text else { return 0 }
        let n = try db.query("SELECT count(*) FROM showings WHERE id <= ?1", [.int(last)]).first?.first?.int ?? 0
        try db.query("DELETE FROM showings WHERE id <= ?1", [.int(last)])
        try db.query("DELETE FROM signatures WHERE row_id <= ?1", [.int(last)])
        try db.query("DELETE FROM chain_marks WHERE row_id <= ?1", [.int(last)])
        try PlayLogMarks.add(db, row: last + 1, kind: .pruned, at: now, previous: chain,
                             note: "\(n) showing\(n == 1 ? "" : "s") ended before \(endedBefore) removed by retention")
        return Int(n)
    }
}
