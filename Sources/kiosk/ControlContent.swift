import Foundation
import KioskCore

/// `kiosk ctl content`: the content fetcher's status (IPC's `kiosk-content`) as a few lines for a person. A member
/// the server does not give shows as `?`; nothing about the answer can make it fail.
enum ControlContent {
    /// The property read.
    static let property = "kiosk-content"

    /// The lines for the property's value (a JSON object as parsed).
    ///
    ///     url      https://cms.example/lobby.smil (signed)
    ///     checked  2026-05-01T10:00:00Z unchanged
    ///     fetched  2026-05-01T09:00:00Z, 3 media
    ///     cache    1.2 MiB of 100.0 MiB
    static func lines(_ value: Any?) -> String {
        let v = value as? [String: Any] ?? [:]
        func text(_ key: String) -> String? { (v[key] as? String).map(Log.escaped) }
        func number(_ key: String) -> Double? {
            guard let n = v[key] as? NSNumber, String(cString: n.objCType) != "c", n.doubleValue.isFinite else { return nil }
            return n.doubleValue
        }
        guard let url = text("url") else {
            return "url      none: kiosk plays local files (a remote's load of an http(s) URL plays content from a server)\n"
        }
        let signed = (v["signed"] as? NSNumber)?.boolValue == true ? " (signed)" : ""
        var out = "url      \(url)\(signed)\n"
        out += "checked  \(text("last-check") ?? "not yet") \(text("result") ?? "?")\n"
        if let problem = text("problem") { out += "problem  \(problem)\n" }
        let media = number("media").map { ", \(Int(saturating: $0, rounding: .towardZero)) media" } ?? ""
        out += "fetched  \(text("fetched") ?? "nothing yet")\(media)\n"
        let budget = number("cache-budget").map { " of \(mebibytes($0))" } ?? ""
        out += "cache    \(number("cache-bytes").map(mebibytes) ?? "?")\(budget)\n"
        return out
    }

    /// Bytes as MiB with one decimal.
    private static func mebibytes(_ bytes: Double) -> String { String(format: "%.1f MiB", bytes / 1_048_576) }
}
