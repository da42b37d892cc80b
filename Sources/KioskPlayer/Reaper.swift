import Foundation

/// Tears down what the render thread lets go of on a background thread: an evicted clip stops its decoder
/// thread (which can take a while), and a big picture is freed, without the frame loop waiting for either.
enum Reaper {
    private static let queue = DispatchQueue(label: "kiosk-reaper", qos: .utility)

    /// Takes `value` over; its last reference, when this is it, is dropped on the reaper's thread.
    static func dispose<T: Sendable>(_ value: T) {
        queue.async { withExtendedLifetime(value) {} }
    }

    /// Waits until everything handed over so far has been dropped (for tests and orderly exits).
    static func drain() {
        queue.sync {}
    }
}
