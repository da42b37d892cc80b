@preconcurrency import Glibc

/// Wakes a thread waiting in `poll(2)` from any other thread: a non-blocking pipe whose read end is polled with
/// the thread's own descriptor. (An eventfd would do, but Glibc's module does not bring `sys/eventfd.h`.)
final class WakePipe: @unchecked Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    /// A new pipe, not raised.
    init() throws(FolderWatchError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw FolderWatchError("pipe", code: errno) }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Raises it: the current or next wait returns at once. Never blocks (a full pipe is raised already).
    func raise() {
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }

    /// Waits until it is raised, `fd` is readable, or `timeout` seconds pass (nil: no limit). Lowers it; returns
    /// whether `fd` is readable.
    func wait(timeout: Double?, also fd: Int32) -> Bool {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
        let ms = timeout.map { Int32(clamping: Int(saturating: min(3600, max(0, $0)) * 1000 + 0.999, rounding: .towardZero)) } ?? -1
        var n: Int32
        repeat { n = poll(&fds, nfds_t(fds.count), ms) } while n < 0 && errno == EINTR
        guard n > 0 else { return false }
        if fds[1].revents != 0 {
            var sink = [UInt8](repeating: 0, count: 64)
            while read(readEnd, &sink, sink.count) > 0 {}
        }
        return fds[0].revents != 0
    }

    /// Closes both ends.
    func close() {
        _ = Glibc.close(readEnd)
        _ = Glibc.close(writeEnd)
    }
}
