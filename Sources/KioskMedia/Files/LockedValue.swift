import Foundation

/// A value shared between threads behind a lock: the process-wide settings the player sets once at start and
/// decoders read on their own threads (`LocalMediaPolicy.readTimeout`, `DecodeThreads.requested`).
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
