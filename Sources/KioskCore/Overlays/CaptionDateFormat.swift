/// The date part of a caption format, `{date:%d %B %Y}`: a strftime-like subset with English names, needing no
/// locale and no time zone.

/// A parsed date format: literal text and conversions.
public struct CaptionDateFormat: Sendable, Equatable {
    /// One conversion of the format.
    enum Piece: Sendable, Equatable {
        /// Text written as it is.
        case text(String)
        /// `%` and this letter.
        case conversion(Character)
    }

    /// The conversions it knows, each with what it writes.
    public static let conversions: [(letter: Character, meaning: String)] = [
        ("Y", "year, 4 digits"), ("y", "year, 2 digits"), ("m", "month 01-12"), ("B", "month name (December)"),
        ("b", "short month name (Dec)"), ("d", "day 01-31"), ("e", "day, space-padded ( 1-31)"),
        ("A", "weekday name (Thursday)"), ("a", "short weekday name (Thu)"), ("H", "hour 00-23"),
        ("M", "minute 00-59"), ("S", "second 00-59"), ("%", "a percent sign"),
    ]

    /// The English month names, January first.
    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                    "September", "October", "November", "December"]

    /// The English weekday names, Sunday first (`Weekday`'s order).
    public static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// The pieces in order.
    let pieces: [Piece]

    /// `%Y-%m-%d`, `{date}`'s format for a date given to the day or finer.
    public static let standard = CaptionDateFormat(pieces: [.conversion("Y"), .text("-"), .conversion("m"), .text("-"),
                                                            .conversion("d")])

    private init(pieces: [Piece]) { self.pieces = pieces }

    /// Parses `text`; the error says which conversion is unknown and where (`column` is where the format starts
    /// in the whole caption format, 1-based).
    public init(parsing text: String, column: Int = 1) throws(CaptionFormatError) {
        var pieces: [Piece] = []
        var literal = ""
        var iterator = Array(text).enumerated().makeIterator()
        while let (offset, c) = iterator.next() {
            guard c == "%" else { literal.append(c); continue }
            guard let (_, letter) = iterator.next() else {
                throw CaptionFormatError(column: column + offset, "a date format ends in a lone '%' (write %% for a percent sign)")
            }
            guard Self.conversions.contains(where: { $0.letter == letter }) else {
                throw CaptionFormatError(column: column + offset, "unknown date conversion '%\(letter)' (known: "
                                         + Self.conversions.map { "%\($0.letter)" }.joined(separator: " ") + ")")
            }
            if letter == "%" { literal.append("%"); continue }
            if !literal.isEmpty { pieces.append(.text(literal)); literal = "" }
            pieces.append(.conversion(letter))
        }
        if !literal.isEmpty { pieces.append(.text(literal)) }
        self.init(pieces: pieces)
    }

    /// `{date}` without a format: as much as the date gives, `2019`, `2019-05` or `%Y-%m-%d`.
    public static func standard(for precision: CivilDateTime.Precision) -> CaptionDateFormat {
        switch precision {
        case .year: return CaptionDateFormat(pieces: [.conversion("Y")])
        case .month: return CaptionDateFormat(pieces: [.conversion("Y"), .text("-"), .conversion("m")])
        default: return standard
        }
    }

    /// `value` written in this format. Parts finer than the value's precision write their first values.
    public func format(_ value: CivilDateTime) -> String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let t): out += t
            case .conversion(let c):
                let d = value.date
                switch c {
                case "Y": let y = String(d.year); out += String(repeating: "0", count: max(0, 4 - y.count)) + y
                case "y": out += two(d.year % 100)
                case "m": out += two(d.month)
                case "B": out += Self.monthNames[d.month - 1]
                case "b": out += String(Self.monthNames[d.month - 1].prefix(3))
                case "d": out += two(d.day)
                case "e": out += d.day < 10 ? " \(d.day)" : "\(d.day)"
                case "A": out += Self.weekdayNames[d.weekday.rawValue - 1]
                case "a": out += d.weekday.shortName
                case "H": out += two(value.hour)
                case "M": out += two(value.minute)
                case "S": out += two(value.second)
                default: break  // parsing admits only the conversions above
                }
            }
        }
        return out
    }
}
