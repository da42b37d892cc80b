/// Errors of the GL layer: each names the call that failed and why, in one line.

/// A failure in EGL, GL or shader handling.
public struct RenderError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The call or step that failed, e.g. `eglInitialize` or `compile flat.frag`.
    public var call: String
    /// Why, in one line.
    public var reason: String

    /// Creates an error; line breaks in `reason` are folded so the message stays on one line.
    public init(call: String, reason: String) {
        self.call = call
        self.reason = reason.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters() }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }

    /// `call: reason`.
    public var description: String { "\(call): \(reason)" }
}

extension Substring {
    /// The text without leading and trailing spaces, tabs and NULs.
    fileprivate func trimmingCharacters() -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\0" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
