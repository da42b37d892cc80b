/// Errors of the text engine: each names the call or step that failed and why, in one line.

/// A failure finding a font, loading it, shaping or laying out text.
public struct TextError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The call or step that failed, e.g. `FT_New_Face(/path/font.ttf)` or `FontLocator("Foo")`.
    public var call: String
    /// Why, in one line.
    public var reason: String

    /// Creates an error.
    public init(call: String, reason: String) {
        self.call = call
        self.reason = reason
    }

    /// `call: reason`.
    public var description: String { "\(call): \(reason)" }
}
