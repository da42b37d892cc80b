import Foundation

/// A bound of a play-log report, read the one way `kiosk report --since/--until`, the web page's
/// `/api/report?since=&until=` and IPC's `play-report` all read it, so they cannot disagree:
/// `YYYY-MM-DD` (local midnight), `YYYY-MM-DDTHH:MM[:SS[.fff]]` (local wall-clock time), either with `Z` or a UTC
/// offset `+HH:MM`/`-HH:MM` (at most 14:00) after the time. Every field is checked: no month 13, no 30 February,
/// no hour 24, no offset `+99:99` (a lenient calendar rolled those over into other days).
public enum ReportTime {
    /// The forms, as a refusal names them.
    public static let forms = "YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|+HH:MM|-HH:MM]"

    /// Why a text is no report time: the text, the forms and the reason, in one line.
    public struct Refusal: Error, CustomStringConvertible, Sendable, Equatable {
        public let description: String
        init(_ text: String, _ why: String) {
            description = "'\(text)' is not \(ReportTime.forms) (\(why))"
        }
    }

    /// The instant `text` names; a time without `Z` or an offset is wall-clock time in `zone` (in a
    /// spring-forward gap the change itself, in a fall-back hour the first). With `needsZone`, a time must carry its
    /// `Z` or offset (IPC's requests do).
    public static func parse(_ text: String, zone: TimeZone, needsZone: Bool = false) throws(Refusal) -> Date {
        let chars = Array(text.utf8)
        guard chars.count >= 10, chars.allSatisfy({ $0 < 0x80 }), isDateShape(chars[0..<10]) else {
            throw Refusal(text, "a date is YYYY-MM-DD")
        }
        guard let day = CivilDate(parsing: String(decoding: chars[0..<10], as: UTF8.self)) else { throw Refusal(text, "no such day") }
        if chars.count == 10 {
            if needsZone { throw Refusal(text, "a time with Z or an offset is needed") }
            return LocalClock.instant(day, second: 0, in: zone)
        }
        guard chars[10] == UInt8(ascii: "T") else { throw Refusal(text, "the time follows the date after a T") }
        var rest = chars[11...]
        // HH:MM
        guard let h = number(rest.prefix(2)), rest.count >= 5, rest[rest.startIndex + 2] == UInt8(ascii: ":"),
              let m = number(rest.dropFirst(3).prefix(2)) else { throw Refusal(text, "a time is HH:MM") }
        guard h < 24, m < 60 else { throw Refusal(text, "hours 00 to 23, minutes 00 to 59") }
        rest = rest.dropFirst(5)
        var s = 0, fraction = 0.0
        if rest.first == UInt8(ascii: ":") {
            guard let sec = number(rest.dropFirst().prefix(2)), rest.count >= 3 else { throw Refusal(text, "seconds are :SS") }
            guard sec < 60 else { throw Refusal(text, "seconds 00 to 59") }
            s = sec
            rest = rest.dropFirst(3)
            if rest.first == UInt8(ascii: ".") {
                let digits = rest.dropFirst().prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                guard (1...9).contains(digits.count), let f = Double("0." + String(decoding: digits, as: UTF8.self)) else {
                    throw Refusal(text, "a fraction of a second is 1 to 9 digits")
                }
                fraction = f
                rest = rest.dropFirst(1 + digits.count)
            }
        }
        let second = h * 3600 + m * 60 + s
        if rest.isEmpty {
            if needsZone { throw Refusal(text, "a time with Z or an offset is needed") }
            return LocalClock.instant(day, second: second, in: zone).addingTimeInterval(fraction)
        }
        let offset: Int
        if Array(rest) == [UInt8(ascii: "Z")] {
            offset = 0
        } else {
            guard rest.count == 6, let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
                  let oh = number(rest.dropFirst().prefix(2)), rest[rest.startIndex + 3] == UInt8(ascii: ":"),
                  let om = number(rest.suffix(2)) else {
                throw Refusal(text, "after the time comes nothing, Z, or an offset +HH:MM or -HH:MM")
            }
            guard om < 60, oh * 60 + om <= 14 * 60 else { throw Refusal(text, "an offset is at most 14:00 either side of UTC") }
            offset = (sign == UInt8(ascii: "+") ? 1 : -1) * (oh * 3600 + om * 60)
        }
        let seconds = day.dayNumber * 86_400 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Two ASCII digits' value; nil for anything else.
    private static func number(_ bytes: some Collection<UInt8>) -> Int? {
        guard bytes.count == 2, bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// Whether `bytes` are shaped as `NNNN-NN-NN` (digits and dashes).
    private static func isDateShape(_ bytes: ArraySlice<UInt8>) -> Bool {
        let b = Array(bytes)
        return b.count == 10 && b.enumerated().allSatisfy { i, c in
            i == 4 || i == 7 ? c == UInt8(ascii: "-") : c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
        }
    }
}
