import Foundation

/// A length of time that came from outside (an alert's seconds over IPC, MQTT, the web page or `kiosk ctl`, a
/// SMIL clock value, an `#EXTINF`): finite and from 0 to 100 years. It is parsed once, where the number enters,
/// so that every sum kiosk makes with it stays finite and every instant it reaches stays a `WallInstant`.
public struct TimeSpan: Sendable, Hashable, Comparable {
    /// The longest span taken: 100 years of 365.25 days.
    public static let longest: Double = 100 * 365.25 * 86_400
    /// The seconds, within 0...`longest`.
    public let seconds: Double

    /// `seconds` when it is finite and within 0...`longest`; nil otherwise (a value to refuse).
    public init?(seconds: Double) {
        guard seconds.isFinite, (0...Self.longest).contains(seconds) else { return nil }
        self.seconds = seconds
    }

    /// What a refused `value` is, for the one line that refuses it: "-5 is not from 0 to 100 years".
    public static func refusal(_ value: Double) -> String { "\(value) s is not from 0 to 100 years" }

    public static func < (a: TimeSpan, b: TimeSpan) -> Bool { a.seconds < b.seconds }
}

extension TimeSpan: ExpressibleByIntegerLiteral {
    /// A span written in the source (`AlertRequest(text: "Drill", seconds: 90)`): a constant, not outside input,
    /// so it saturates into 0...`longest` rather than refusing.
    public init(integerLiteral value: Int) {
        seconds = min(max(Double(value), 0), Self.longest)
    }
}

/// An instant on the wall clock that came from outside or from a `TimeSpan` added to now (an alert's end, in
/// `kiosk ctl`, IPC, MQTT and the state file): seconds since 1970 (UTC), from 1970-01-01T00:00:00Z to
/// 9999-12-31T23:59:59Z, the years a calendar date of four digits names. Sums saturate at the end.
/// In JSON (the state file) it is the number of seconds, as before it had a type.
public struct WallInstant: Sendable, Hashable, Comparable, Codable {
    /// The instants taken, in seconds since 1970: 1970-01-01T00:00:00Z...9999-12-31T23:59:59Z.
    public static let range: ClosedRange<Double> = 0...253_402_300_799
    /// Seconds since 1970 (UTC), within `range`.
    public let secondsSince1970: Double

    /// `seconds` since 1970 when it is within `range`; nil otherwise (NaN, infinite, before 1970, after 9999).
    public init?(secondsSince1970 seconds: Double) {
        guard Self.range.contains(seconds) else { return nil }  // NaN is in no range
        secondsSince1970 = seconds
    }

    /// `date` brought into `range` (a clock before 1970 reads as 1970): for now, which kiosk does not refuse.
    public init(clamping date: Date) {
        let s = date.timeIntervalSince1970
        secondsSince1970 = s.isNaN ? 0 : min(max(s, Self.range.lowerBound), Self.range.upperBound)
    }

    /// The instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: secondsSince1970) }

    /// `span` after this instant, or the end of `range` when that is past it.
    public func adding(_ span: TimeSpan) -> WallInstant {
        WallInstant(clamping: Date(timeIntervalSince1970: secondsSince1970 + span.seconds))
    }

    /// What a refused `value` is, for the one line that refuses it.
    public static func refusal(_ value: Double) -> String { "\(value) is not an instant from 1970 to 9999 (seconds since 1970)" }

    public static func < (a: WallInstant, b: WallInstant) -> Bool { a.secondsSince1970 < b.secondsSince1970 }

    /// Reads a number of seconds since 1970; one outside `range` is a corrupt value that names itself.
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let value = try c.decode(Double.self)
        guard let instant = WallInstant(secondsSince1970: value) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: Self.refusal(value))
        }
        self = instant
    }

    /// Writes the number of seconds since 1970.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(secondsSince1970)
    }
}
