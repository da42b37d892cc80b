import Foundation

/// The chain's recorded events, in the `chain_marks` table: where the chain starts (a new log, or an older log
/// chained at its migration), where retention removed the rows before, and where a crash or power cut left rows
/// open that the next start closed. A mark explains the chain; it is not part of it.
enum PlayLogMarks {
    /// What a mark records.
    enum Kind: String {
        /// The chain starts at this row (from `previous`, 64 zeros).
        case start
        /// Retention removed the rows before this one; it continues from `previous`, the last removed row's chain.
        case pruned
        /// A crash or power cut left showings open from this row on; the next start closed them at their last
        /// heartbeat (a recorded break: the rows are chained as they were closed).
        case crash
    }

    /// Records a mark at row `row`.
    static func add(_ db: SQLiteDatabase, row: Int64, kind: Kind, at time: Date, previous: String?, note: String) throws(SQLiteError) {
        try db.query("INSERT INTO chain_marks (row_id, kind, time_utc, previous, note) VALUES (?1, ?2, ?3, ?4, ?5)",
                     [.int(row), .text(kind.rawValue), .text(PlayLog.timestamp(time)), previous.map { .text($0) } ?? .null, .text(note)])
    }
}
