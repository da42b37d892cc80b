internal import CDRM
@preconcurrency import Glibc

/// Wakes a waiting frame loop from any thread: an eventfd that an output's `wait(until:)` polls together with
/// its own descriptors (page-flip events) and the ones it was asked to watch (input devices).
public final class WakeupSignal: @unchecked Sendable {
    /// The eventfd, or -1 when the kernel refused one (then waits simply time out).
    public let fd: Int32

    /// A new signal, not raised.
    public init() {
        fd = kiosk_eventfd()
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Raises the signal: the next or current wait returns at once. Thread-safe; never blocks.
    public func raise() {
        guard fd >= 0 else { return }
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(fd, $0.baseAddress, 8) }
    }

    /// Lowers the signal; true when it had been raised.
    @discardableResult
    public func clear() -> Bool {
        guard fd >= 0 else { return false }
        var count: UInt64 = 0
        return withUnsafeMutableBytes(of: &count) { read(fd, $0.baseAddress, 8) } == 8
    }

    /// Waits up to `timeout` seconds for the signal or for one of `descriptors` to be readable. Returns the
    /// descriptors that are readable (not the signal's own), having lowered the signal if it was raised.
    @discardableResult
    public func wait(timeout: Double, also descriptors: [Int32] = []) -> [Int32] {
        var fds = descriptors.filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        if fd >= 0 { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        let ms = Int32(max(0, min(timeout, 3600)) * 1000 + 0.999)
        if fds.isEmpty {
            if ms > 0 { usleep(UInt32(ms) * 1000) }
            return []
        }
        var n: Int32
        repeat { n = poll(&fds, nfds_t(fds.count), ms) } while n < 0 && errno == EINTR
        guard n > 0 else { return [] }
        if fd >= 0, fds[fds.count - 1].revents != 0 { clear() }
        return fds.filter { $0.fd != fd && $0.revents != 0 }.map(\.fd)
    }
}
