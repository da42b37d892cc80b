import Foundation
import KioskCore

/// `kiosk ctl health`: the health readings (IPC's `kiosk-health`) as a table for a person: one row per reading with
/// its value, unit and the time it was read, then the displays, then the health alerts that hold. A member the server does not give shows as `?`;
/// nothing about the answer can make it fail.
enum ControlHealth {
    /// The property read.
    static let property = "kiosk-health"

    /// The table for the property's value (a JSON object as parsed).
    ///
    ///     health as read 2026-05-01T10:00:00Z
    ///     READING           OF                          VALUE             READ AT
    ///     temperature       thermal_zone0 x86_pkg_temp  45.0 °C           2026-05-01T10:00:00Z
    ///     free-space        cache /var/lib/kiosk/cont…  12.3 GiB          2026-05-01T10:00:00Z
    ///     DISPLAYS
    ///     main  HDMI-A-1  connected  DEL product 41153 serial 12345 "DELL U2415"
    ///     ALERTS
    ///       storage-low  cache /var/lib/kiosk/content  since 2026-05-01T09:58:00Z  free space 4.2 % is below 10 %
    static func table(_ value: Any?) -> String {
        let v = value as? [String: Any] ?? [:]
        var rows: [[String]] = [["READING", "OF", "VALUE", "READ AT"]]
        for case let r as [String: Any] in v["readings"] as? [Any] ?? [] {
            let note = text(r["note"]).map { " (\($0))" } ?? ""
            rows.append([text(r["name"]) ?? "?", text(r["subject"]) ?? "", shown(r["value"], unit: text(r["unit"]) ?? "") + note,
                         text(r["time"]) ?? "?"])
        }
        var out = "health as read \(text(v["time"]) ?? "?")\n" + aligned(rows)
        out += "DISPLAYS\n"
        let displays = (v["displays"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        if displays.isEmpty { out += "  none reported\n" }
        for d in displays {
            var line = "  \(text(d["screen"]) ?? "?")  \(text(d["connector"]) ?? "?")  \(text(d["state"]) ?? "?")"
            if let m = d["monitor"] as? [String: Any] {
                line += "  \(text(m["manufacturer"]) ?? "?") product \(shown(m["product"], unit: "")) serial \(shown(m["serial"], unit: ""))"
                if let s = text(m["serial-text"]) { line += " (\(s))" }
                if let n = text(m["name"]) { line += " \"\(n)\"" }
            }
            if let note = text(d["note"]) { line += "  (\(note))" }
            out += line + "\n"
        }
        out += "ALERTS\n"
        let alerts = (v["alerts"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        if alerts.isEmpty { out += "  none\n" }
        for a in alerts {
            out += "  \(text(a["kind"]) ?? "?")  \(text(a["subject"]) ?? "?")  since \(text(a["since"]) ?? "?")  \(text(a["message"]) ?? "")\n"
        }
        return out
    }

    /// Columns padded to their widest cell (the last left as it is).
    private static func aligned(_ rows: [[String]]) -> String {
        let widths = (0..<4).map { i in rows.map { $0[i].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(toLength: widths[i] + 2, withPad: " ", startingAt: 0) }
                .joined()
        }.joined(separator: "\n") + "\n"
    }

    /// A string member, escaped for a terminal.
    private static func text(_ value: Any?) -> String? { (value as? String).map(Log.escaped) }

    /// A value with its unit: bytes in KiB/MiB/GiB, seconds with hours and minutes, others as they are.
    private static func shown(_ value: Any?, unit: String) -> String {
        if let s = value as? String { return Log.escaped(s) }
        guard let n = value as? NSNumber, String(cString: n.objCType) != "c", n.doubleValue.isFinite else { return "?" }
        let d = n.doubleValue
        switch unit {
        case "bytes":
            for (size, name) in [(1_099_511_627_776.0, "TiB"), (1_073_741_824.0, "GiB"), (1_048_576.0, "MiB"), (1024.0, "KiB")] where d >= size {
                return String(format: "%.1f %@", d / size, name)
            }
            return String(format: "%.0f bytes", d)
        case "s":
            let whole = Int(saturating: d, rounding: .towardZero)
            return whole >= 60 ? "\(whole) s (\(whole / 3600) h \(whole / 60 % 60) min)" : "\(whole) s"
        case "", "count": return d == d.rounded() && abs(d) < 1e15 ? String(Int(saturating: d, rounding: .towardZero)) : String(d)
        default:
            let number = d == d.rounded() && abs(d) < 1e15 ? String(Int(saturating: d, rounding: .towardZero)) : String(format: "%.1f", d)
            return "\(number) \(unit)"
        }
    }
}
