import Foundation

/// Retention on a chained log: old rows are removed only from the chain's start (its first places), so what stays
/// is one unbroken chain from a `pruned` mark that holds the last removed place's chain.
enum PlayLogRetention {
    /// Removes the chain's first places up to (not including) the first row that ended at or after `endedBefore`
    /// (a `PlayLog.timestamp`), always keeping the last place; rows still open are never removed. The signatures of
    /// removed rows go with them, and a `pruned` mark continues the chain. How many rows went. In the caller's
    /// transaction.
    static func removeChainStart(_ db: SQLiteDatabase, endedBefore: String, now: Date) throws(SQLiteError) -> Int {
        guard let head = try PlayLogChain.head(db) else { return 0 }
        let keep = try db.query("""
            SELECT min(chain_seq) FROM showings WHERE chain_seq IS NOT NULL AND end_utc >= ?1
            """, [.text(endedBefore)]).first?.first?.int
        let last = min(keep.map { $0 - 1 } ?? head.seq, head.seq - 1)
        guard try db.query("SELECT id FROM showings WHERE chain_seq = ?1", [.int(last)]).first != nil,
              let chain = try PlayLogChain.full(db, at: last) else { return 0 }
        let counted = try db.query("SELECT count(*), max(id) FROM showings WHERE chain_seq <= ?1", [.int(last)]).first ?? []
        let n = counted.first?.int ?? 0
        try db.query("DELETE FROM showings WHERE chain_seq <= ?1", [.int(last)])
        try db.query("DELETE FROM signatures WHERE row_id NOT IN (SELECT id FROM showings)")
        try db.query("DELETE FROM chain_marks WHERE kind IN ('start', 'pruned') OR row_id NOT IN (SELECT id FROM showings)")
        try PlayLogMarks.add(db, row: counted.last?.int ?? 0, kind: .pruned, at: now, seq: last + 1, previous: chain,
                             note: "\(n) showing\(n == 1 ? "" : "s") ended before \(endedBefore) removed by retention")
        return Int(n)
    }
}
