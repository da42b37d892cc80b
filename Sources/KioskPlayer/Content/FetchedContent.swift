import Foundation

/// What one screen's content fetcher (`kiosk play URL`, or a screen's URL SOURCE) leaves with that screen: the new
/// content waiting for the end of the item on screen, and the fetcher's status and commands for that screen's
/// remotes. Every screen has its own, so each screen's URL swaps, checks and reports on that screen alone (issue 40).
/// Its parts are thread-safe.
public final class FetchedContent: Sendable {
    /// New content waiting for the end of the item on screen (`ContentSwap.swift`).
    public let pending = PendingContent()
    /// The fetcher's status and commands for the screen's remotes (`ContentControl.swift`).
    public let control = ContentControl()

    /// Nothing waiting, no fetcher yet.
    public init() {}
}
