import Foundation

/// Tears down what the render thread lets go of on a background thread: an evicted clip stops its decoder
/// thread (which can take a while), and a big picture is freed, without the frame loop waiting for either.
enum Reaper {
    private static let queue = DispatchQueue(label: "kiosk-reaper", qos: .utility)

    /// Takes `value` over; its last reference, when this is it, is dropped on the reaper's thread.
    /// The value moves into a box only the reaper empties, so a caller that hands over its last reference
    /// (`consume`) cannot end up dropping it itself when the reaper runs first.
    static func dispose<T: Sendable>(_ value: consuming T) {
        let box = Handover(consume value)
        queue.async { box.empty() }
    }

    /// Waits until everything handed over so far has been dropped (for tests and orderly exits).
    static func drain() {
        queue.sync {}
    }
}

/// Holds a value until the reaper's thread empties it.
private final class Handover<T: Sendable>: @unchecked Sendable {
    private var value: T?
    init(_ value: consuming T) { self.value = consume value }
    /// Drops the value (on the reaper's thread).
    func empty() { value = nil }
}
