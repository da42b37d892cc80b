import Foundation

/// Where long clips were left, so a video of at least `ResumeBook.minimumLength` seconds resumes there when it
/// comes round again; shorter ones restart (the seed player's rule). Shared by the render and decode threads.
public final class ResumeBook: @unchecked Sendable {
    /// Clips at least this long (7 minutes) resume.
    public static let minimumLength = 420.0

    private let lock = NSLock()
    private var places: [String: Double] = [:]

    /// An empty book.
    public init() {}

    /// Notes that `path`, `length` seconds long, was left at `position` seconds (only long clips are kept; a
    /// position within a second of the end starts over).
    public func leave(_ path: String, at position: Double, length: Double) {
        lock.lock()
        defer { lock.unlock() }
        guard length >= Self.minimumLength else { return }
        places[path] = position < length - 1 ? max(0, position) : nil
    }

    /// Every long clip left and where, for the state file.
    public var positions: [String: Double] {
        lock.lock()
        defer { lock.unlock() }
        return places
    }

    /// Takes the places an earlier run kept (its state file); they were long clips when kept.
    public func restore(_ kept: [String: Double]) {
        lock.lock()
        defer { lock.unlock() }
        places.merge(kept.filter { $0.value.isFinite && $0.value >= 0 }) { _, old in old }
    }

    /// Where `path` starts next time (0 for a clip never left).
    public func start(for path: String) -> Double {
        lock.lock()
        defer { lock.unlock() }
        return places[path] ?? 0
    }
}
