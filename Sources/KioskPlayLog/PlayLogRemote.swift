import Foundation
import KioskCore

/// The play log read for the remotes (`PlayReports`): IPC's `play-report` and MQTT's `stats`, each through a
/// read-only connection opened for the one report.
public enum PlayLogRemote {
    /// Serves `reports` from the log at `path`; today is the local day in `zone`.
    public static func connect(_ reports: PlayReports, path: String, zone: TimeZone) {
        reports.connect(report: { query throws(PlayReportRefusal) in
            guard let by = PlayLogReport.Grouping(rawValue: query.by) else { throw PlayReportRefusal("'\(query.by)' is not item, hour, day, region, screen or verdict") }
            guard let format = PlayLogReport.Format(rawValue: query.format) else {
                throw PlayReportRefusal("'\(query.format)' is not table, csv, json or xibo")
            }
            guard let verdicts = PlayLogReport.VerdictFilter(name: query.verdict) else { throw PlayReportRefusal("'\(query.verdict)' is not a verdict") }
            if format == .xibo, verdicts != .seen { throw PlayReportRefusal("the xibo format counts only seen showings") }
            do throws(SQLiteError) {
                let rows = try PlayLogReport.rows(path: path, since: query.since, until: query.until, by: by, perItem: format == .xibo, verdicts: verdicts)
                guard format == .table else { return PlayLogReport.render(rows, by: by, format: format) }
                return PlayLogReport.render(rows, by: by, format: format)
                    + PlayLogReport.leftOutLine(try PlayLogReport.leftOut(path: path, since: query.since, until: query.until, verdicts: verdicts))
            } catch {
                throw PlayReportRefusal("play log: \(error.description)")
            }
        }, today: { now throws(PlayReportRefusal) in
            do throws(SQLiteError) { return try today(path: path, at: now, zone: zone) } catch { throw PlayReportRefusal("play log: \(error.description)") }
        }, zone: zone)
    }

    /// Today's figures as of `now` (the showings that started since local midnight in `zone` and have ended):
    /// `{"day", "timezone", "showings", "seconds", "items": [{"item", "showings", "seconds"}], "hours": [{"hour", …}],
    /// "as_of"}`, hours in UTC as `kiosk report --by hour` gives them. Every showing counts, whatever its verdict,
    /// as in the status's figures for today (`kiosk report` counts the seen ones).
    public static func today(path: String, at now: Date, zone: TimeZone) throws(SQLiteError) -> JSONValue {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let midnight = calendar.startOfDay(for: now)
        let items = try PlayLogReport.rows(path: path, since: midnight, until: nil, by: .item, verdicts: .all)
        let hours = try PlayLogReport.rows(path: path, since: midnight, until: nil, by: .hour, verdicts: .all)
        func groups(_ rows: [PlayLogReport.Row], _ key: String) -> JSONValue {
            .array(rows.map { .object([(key, .string($0.group)), ("showings", .int(Int64($0.count))), ("seconds", .double(rounded($0.seconds)))]) })
        }
        let c = calendar.dateComponents([.year, .month, .day], from: midnight)
        let day = String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
        return .object([
            ("day", .string(day)), ("timezone", .string(zone.identifier)),
            ("showings", .int(Int64(items.map(\.count).reduce(0, +)))),
            ("seconds", .double(rounded(items.map(\.seconds).reduce(0, +)))),
            ("items", groups(items, "item")), ("hours", groups(hours, "hour")),
            ("as_of", .string(PlayLog.timestamp(now))),
        ])
    }

    /// Milliseconds, as the log keeps them.
    private static func rounded(_ s: Double) -> Double { (s * 1000).rounded() / 1000 }
}
