/// A time window of the day on the wall clock, `HH:MM-HH:MM`. An end before the start crosses midnight and ends
/// on the next day; `24:00` is allowed as an end; equal start and end is an error (`00:00-24:00` is the whole day).
public struct DailyWindow: Sendable, Hashable, CustomStringConvertible {
    /// Minutes after midnight the window starts, 0..<1440.
    public let start: Int
    /// Minutes after midnight it ends, 0...1440; on the next day when `crossesMidnight`.
    public let end: Int

    /// The whole day, 00:00-24:00.
    public static let wholeDay = DailyWindow(uncheckedStart: 0, end: 1440)

    /// A window from `start` to `end` minutes; the error says why it is not one (equal ends, out of range).
    public static func make(start: Int, end: Int) -> Result<DailyWindow, FieldError> {
        guard (0..<1440).contains(start), (0...1440).contains(end) else {
            return .failure(FieldError("bad time '\(clock(start))-\(clock(end))' (00:00 to 24:00, and 24:00 only as an end)"))
        }
        guard start != end else {
            return .failure(FieldError("start equals end in '\(clock(start))-\(clock(end))' (00:00-24:00 is the whole day)"))
        }
        return .success(DailyWindow(uncheckedStart: start, end: end))
    }

    private init(uncheckedStart: Int, end: Int) {
        self.start = uncheckedStart
        self.end = end
    }

    /// Whether it ends on the next day (`23:00-07:00`, and `07:00-00:00`).
    public var crossesMidnight: Bool { end < start }

    /// Seconds from the start day's midnight to the end, on the wall clock.
    public var endSecond: Int { (crossesMidnight ? end + 1440 : end) * 60 }

    /// `HH:MM-HH:MM`.
    public var description: String { "\(Self.clock(start))-\(Self.clock(end))" }

    /// Parses `HH:MM-HH:MM`; the error is the one-line reason quoting the text.
    public static func parse(_ text: some StringProtocol) -> Result<DailyWindow, FieldError> {
        let ends = text.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2 else { return .failure(FieldError("bad time '\(ErrorQuote.cut(text))' (expected HH:MM-HH:MM)")) }
        guard let s = minutes(ends[0]), let e = minutes(ends[1]) else {
            return .failure(FieldError("bad time '\(ErrorQuote.cut(text))' (expected HH:MM-HH:MM, 00:00 to 24:00)"))
        }
        guard s < 1440 else { return .failure(FieldError("bad time '\(ErrorQuote.cut(text))': 24:00 is only an end")) }
        return make(start: s, end: e)
    }

    /// Minutes after midnight of `H:MM` or `HH:MM` (00:00 to 24:00), or nil. Read as bytes: a schedule of
    /// 100,000 lines reads two of these per line.
    public static func minutes(_ text: some StringProtocol) -> Int? {
        var value = [0, 0]  // hours, then minutes
        var digits = [0, 0]  // how many digits each has
        var part = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ":"), part == 0 { part = 1; continue }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits[part] < 2 else { return nil }
            value[part] = value[part] * 10 + Int(byte - UInt8(ascii: "0"))
            digits[part] += 1
        }
        // One or two hour digits, then exactly two minute digits.
        guard part == 1, digits[0] >= 1, digits[1] == 2 else { return nil }
        let h = value[0], m = value[1]
        guard h <= 24, m <= 59, h < 24 || m == 0 else { return nil }
        return h * 60 + m
    }

    /// `HH:MM` of minutes after midnight (1440 is `24:00`).
    public static func clock(_ minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        return (h < 10 ? "0\(h)" : "\(h)") + ":" + (m < 10 ? "0\(m)" : "\(m)")
    }
}
