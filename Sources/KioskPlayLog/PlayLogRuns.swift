import Foundation

/// The runs of kiosk that wrote the log (schema version 5, table `runs`): each start adds one, a clean stop closes
/// it. The writer holds showings in memory for a few seconds and writes them in one transaction (`PlayLogWriter`,
/// for the SD card's sake), so a power cut or a `kill -9` loses what it held; a run left unclosed tells the next
/// start so, and that start records the gap as a crash mark: a recorded break, which `kiosk report --verify` names
/// and does not count as an error (docs/proof-of-play.md, "Durability").
extension PlayLog {
    /// What an earlier run that ended without closing the log left: when it started and the last time the log has
    /// from it, and how many seconds of showings it held unwritten at most.
    public struct UncleanRun: Sendable, Equatable {
        /// When that run began (UTC text, as in the log).
        public let started: String
        /// The last time the log has from it: the latest end or heartbeat written (UTC text).
        public let lastWritten: String
        /// The seconds of showings its writer held before a write (`--play-log-batch`): what it can have lost.
        public let batch: Double
    }

    /// Begins this run (`batch`: its writer's seconds between writes); an earlier run that never closed the log is
    /// closed here as unclean, with a crash mark at the log's last row, and returned (the caller says it, once).
    func tryOpenRun(batch: Double) throws(SQLiteError) -> UncleanRun? {
        try writing { db throws(SQLiteError) -> UncleanRun? in
            try Self.transaction(db) { () throws(SQLiteError) -> UncleanRun? in
                var found: UncleanRun?
                let open = try db.query("SELECT id, started_utc, batch_s FROM runs WHERE ended_utc IS NULL ORDER BY id")
                if let last = open.last, let started = last[1].text {
                    // the rows a crash left open are closed by now (at their heartbeat): the last ends are the last writes
                    let row = try db.query("SELECT max(id), max(end_utc) FROM (SELECT id, end_utc FROM showings ORDER BY id DESC LIMIT 64)").first
                    let written = row?[1].text ?? started
                    let batch = last[2].real ?? 0
                    found = UncleanRun(started: started, lastWritten: written, batch: batch)
                    try db.query("UPDATE runs SET ended_utc = ?1, clean = 0 WHERE ended_utc IS NULL", [.text(written)])
                    if batch > 0 {
                        let seconds = Int(saturating: batch.rounded(.up))
                        let gap = """
                            kiosk's run from \(started) ended without closing the log after \(written), its last write: \
                            showings of up to \(seconds) s before it stopped were held to be written together and are not in the log
                            """
                        if let mark = crashMark {  // the same crash: one break, saying both
                            try db.query("UPDATE chain_marks SET note = note || '; ' || ?2 WHERE id = ?1", [.int(mark), .text(gap)])
                        } else {
                            try PlayLogMarks.add(db, row: row?[0].int ?? 0, kind: .crash, at: now(), previous: nil,
                                                 note: "a crash or a power cut: " + gap)
                        }
                    }
                }
                crashMark = nil
                try db.query("INSERT INTO runs (started_utc, batch_s) VALUES (?1, ?2)", [.text(Self.timestamp(now())), .real(batch)])
                runID = db.lastInsertID
                return found
            }
        }
    }

    /// Closes this run: the log was written to the end (a clean stop).
    func tryCloseRun() throws(SQLiteError) {
        guard let runID else { return }
        try writing { db throws(SQLiteError) in
            try db.query("UPDATE runs SET ended_utc = ?2, clean = 1 WHERE id = ?1", [.int(runID), .text(Self.timestamp(now()))])
        }
        self.runID = nil
    }

    /// Runs `body`, the writes of one batch, in one transaction: each page they touch is written once, however
    /// many rows changed on it. Rolled back whole when it throws.
    func tryBatch(_ body: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        try writing { db throws(SQLiteError) in
            try Self.transaction(db) { () throws(SQLiteError) in try body() }
        }
    }
}
