import Foundation
import KioskCore

/// `kiosk report`: the play log's showings counted and their seconds on screen summed per item, hour, day,
/// region, screen or verdict, between two times, as a table, CSV, JSON or Xibo's stats XML. The log is opened
/// read-only (a WAL reader: the player writing it is never held up). Only showings whose verdict is `seen` are
/// counted unless asked otherwise (`VerdictFilter`); a row from before proof of display (no verdict) counts as `seen`,
/// as it always did.
public enum PlayLogReport {
    /// How showings are grouped.
    public enum Grouping: String, CaseIterable, Sendable {
        case item, hour, day, region, screen, verdict

        /// The SQL of a group's key (hours and days in UTC, as the log keeps its times).
        var key: String {
            switch self {
            case .item: "path"
            case .hour: "substr(start_utc, 1, 13) || ':00Z'"
            case .day: "substr(start_utc, 1, 10)"
            case .region: "COALESCE(layout || ':', '') || region"
            case .screen: "screen"
            case .verdict: "COALESCE(verdict, 'seen')"
            }
        }
    }

    /// How the report is written.
    public enum Format: String, CaseIterable, Sendable {
        case table, csv, json, xibo
    }

    /// One group's figures.
    public struct Row: Sendable, Equatable {
        public var group: String
        /// For Xibo: the item, when the group is a period.
        public var item: String
        public var count: Int
        /// Seconds on screen, summed.
        public var seconds: Double
        /// The first showing's start and the last one's end (UTC, ISO 8601 with milliseconds).
        public var first: String
        public var last: String
    }

    /// The groups of the showings that ended, started at or after `since` and before `until`, in the log at `path`,
    /// of the verdicts `verdicts` lets through (by default only `seen`).
    public static func rows(path: String, since: Date?, until: Date?, by: Grouping, perItem: Bool = false,
                            verdicts: VerdictFilter = .seen) throws(SQLiteError) -> [Row] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw SQLiteError(description: "\(path): no such file", code: 14)
        }
        let db = try SQLiteDatabase(path: path, readOnly: true)
        guard try db.query("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'showings'").first?.first?.int == 1 else {
            throw SQLiteError(path: path, reason: "is a SQLite database but not a play log (it has no showings)", code: 1)
        }
        // a log no player of this version has opened yet has no screen column: its rows were all on `main`
        let hasScreens = try db.query("SELECT count(*) FROM pragma_table_info('showings') WHERE name = 'screen'").first?.first?.int == 1
        // nor a verdict column: its rows count as seen
        let hasVerdicts = try db.query("SELECT count(*) FROM pragma_table_info('showings') WHERE name = 'verdict'").first?.first?.int == 1
        let rows = try db.query(query(by: by, perItem: perItem, screens: hasScreens, verdicts: hasVerdicts ? verdicts : .all),
                                [.text(since.map(PlayLog.timestamp) ?? ""), .text(until.map(PlayLog.timestamp) ?? "9999")]
                                    + (hasVerdicts ? verdicts.values : []))
            .filter { _ in hasVerdicts || verdicts.admits(.seen) }
        return rows.map { r in
            Row(group: r[0].text ?? "", item: r[1].text ?? "", count: Int(r[2].int ?? 0), seconds: r[3].real ?? 0,
                first: r[4].text ?? "", last: r[5].text ?? "")
        }
    }

    /// The SQL of a report (`?1` and `?2` the bounds of the showings' starts): the groups' key, the item with it
    /// when `perItem`, the count, the seconds, the first start and the last end.
    /// `verdicts`: those counted (`?3`: the one verdict, when it names one).
    static func query(by: Grouping, perItem: Bool, screens: Bool = true, verdicts: VerdictFilter = .seen) -> String {
        let perItem = perItem && by != .item
        // By day the rows are read in showings_by_day's order (its key is the group's): the bounds are then
        // filters (`+`), so that SQLite does not take showings_by_start for them and sort what it finds.
        let start = by == .day ? "+start_utc" : "start_utc"
        return """
            SELECT \(by == .screen && !screens ? "'main'" : by.key) AS g, \(perItem ? "path" : "''") AS i, count(*), total(duration), min(start_utc), max(end_utc)
            FROM showings
            WHERE end_utc IS NOT NULL AND \(start) >= ?1 AND \(start) < ?2\(verdicts.condition)
            GROUP BY g\(perItem ? ", i" : "") ORDER BY g\(perItem ? ", i" : "")
            """
    }

    /// The report of `rows` grouped `by`, written as `format`.
    public static func render(_ rows: [Row], by: Grouping, format: Format) -> String {
        switch format {
        case .table:
            let head = [by.rawValue, "showings", "seconds"]
            let body = rows.map { [$0.group, String($0.count), String(format: "%.3f", $0.seconds)] }
            let widths = (0..<3).map { c in ([head] + body).map { $0[c].count }.max() ?? 0 }
            func line(_ cells: [String]) -> String {
                cells[0].padding(toLength: widths[0], withPad: " ", startingAt: 0) + "  "
                    + String(repeating: " ", count: widths[1] - cells[1].count) + cells[1] + "  "
                    + String(repeating: " ", count: widths[2] - cells[2].count) + cells[2]
            }
            let total = [["total", String(rows.map(\.count).reduce(0, +)), String(format: "%.3f", rows.map(\.seconds).reduce(0, +))]]
            return ([head] + body + total).map(line).joined(separator: "\n") + "\n"
        case .csv:
            return "\(by.rawValue),showings,seconds,first,last\n" + rows.map {
                "\(csv($0.group)),\($0.count),\(String(format: "%.3f", $0.seconds)),\($0.first),\($0.last)"
            }.joined(separator: "\n") + (rows.isEmpty ? "" : "\n")
        case .json:
            let items: [JSONValue] = rows.map {
                .object([(by.rawValue, .string($0.group)), ("showings", .int(Int64($0.count))), ("seconds", .double($0.seconds)),
                         ("first", .string($0.first)), ("last", .string($0.last))])
            }
            return JSONValue.array(items).text + "\n"
        case .xibo:
            // Xibo's stats (XMDS SubmitStats): one <stat type="media"> per item (and period), its times local-less
            // "YYYY-MM-DD HH:MM:SS" in UTC, the count of showings and the whole seconds on screen
            func when(_ t: String) -> String { String(t.prefix(19)).replacingOccurrences(of: "T", with: " ") }
            let stats = rows.map { r in
                let media = by == .item ? r.group : r.item
                return "  <stat type=\"media\" fromdt=\"\(when(r.first))\" todt=\"\(when(r.last))\" scheduleid=\"0\" layoutid=\"0\" "
                    + "mediaid=\"\(xml(media))\" tag=\"\" count=\"\(r.count)\" duration=\"\(Int(saturating: r.seconds))\"/>"
            }
            return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<stats>\n" + stats.map { $0 + "\n" }.joined() + "</stats>\n"
        }
    }

    private static func csv(_ s: String) -> String {
        s.contains(where: { ",\"\n".contains($0) }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }

    private static func xml(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
