import Foundation
import KioskCore

/// The play log's closed showings past a report cursor, for reports to a server: read through a read-only
/// connection opened for each read (a WAL reader: the player writing the log is never held up), in one read
/// transaction, so the showings, the first one still open and the highest id are of one instant.
public struct PlayLogShowings: ShowingSource {
    /// The play log file.
    public let path: String

    /// The showings of the log at `path`.
    public init(path: String) { self.path = path }

    /// See `ShowingSource`. A log that is not there (yet) is an empty one.
    public func window(after: Int64, skipping: [ClosedRange<Int64>], limit: Int, mark: Int64?) throws(ShowingReadError) -> ShowingWindow {
        guard FileManager.default.fileExists(atPath: path) else { return ShowingWindow(records: [], firstOpen: nil, lastID: nil, markStart: nil) }
        do throws(SQLiteError) {
            return try read(after: after, skipping: skipping, limit: limit, mark: mark)
        } catch {
            throw ShowingReadError("play log: \(error.description)")
        }
    }

    /// The closed showings with an id above `after`, by id, at most `limit` (none still on screen).
    public func closed(after: Int64, limit: Int) throws(ShowingReadError) -> [ShowingRecord] {
        try window(after: after, skipping: [], limit: limit, mark: nil).records
    }

    private func read(after: Int64, skipping: [ClosedRange<Int64>], limit: Int, mark: Int64?) throws(SQLiteError) -> ShowingWindow {
        let db = try SQLiteDatabase(path: path, readOnly: true)
        guard try db.query("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'showings'").first?.first?.int == 1 else {
            throw SQLiteError(path: path, reason: "is a SQLite database but not a play log (it has no showings)", code: 1)
        }
        try db.execute("BEGIN")
        defer { try? db.execute("COMMIT") }
        var values: [SQLiteDatabase.Value] = [.int(after), .int(Int64(max(0, limit)))]
        var skips = ""
        for range in skipping {
            skips += " AND NOT (id BETWEEN ?\(values.count + 1) AND ?\(values.count + 2))"
            values += [.int(range.lowerBound), .int(range.upperBound)]
        }
        // a log no player of this version has opened yet has no screen column: its rows were all on `main`
        let hasScreens = try db.query("SELECT count(*) FROM pragma_table_info('showings') WHERE name = 'screen'").first?.first?.int == 1
        let rows = try db.query("""
            SELECT id, start_utc, end_utc, duration, path, kind, region, layout, element, reason, screen_on, \(hasScreens ? "screen" : "'main'")
            FROM showings WHERE id > ?1 AND end_utc IS NOT NULL\(skips) ORDER BY id LIMIT ?2
            """, values)
        let records = rows.compactMap { r -> ShowingRecord? in
            guard r.count == 12, let id = r[0].int, let start = r[1].text, let end = r[2].text else { return nil }
            return ShowingRecord(id: id, start: start, end: end, duration: r[3].real, path: r[4].text ?? "", kind: r[5].text ?? "",
                                 region: r[6].text ?? "main", layout: r[7].text, element: r[8].text, reason: r[9].text,
                                 screenOn: (r[10].int ?? 1) != 0, screen: r[11].text ?? "main")
        }
        let firstOpen = try db.query("SELECT min(id) FROM showings WHERE end_utc IS NULL AND id > ?1", [.int(after)]).first?.first?.int
        let lastID = try db.query("SELECT max(id) FROM showings").first?.first?.int
        let markStart = try mark.flatMap { id throws(SQLiteError) in
            try db.query("SELECT start_utc FROM showings WHERE id = ?1", [.int(id)]).first?.first?.text
        }
        return ShowingWindow(records: records, firstOpen: firstOpen, lastID: lastID, markStart: markStart)
    }
}

extension PlayLog {
    /// The closed showings of this log with an id above `id`, by id, at most `limit`, read through a connection of
    /// their own (see `PlayLogShowings`).
    public func showings(after id: Int64, limit: Int) throws(ShowingReadError) -> [ShowingRecord] {
        try PlayLogShowings(path: path).closed(after: id, limit: limit)
    }
}
