/// Why a web page could not be shown; each one line naming the page.
public enum WebContentError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The page file is not there or cannot be read.
    case pageUnreadable(page: String, reason: String)
    /// The helper process could not be started.
    case helperNotStarted(reason: String)
    /// The page did not paint within the time it had.
    case notPainted(page: String, seconds: Double)
    /// WebKit could not load the page.
    case loadFailed(page: String, reason: String)
    /// The helper (or its web process) ended before the page painted.
    case helperEnded(page: String, reason: String)

    /// The one line that says it.
    public var description: String {
        switch self {
        case .pageUnreadable(let page, let reason): "web page \(page): \(reason)"
        case .helperNotStarted(let reason): "web helper: cannot start: \(reason)"
        case .notPainted(let page, let seconds): "web page \(page): not painted within \(Self.seconds(seconds)) s"
        case .loadFailed(let page, let reason): "web page \(page): cannot load: \(reason)"
        case .helperEnded(let page, let reason): "web page \(page): the web helper ended before it painted: \(reason)"
        }
    }

    private static func seconds(_ s: Double) -> String {
        s == s.rounded() ? String(Int(saturating: s)) : String(s)
    }
}
