import Foundation

/// The on-screen clock's format (`--clock FORMAT`): `CaptionDateFormat`'s strftime subset with English names
/// (`%H:%M`, `%a %e %b %H:%M`), plus `%T` (`%H:%M:%S`) and `%R` (`%H:%M`). It reads the player's wall clock in
/// a time zone, so `--start-time` and `--timezone` move it too.
public struct ClockFormat: Sendable, Equatable {
    /// The format as written.
    public let source: String
    /// The format with `%T` and `%R` written out.
    let format: CaptionDateFormat
    /// Whether it shows seconds (`%S`, `%T`): the text then changes every second instead of every minute.
    public let showsSeconds: Bool

    /// `%H:%M`.
    public static let standard = ClockFormat(validated: "%H:%M")

    private init(validated text: String) {
        // Only called with formats known to parse.
        self.source = text
        format = (try? CaptionDateFormat(parsing: text)) ?? .standard
        showsSeconds = false
    }

    /// Parses `text`; the error says which conversion is wrong and where (its column in `text`).
    public init(parsing text: String) throws(CaptionFormatError) {
        var expanded = "", checked = ""  // `checked` keeps each conversion two characters long, for the columns
        var chars = Array(text).makeIterator()
        var seconds = false
        while let c = chars.next() {
            guard c == "%" else { expanded.append(c); checked.append(c); continue }
            guard let letter = chars.next() else { expanded.append(c); checked.append(c); break }  // a lone '%'
            switch letter {
            case "T": expanded += "%H:%M:%S"; checked += "%H"; seconds = true
            case "R": expanded += "%H:%M"; checked += "%H"
            case "S": expanded += "%S"; checked += "%S"; seconds = true
            default: expanded += "%\(letter)"; checked += "%\(letter)"
            }
        }
        _ = try CaptionDateFormat(parsing: checked)
        source = text
        format = try CaptionDateFormat(parsing: expanded)
        showsSeconds = seconds
    }

    /// The clock's text at `date` in `timeZone`.
    public func text(at date: Date, in timeZone: TimeZone) -> String {
        let (day, second) = LocalClock.wallClock(of: date, in: timeZone)
        let s = max(0, min(LocalClock.secondsPerDay - 1, Int(saturating: second, rounding: .down)))
        guard let local = CivilDateTime(year: day.year, month: day.month, day: day.day, hour: s / 3600,
                                        minute: s / 60 % 60, second: s % 60) else { return "" }
        return format.format(local)
    }

    /// Seconds from `date` to the next instant the text may change: the next whole second when it shows
    /// seconds, else the next whole minute (a minute edge is the same instant in every zone with whole-minute
    /// offsets, so a daylight-saving change, which happens on one, is caught).
    public func secondsToNextChange(after date: Date) -> Double {
        let t = date.timeIntervalSince1970
        let period = showsSeconds ? 1.0 : 60.0
        let next = ((t / period).rounded(.down) + 1) * period
        return next - t
    }
}
