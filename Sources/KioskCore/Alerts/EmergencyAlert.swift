import Foundation

/// An emergency message that takes over the whole screen (`kiosk ctl alert`, IPC `alert`, MQTT `cmd/alert`): its
/// text, when it ends on the wall clock (nil: when it is cleared), and a picture to show with it (a local file,
/// under `--media-root` when one is set). It is kept in the state folder, so a restart while it is on shows it
/// again until its end.
public struct EmergencyAlert: Codable, Equatable, Sendable {
    /// The message, one to a few lines.
    public var text: String
    /// When it ends on the wall clock (1970...9999: a state file's number outside it is refused); nil: when it
    /// is cleared.
    public var until: WallInstant?
    /// A picture shown above the message.
    public var image: String?

    /// The longest message kept (a few lines on a screen; more is cut).
    public static let maxText = 500

    /// An alert of `text` (cut to `maxText` characters, control characters but newlines taken out).
    public init(text: String, until: WallInstant? = nil, image: String? = nil) {
        let clean = text.unicodeScalars.filter { $0 == "\n" || !CharacterSet.controlCharacters.contains($0) }
        self.text = String(String.UnicodeScalarView(clean)).trimmingCharacters(in: .whitespacesAndNewlines)
        if self.text.count > Self.maxText { self.text = String(self.text.prefix(Self.maxText)) }
        self.until = until
        self.image = image
    }

    /// Whether it is still on at `wall` seconds since 1970.
    public func isOn(at wall: Double) -> Bool { until.map { wall < $0.secondsSince1970 } ?? true }
}

/// What an alert command asks: a message for `seconds` (nil: until cleared), with an optional picture; or, with no
/// text, that the alert on screen is cleared.
public struct AlertRequest: Sendable, Equatable {
    /// The message; nil or empty clears.
    public var text: String?
    /// How long from now (0 to 100 years, parsed where the number came in); nil: until cleared.
    public var seconds: TimeSpan?
    /// A picture's path.
    public var image: String?

    /// A request.
    public init(text: String?, seconds: TimeSpan? = nil, image: String? = nil) {
        self.text = text
        self.seconds = seconds
        self.image = image
    }

    /// Clears the alert.
    public static let clear = AlertRequest(text: nil)

    /// Whether it clears rather than shows.
    public var clears: Bool { (text ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
}
