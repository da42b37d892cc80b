import Foundation

/// Tears down what the render thread lets go of on a background thread: an evicted clip stops its decoder
/// thread (which can take a while), and a big picture is freed, without the frame loop waiting for either.
enum Reaper {
    private static let queue = DispatchQueue(label: "kiosk-reaper", qos: .utility)

    /// Holds what was handed over until the reaper's thread lets it go.
    private final class Holder<T>: @unchecked Sendable {
        private var value: T?
        init(_ value: consuming T) { self.value = consume value }
        func release() { value = nil }
    }

    /// Takes `value` over: pass it with `consume`, so the holder has the only reference and the last release (the
    /// teardown) happens on the reaper's thread, not the caller's.
    static func dispose<T>(_ value: consuming T) {
        let holder = Holder(consume value)
        queue.async { holder.release() }
    }
}
