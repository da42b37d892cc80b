/// The calendar days a rule or an item's window may start on: `YYYY-MM-DD..YYYY-MM-DD`, both ends included.
/// Either end may be open (a playlist item's window may give only `start=` or only `end=`).
public struct DateSpan: Sendable, Hashable, CustomStringConvertible {
    /// The first day, or nil for no lower bound.
    public let first: CivilDate?
    /// The last day, or nil for no upper bound.
    public let last: CivilDate?

    /// Every day.
    public static let always = DateSpan(uncheckedFirst: nil, last: nil)

    /// The days from `first` through `last`; the error says when `first` is after `last`.
    public static func make(first: CivilDate?, last: CivilDate?) -> Result<DateSpan, FieldError> {
        if let f = first, let l = last, f > l { return .failure(FieldError("date range backwards: \(f) is after \(l)")) }
        return .success(DateSpan(uncheckedFirst: first, last: last))
    }

    private init(uncheckedFirst: CivilDate?, last: CivilDate?) {
        self.first = uncheckedFirst
        self.last = last
    }

    /// Whether `day` is within the span.
    public func contains(_ day: CivilDate) -> Bool {
        (first.map { day >= $0 } ?? true) && (last.map { day <= $0 } ?? true)
    }

    /// `FIRST..LAST`, with an open end left empty.
    public var description: String { "\(first?.description ?? "")..\(last?.description ?? "")" }

    /// Parses `YYYY-MM-DD..YYYY-MM-DD` (both ends required); the error is the one-line reason quoting the text.
    public static func parse(_ text: some StringProtocol) -> Result<DateSpan, FieldError> {
        guard let dots = text.range(of: "..") else {
            return .failure(FieldError("bad date range '\(ErrorQuote.cut(text))' (expected YYYY-MM-DD..YYYY-MM-DD)"))
        }
        let ends = [text[..<dots.lowerBound], text[dots.upperBound...]]
        var days: [CivilDate] = []
        for end in ends {
            guard let d = CivilDate(parsing: end) else {
                return .failure(FieldError(end.isEmpty ? "bad date range '\(ErrorQuote.cut(text))' (expected YYYY-MM-DD..YYYY-MM-DD)"
                                                       : "bad date '\(ErrorQuote.cut(end))' (expected a real day as YYYY-MM-DD)"))
            }
            days.append(d)
        }
        return make(first: days[0], last: days[1])
    }
}
