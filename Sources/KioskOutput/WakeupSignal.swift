@preconcurrency import Glibc

/// Wakes a waiting frame loop from any thread: a non-blocking pipe whose read end an output's `wait(until:)` polls
/// together with its own descriptors (page-flip events) and the ones it was asked to watch (input devices). Plain
/// libc: the loop's wakeup has nothing to do with libdrm (the output's `wakeup()` raises it; the command inbox is
/// handed that as a closure).
public final class WakeupSignal: @unchecked Sendable {
    /// The read end that is polled, or -1 when no pipe could be made (then waits simply time out).
    public let fd: Int32
    private let writeEnd: Int32

    /// A new signal, not raised.
    public init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
        }
        fd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        if fd >= 0 { close(fd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Raises the signal: the next or current wait returns at once. Thread-safe; never blocks (a full pipe is
    /// raised already).
    public func raise() {
        guard writeEnd >= 0 else { return }
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }

    /// Lowers the signal; true when it had been raised.
    @discardableResult
    public func clear() -> Bool {
        guard fd >= 0 else { return false }
        var sink = [UInt8](repeating: 0, count: 64)
        var raised = false
        while read(fd, &sink, sink.count) > 0 { raised = true }
        return raised
    }

    /// Waits up to `timeout` seconds for the signal or for one of `descriptors` to be readable. Returns the
    /// descriptors that are readable (not the signal's own), having lowered the signal if it was raised.
    @discardableResult
    public func wait(timeout: Double, also descriptors: [Int32] = []) -> [Int32] {
        var fds = descriptors.filter { $0 >= 0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        if fd >= 0 { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        let ms = Int32(clamping: Int(saturating: max(0, min(timeout, 3600)) * 1000 + 0.999, rounding: .towardZero))
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
