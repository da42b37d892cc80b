import Foundation

/// When one playlist item may play, from its `#EXTKIOSK:` line: `days=mon-fri,from=09:00,to=17:30,
/// start=2026-12-24,end=2027-01-02`, every key optional. Without `from` the window opens at 00:00, without `to`
/// it closes at 24:00; `to` before `from` crosses midnight. Days and dates apply to the day the window opens on,
/// as in a schedule file, and daylight-saving changes follow `LocalClock`'s rule.
public struct ItemWindow: Sendable, Hashable {
    /// The keys it reads from an `#EXTKIOSK:` line.
    public static let keys = ["days", "from", "to", "start", "end"]

    /// The recurring window it stands for.
    public var window: RecurringWindow

    /// An item window of `window`.
    public init(window: RecurringWindow) { self.window = window }

    /// Parses the window's `key=value` pairs, separated by commas; a `days` list may go on after a comma
    /// (`days=sat,sun,from=10:00`). Throws for a key it does not know; the error names the key or value.
    public init(parsing text: String) throws(FieldError) {
        var values: [String: String] = [:]
        for (key, value) in try Self.pairs(text) {
            guard Self.keys.contains(key) else {
                throw FieldError("unknown key '\(key)' (known: \(Self.keys.joined(separator: ", ")))")
            }
            values[key] = value
        }
        self = try Self.make(values)
    }

    /// Splits an `#EXTKIOSK:` payload (the text after the tag) into the item's window, nil when the payload has
    /// none of `keys`, and the rest of the pairs joined with commas, for `ProjectionOverride(parsing:)`. The
    /// error is one line naming the key and value; the playlist reader logs it and skips the line, as it does
    /// for projection keys. Wiring it is one call: `let (window, rest) = try ItemWindow.split(payload:)`.
    public static func split(payload: String) throws(FieldError) -> (window: ItemWindow?, rest: String) {
        var values: [String: String] = [:]
        var rest: [String] = []
        for (key, value) in try pairs(payload) {
            if keys.contains(key) { values[key] = value } else { rest.append("\(key)=\(value)") }
        }
        return (values.isEmpty ? nil : try make(values), rest.joined(separator: ","))
    }

    /// Whether the item may play at `date` in `timeZone`.
    public func contains(_ date: Date, timeZone: TimeZone) -> Bool { window.contains(date, in: timeZone) }

    /// The first instant after `date` at which `contains` changes, or nil when it never does.
    public func nextChange(after date: Date, timeZone: TimeZone) -> Date? {
        RecurringWindow.nextChange(after: date, of: [window], in: timeZone) { $0 != nil }
    }

    /// The window from the values of its keys.
    static func make(_ values: [String: String]) throws(FieldError) -> ItemWindow {
        var days = WeekdaySet.all
        if let d = values["days"] {
            switch WeekdaySet.parse(d) {
            case .success(let s): days = s
            case .failure(let e): throw FieldError("days: \(e)")
            }
        }
        func minutes(_ key: String, default value: Int) throws(FieldError) -> Int {
            guard let text = values[key] else { return value }
            guard let m = DailyWindow.minutes(text), key == "to" || m < 1440 else {
                throw FieldError("\(key): '\(text)' is not a time HH:MM\(key == "to" ? " (00:00 to 24:00)" : " (00:00 to 23:59)")")
            }
            return m
        }
        func date(_ key: String) throws(FieldError) -> CivilDate? {
            guard let text = values[key] else { return nil }
            guard let d = CivilDate(parsing: text) else { throw FieldError("\(key): '\(text)' is not a real day as YYYY-MM-DD") }
            return d
        }
        let time: DailyWindow
        switch DailyWindow.make(start: try minutes("from", default: 0), end: try minutes("to", default: 1440)) {
        case .success(let w): time = w
        case .failure(let e): throw FieldError("from/to: \(e)")
        }
        let dates: DateSpan
        switch DateSpan.make(first: try date("start"), last: try date("end")) {
        case .success(let s): dates = s
        case .failure(let e): throw FieldError("start/end: \(e)")
        }
        return ItemWindow(window: RecurringWindow(days: days, time: time, dates: dates))
    }

    /// The `key=value` pairs of `text` in order; a piece without `=` after a `days` pair continues its list.
    static func pairs(_ text: String) throws(FieldError) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        for piece in text.split(separator: ",") {
            let kv = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if kv.count == 1, let last = pairs.last, last.key == "days", !kv[0].isEmpty {
                pairs[pairs.count - 1].value += "," + kv[0]
                continue
            }
            guard kv.count == 2, !kv[0].isEmpty, !kv[1].isEmpty else { throw FieldError("'\(piece)' is not key=value") }
            pairs.append((kv[0], kv[1]))
        }
        return pairs
    }
}
