import Foundation
import KioskCore

/// The reports page: showings per day (the last 30 days) and per item (the 20 most shown) as SVG bar charts drawn
/// here from the play log (no script, no library), with CSV downloads of both: the showings that were seen (proof of
/// display, docs/proof-of-play.md); and every showing of the 30 days by its verdict, so that those not seen show.
enum WebReportPage {
    static func body(_ reports: PlayReports) -> String {
        guard reports.available else {
            return "<h1>Reports</h1><p>There is no play log (kiosk runs with <code>--no-play-log</code>, or without a state folder).</p>"
        }
        let since = Date().addingTimeInterval(-30 * 86_400)
        let days = rows(reports, PlayReportQuery(by: "day", format: "json", since: since), key: "day")
        let items = rows(reports, PlayReportQuery(by: "item", format: "json", since: since), key: "item")
            .sorted { $0.count > $1.count }.prefix(20)
        let verdicts = rows(reports, PlayReportQuery(by: "verdict", format: "json", since: since, verdict: "all"), key: "verdict")
        let from = PlayReportQuery.text(since)
        return """
            <h1>Reports</h1>
            <h2>Showings per day, the last 30 days</h2>
            \(chart(days.map { ($0.label, $0.count, $0.seconds) }, labelWidth: 90, id: "chart-days"))
            <p><a href="/api/report?by=day&amp;format=csv&amp;since=\(from)" download>Download CSV (per day)</a></p>
            <h2>Showings per item, the last 30 days</h2>
            \(chart(items.map { (($0.label as NSString).lastPathComponent, $0.count, $0.seconds) }, labelWidth: 220, id: "chart-items"))
            <p><a href="/api/report?by=item&amp;format=csv&amp;since=\(from)" download>Download CSV (per item)</a></p>
            <h2>Every showing by verdict, the last 30 days</h2>
            <p>Only <em>seen</em> showings (a display connected and on) are counted above.</p>
            \(chart(verdicts.map { ($0.label, $0.count, $0.seconds) }, labelWidth: 120, id: "chart-verdicts"))
            """
    }

    private static func rows(_ reports: PlayReports, _ q: PlayReportQuery, key: String) -> [(label: String, count: Int, seconds: Double)] {
        guard let text = try? reports.report(q), let json = try? JSONValue.parse(Array(text.utf8)), case .array(let rows) = json else { return [] }
        return rows.compactMap { r in
            guard let label = r[key]?.string, case .int(let n)? = r["showings"] else { return nil }
            return (label, Int(n), r["seconds"]?.number ?? 0)
        }
    }

    /// Horizontal bars, one per row: the label, a bar as long as its share of the largest count, the count and hours.
    static func chart(_ rows: [(String, Int, Double)], labelWidth: Int, id: String) -> String {
        guard !rows.isEmpty else { return "<p>No showings yet.</p>" }
        let barWidth = 360, rowHeight = 22, width = labelWidth + barWidth + 130
        let most = max(1, rows.map(\.1).max() ?? 1)
        var svg = "<svg id=\"\(id)\" class=\"chart\" role=\"img\" viewBox=\"0 0 \(width) \(rows.count * rowHeight + 4)\" "
            + "width=\"100%\" preserveAspectRatio=\"xMinYMin meet\" xmlns=\"http://www.w3.org/2000/svg\">"
        for (i, row) in rows.enumerated() {
            let y = i * rowHeight + 2
            let w = max(1, row.1 * barWidth / most)
            svg += "<text x=\"\(labelWidth - 6)\" y=\(quote(y + 15)) text-anchor=\"end\" font-size=\"13\">\(WebPages.escape(String(row.0.prefix(40))))</text>"
            svg += "<rect class=\"bar\" x=\"\(labelWidth)\" y=\(quote(y + 3)) width=\(quote(w)) height=\"16\" fill=\"#2b6cb0\"><title>\(row.1) showings</title></rect>"
            svg += "<text x=\(quote(labelWidth + w + 6)) y=\(quote(y + 15)) font-size=\"13\">\(row.1) · \(String(format: "%.1f", row.2 / 3600)) h</text>"
        }
        return svg + "</svg>"
    }

    private static func quote(_ n: Int) -> String { "\"\(n)\"" }
}
