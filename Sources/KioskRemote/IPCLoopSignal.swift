import Foundation
@preconcurrency import Glibc

/// What other threads tell the server thread: "wake up" (coalesced) and "stop", through a socket pair that the
/// loop polls; and what the server thread tells them back: that it ended. Thread-safe; `raise` never blocks.
final class IPCLoopSignal: @unchecked Sendable {
    /// The end the loop polls for reading.
    let fd: Int32
    /// The end written to.
    private let writeEnd: Int32
    private let state = NSCondition()
    private var wakePending = false
    private var stopPending = false
    private var ended = false
    private var serverThread: pthread_t?

    /// A signal, not raised; throws (naming `path`, the socket being served) when no socket pair can be made.
    init(path: String) throws(IPCServerError) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, UnixSocketAddress.streamFlags, 0, &ends) == 0 else {
            throw .call("socketpair", path: path, errno: errno)
        }
        fd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(fd)
        close(writeEnd)
    }

    /// Asks for one `woken` call; many raises before the loop looks make one call.
    func raise() {
        state.lock()
        defer { state.unlock() }
        guard !wakePending else { return }
        wakePending = true
        poke()
    }

    /// Asks the loop to end.
    func requestStop() {
        state.lock()
        defer { state.unlock() }
        stopPending = true
        poke()
    }

    /// True once a stop was asked for.
    var isStopRequested: Bool {
        state.lock()
        defer { state.unlock() }
        return stopPending
    }

    /// On the server thread, when `fd` is readable: empties the socket pair and says what was asked for since.
    func take() -> (wake: Bool, stop: Bool) {
        var sink = [UInt8](repeating: 0, count: 64)
        while sink.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
        state.lock()
        defer { state.unlock() }
        let asked = (wakePending, stopPending)
        wakePending = false
        return asked
    }

    /// One byte into the pair (the caller holds `state`). A full pair already wakes the loop, so EAGAIN is fine.
    private func poke() {
        var byte: UInt8 = 1
        _ = send(writeEnd, &byte, 1, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
    }

    /// Called by the loop as it starts, on its thread.
    func loopStarted() {
        state.lock()
        serverThread = pthread_self()
        state.unlock()
    }

    /// Called by the loop when it has finished, on its thread.
    func loopEnded() {
        state.lock()
        ended = true
        state.broadcast()
        state.unlock()
    }

    /// True on the loop's own thread.
    var isServerThread: Bool {
        state.lock()
        defer { state.unlock() }
        return serverThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    /// True once the loop has finished.
    var hasEnded: Bool {
        state.lock()
        defer { state.unlock() }
        return ended
    }

    /// Waits until the loop has finished.
    func waitUntilEnded() {
        state.lock()
        while !ended { state.wait() }
        state.unlock()
    }
}
