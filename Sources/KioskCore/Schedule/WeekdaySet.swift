/// The days of the week a schedule rule or a playlist item's window starts on: `mon-fri`, `sat,sun`,
/// wrapping ranges like `fri-mon`, lists of both like `mon-wed,fri`, full names in any case, or `*`.
public struct WeekdaySet: Sendable, Hashable, CustomStringConvertible {
    /// One bit per weekday, bit `rawValue - 1`.
    public private(set) var bits: UInt8

    /// Every day.
    public static let all = WeekdaySet(Weekday.allCases)

    /// The set of these days.
    public init(_ days: some Sequence<Weekday>) {
        bits = 0
        for d in days { bits |= 1 << UInt8(d.rawValue - 1) }
    }

    /// Whether `day` is in the set.
    public func contains(_ day: Weekday) -> Bool { bits & (1 << UInt8(day.rawValue - 1)) != 0 }

    /// The days in the set, Monday first.
    public var days: [Weekday] { Self.mondayFirst.filter(contains) }

    /// `*`, or the days' short names joined by commas, Monday first.
    public var description: String { self == .all ? "*" : days.map { $0.shortName.lowercased() }.joined(separator: ",") }

    /// Parses a days field; the error is the one-line reason (`unknown day name 'mun'`).
    public static func parse(_ text: some StringProtocol) -> Result<WeekdaySet, FieldError> {
        if text == "*" { return .success(.all) }
        var days: [Weekday] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            if item == "*" { days += Weekday.allCases; continue }
            let ends = item.split(separator: "-", omittingEmptySubsequences: false)
            guard !item.isEmpty, ends.count <= 2, ends.allSatisfy({ !$0.isEmpty }) else {
                return .failure(FieldError("bad days '\(ErrorQuote.cut(text))' (expected names like mon, ranges like mon-fri, lists like sat,sun, or *)"))
            }
            var named: [Weekday] = []
            for end in ends {
                guard let d = Self.names[end.lowercased()] else { return .failure(FieldError("unknown day name '\(ErrorQuote.cut(end))'")) }
                named.append(d)
            }
            guard let first = named.first, let last = named.last else { continue }
            var d = first
            days.append(d)
            while d != last {  // a range wraps past Sunday: fri-mon is fri, sat, sun, mon
                d = d.next
                days.append(d)
            }
        }
        return .success(WeekdaySet(days))
    }

    /// Day names by lowercased short and full name.
    static let names: [String: Weekday] = {
        var n: [String: Weekday] = [:]
        let full = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        for d in Weekday.allCases {
            n[d.shortName.lowercased()] = d
            n[full[d.rawValue - 1]] = d
        }
        return n
    }()

    /// Monday to Sunday.
    static let mondayFirst: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]
}
