import Foundation
import KioskCore

/// `kiosk ctl status`: one line for a person, built from a few properties. A property the server does not have
/// (or cannot give now) shows as `?`; nothing about the answer can make it fail.
enum ControlStatus {
    /// The properties the line is made of, read in this order.
    static let properties = ["playlist-pos", "playlist-count", "path", "pause", "time-pos", "duration", "idle-active", "cec-power"]

    /// `playing 2/5 /srv/a.jpg 3.2/10.0 s`, `paused 2/5 …`, or `idle` (with how many items wait when some do),
    /// from the values that could be read (by property name); `, TV standby` after it with HDMI-CEC.
    static func line(_ values: [String: Any]) -> String {
        let tv = (values["cec-power"] as? String).map { ", TV \(Log.escaped($0))" } ?? ""
        return playback(values) + tv
    }

    private static func playback(_ values: [String: Any]) -> String {
        let count = integer(values["playlist-count"])
        if bool(values["idle-active"]) == true {
            guard let count, count > 0 else { return "idle" }
            return "idle (\(count) in the playlist)"
        }
        let state = bool(values["pause"]).map { $0 ? "paused" : "playing" } ?? "?"
        let position = integer(values["playlist-pos"]).flatMap { $0 >= 0 ? String($0 + 1) : nil } ?? "?"
        let path = (values["path"] as? String).map(Log.escaped) ?? "?"
        return "\(state) \(position)/\(count.map(String.init) ?? "?") \(path) \(seconds(values["time-pos"]))/\(seconds(values["duration"])) s"
    }

    /// A JSON true or false (not a number).
    private static func bool(_ value: Any?) -> Bool? {
        guard let number = value as? NSNumber, isBoolean(number) else { return nil }
        return number.boolValue
    }

    /// A JSON whole number (not a boolean).
    private static func integer(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        let d = number.doubleValue
        return d.isFinite && d == d.rounded() && abs(d) < 1e15 ? Int(saturating: d, rounding: .towardZero) : nil
    }

    /// Seconds with one decimal, or `?`.
    private static func seconds(_ value: Any?) -> String {
        guard let number = value as? NSNumber, !isBoolean(number), number.doubleValue.isFinite else { return "?" }
        return String(format: "%.1f", number.doubleValue)
    }

    /// Whether a parsed JSON number is really `true` or `false` (JSONSerialization gives both as NSNumber).
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"  // a parsed number is "i", "q" or "d"
    }
}
