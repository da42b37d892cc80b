import Foundation

/// The chain's recorded events, in the `chain_marks` table: where the chain starts (a new log, or an older log
/// chained at its migration), where retention removed the rows before, and where a crash or power cut left rows
/// open that the next start closed. A mark explains the chain; it is not part of it.
enum PlayLogMarks {
    /// What a mark records.
    enum Kind: String {
        /// The chain starts at this row (from `previous`, 64 zeros).
        case start
        /// Retention removed the chain's places before `seq` (rows up to this row id); it continues from `previous`.
        case pruned
        /// A crash or power cut left showings open from this row on; the next start closed them at their last
        /// heartbeat (a recorded break: the rows are chained as they were closed).
        case crash
    }

    /// Records a mark at row `row` (for `start` and `pruned`: the chain's first place `seq`, continuing from `previous`).
    static func add(_ db: SQLiteDatabase, row: Int64, kind: Kind, at time: Date, seq: Int64? = nil, previous: String?,
                    note: String) throws(SQLiteError) {
        try db.query("INSERT INTO chain_marks (row_id, kind, time_utc, seq, previous, note) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                     [.int(row), .text(kind.rawValue), .text(PlayLog.timestamp(time)), seq.map { .int($0) } ?? .null,
                      previous.map { .text($0) } ?? .null, .text(note)])
    }

    /// Where the chain starts now: the last start or pruned mark's first place and what it continues from.
    static func anchor(_ db: SQLiteDatabase) throws(SQLiteError) -> (seq: Int64, previous: String, row: Int64, kind: String, note: String)? {
        guard let m = try db.query("""
            SELECT seq, previous, row_id, kind, note FROM chain_marks WHERE kind IN ('start', 'pruned') ORDER BY id DESC LIMIT 1
            """).first, let seq = m[0].int, let previous = m[1].text, let row = m[2].int, let kind = m[3].text else { return nil }
        return (seq, previous, row, kind, m[4].text ?? "")
    }
}
