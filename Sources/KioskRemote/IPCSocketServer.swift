import Foundation
@preconcurrency import Glibc
import KioskCore

/// The remote-control transport: a Unix stream socket (mpv's `--input-ipc-server`) served by its own thread,
/// one poll(2) loop over many clients. Incoming bytes are cut into lines for a `LineSessionHandler`; its replies
/// are queued per client, bounded, and written as the client reads them. A client that never reads is dropped;
/// it can block neither the server thread nor the handler. Thread-safe: `start`, `wake` and `stop` may be called
/// from any thread; the handler is only ever called on the server thread.
public final class IPCSocketServer: @unchecked Sendable {
    /// The socket file's path.
    public let path: String
    private let loop: IPCServerLoop
    private let signal: IPCLoopSignal
    private let lifecycle = NSLock()
    private var started = false
    private var stopped = false

    /// Binds and listens at `path`, whose file gets exactly `mode` (permission bits, 0o600 or 0o660), replacing a
    /// stale socket there and making a missing folder (one level, mode 0700). Serves nothing until `start()`.
    /// Lines longer than `maxLineBytes` close their client; a client with more than `maxQueuedBytes` of replies
    /// waiting is dropped.
    /// - Throws: `IPCServerError` when the path is too long, its folder cannot be had, another server listens
    ///   there, something that is not a socket is there, or a socket call fails.
    public init(path: String, mode: UInt32, handler: LineSessionHandler, log: Log, maxLineBytes: Int = 1 << 20,
                maxQueuedBytes: Int = 4 << 20) throws(IPCServerError) {
        let listener = try IPCSocketBinding.listen(path: path, mode: mode, log: log)
        let signal: IPCLoopSignal
        do { signal = try IPCLoopSignal(path: path) } catch {
            listener.close()
            throw error
        }
        self.path = path
        self.signal = signal
        loop = IPCServerLoop(listener: listener, signal: signal, handler: handler, log: log,
                             maxLineBytes: maxLineBytes, maxQueuedBytes: maxQueuedBytes)
        log.info("ipc: listening on \(path) (mode \(Self.octal(mode & 0o777)))")
    }

    deinit { stop() }

    /// Starts the server thread (once; not after `stop()`).
    public func start() {
        lifecycle.lock()
        defer { lifecycle.unlock() }
        guard !started, !stopped else { return }
        started = true
        let loop = self.loop  // the thread holds the loop, not the server, so that dropping the server stops it
        let thread = Thread { loop.run() }
        thread.name = "kiosk-ipc"
        thread.start()
    }

    /// Makes the server thread call the handler's `woken` soon. From any thread; never blocks; wakes raised
    /// before the thread gets to them make one call.
    public func wake() {
        signal.raise()
    }

    /// Closes every client (the handler's `closed` is called for each), stops listening, removes the socket file
    /// and waits for the server thread to end. Idempotent. Called from a handler (on the server thread), it
    /// returns at once and the thread ends when the handler's call returns.
    public func stop() {
        lifecycle.lock()
        let wasRunning = started
        let first = !stopped
        stopped = true
        lifecycle.unlock()
        guard wasRunning else {
            if first { loop.shutdown() }  // never started: nothing to hand back to a thread
            return
        }
        signal.requestStop()
        if !signal.isServerThread { signal.waitUntilEnded() }
    }

    /// True from `start()` until the server thread has ended.
    var isRunning: Bool {
        lifecycle.lock()
        defer { lifecycle.unlock() }
        return started && !signal.hasEnded
    }

    /// `0600`.
    private static func octal(_ mode: UInt32) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
