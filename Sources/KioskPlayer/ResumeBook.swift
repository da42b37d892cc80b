import Foundation

/// Where long clips were left, so a video of at least `ResumeBook.minimumLength` seconds resumes there when it
/// comes round again; shorter ones restart (the seed player's rule). Shared by the render and decode threads.
public final class ResumeBook: @unchecked Sendable {
    /// Clips at least this long (7 minutes) resume.
    public static let minimumLength = 420.0

    private let lock = NSLock()
    private var positions: [String: Double] = [:]

    /// An empty book.
    public init() {}

    /// Notes that `path`, `length` seconds long, was left at `position` seconds (only long clips are kept; a
    /// position within a second of the end starts over).
    public func leave(_ path: String, at position: Double, length: Double) {
        lock.lock()
        defer { lock.unlock() }
        guard length >= Self.minimumLength else { return }
        positions[path] = position < length - 1 ? max(0, position) : nil
    }

    /// Where `path` starts next time (0 for a clip never left).
    public func start(for path: String) -> Double {
        lock.lock()
        defer { lock.unlock() }
        return positions[path] ?? 0
    }
}
