import Foundation
@preconcurrency import Glibc
import KioskCore

/// The server thread of `IPCSocketServer`: one poll(2) loop over the signal, the listening socket and the
/// clients, and the `LineServerContext` that the handler answers through.
///
/// Threads: `run()` and everything it calls, the handler's calls and the context's methods happen on the server
/// thread only; `shutdown()` runs there too, or on the caller's thread when the loop never ran. Other threads
/// talk to it only through `signal`; hence `@unchecked Sendable`.
final class IPCServerLoop: LineServerContext, @unchecked Sendable {
    /// Wakeups and stop requests from other threads.
    let signal: IPCLoopSignal
    private let listener: IPCListeningSocket
    private let handler: LineSessionHandler
    private let log: Log
    private let maxLineBytes: Int
    private let maxQueuedBytes: Int

    private var connections: [ClientID: IPCClientConnection] = [:]
    /// Clients closed and not yet told to the handler: it hears of them after the call that is under way, so
    /// its calls never nest.
    private var gone: [ClientID] = []
    private var nextClient = 1
    /// Accepting waits until this monotonic time after accept(2) ran out of descriptors or memory.
    private var acceptResumes: Double?
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    /// A loop serving `listener` (which it owns) with `handler`.
    init(listener: IPCListeningSocket, signal: IPCLoopSignal, handler: LineSessionHandler, log: Log,
         maxLineBytes: Int, maxQueuedBytes: Int) {
        self.listener = listener
        self.signal = signal
        self.handler = handler
        self.log = log
        self.maxLineBytes = max(1, maxLineBytes)
        self.maxQueuedBytes = max(1, maxQueuedBytes)
    }

    /// Serves until a stop is asked for, then shuts down. Blocks only in poll(2).
    func run() {
        signal.loopStarted()
        while !signal.isStopRequested {
            let ids = connections.keys.sorted { $0.value < $1.value }
            let listening = acceptResumes.map { MonotonicClock.seconds() >= $0 } ?? true
            if listening { acceptResumes = nil }
            var fds = [pollfd(fd: signal.fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: listening ? listener.fd : -1, events: Int16(POLLIN), revents: 0)]
            for id in ids {
                let queued = (connections[id]?.queuedBytes ?? 0) > 0
                fds.append(pollfd(fd: connections[id]?.fd ?? -1, events: Int16(queued ? POLLIN | POLLOUT : POLLIN),
                                  revents: 0))
            }
            if poll(&fds, nfds_t(fds.count), listening ? -1 : 100) < 0 {
                if errno != EINTR {
                    log.error("ipc: poll: \(IPCServerError.text(errno))")
                    usleep(100_000)  // never spin on a failing poll
                }
                continue
            }
            if fds[0].revents != 0 {
                let asked = signal.take()
                if asked.stop { break }
                if asked.wake {
                    handler.woken(context: self)
                    tellGone()
                }
            }
            for (i, id) in ids.enumerated() where fds[i + 2].revents != 0 {
                serve(id, events: Int32(fds[i + 2].revents))
            }
            if fds[1].revents != 0 { acceptClients() }
        }
        shutdown()
        signal.loopEnded()
    }

    /// Closes every client (the handler hears of each), the listening socket, and removes the socket file.
    func shutdown() {
        for id in connections.keys.sorted(by: { $0.value < $1.value }) { drop(id, why: "the server stops") }
        tellGone()
        listener.close()
    }

    // MARK: - Clients

    /// Writes and reads what poll said `id` is ready for.
    private func serve(_ id: ClientID, events: Int32) {
        if events & Int32(POLLOUT) != 0, let c = connections[id] { flush(c) }
        if events & Int32(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0, let c = connections[id] { read(c) }
        tellGone()
    }

    /// Reads once (at most 64 KiB, so that one busy client cannot starve the others) and hands on whole lines.
    private func read(_ c: IPCClientConnection) {
        let got = buffer.withUnsafeMutableBytes { c.receive(into: $0) }
        switch got {
        case .nothing:
            return
        case .end:
            _ = c.flush()  // a client that only half-closed still gets the replies already queued, if they fit
            drop(c.id, why: "it closed the connection")
        case .failed(let code):
            drop(c.id, why: "read: \(IPCServerError.text(code))")
        case .bytes(let n):
            guard !c.closesWhenFlushed else { return }  // closing: the rest of its data is thrown away
            let (lines, overlong) = buffer.withUnsafeBytes { c.framer.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            for line in lines {
                guard connections[c.id] === c, !c.closesWhenFlushed else { return }
                handler.received(line, from: c.id, context: self)
            }
            guard overlong, connections[c.id] === c, !c.closesWhenFlushed else { return }
            log.warn("ipc: \(c.id) sent a line over \(Self.size(maxLineBytes)): closing it")
            handler.overlong(from: c.id, limit: maxLineBytes, context: self)
            guard connections[c.id] === c else { return }
            c.closesWhenFlushed = true
            flush(c)
        }
    }

    /// Writes what is queued for `c`; closes it when it is done with, or gone.
    private func flush(_ c: IPCClientConnection) {
        switch c.flush() {
        case .empty: if c.closesWhenFlushed { drop(c.id, why: "closed after its last reply") }
        case .blocked: break
        case .failed(let code): drop(c.id, why: "write: \(IPCServerError.text(code))")
        }
    }

    /// Takes every waiting connection (a bounded number per turn).
    private func acceptClients() {
        for _ in 0..<64 {
            switch IPCAccept.next(on: listener.fd) {
            case .success(let fd):
                let id = ClientID(nextClient)
                nextClient += 1
                connections[id] = IPCClientConnection(id: id, fd: fd, maxLineBytes: maxLineBytes)
                log.debug("ipc: \(id) connected")
                handler.accepted(id, context: self)
                tellGone()
            case .failure(let e) where e.code == EAGAIN || e.code == EWOULDBLOCK:
                return
            case .failure(let e) where e.code == ECONNABORTED:
                continue
            case .failure(let e):  // EMFILE, ENFILE, ENOBUFS…: the socket stays readable, so pause or spin
                log.warn("ipc: accept: \(IPCServerError.text(e.code)): not accepting for 0.1 s")
                acceptResumes = MonotonicClock.seconds() + 0.1
                return
            }
        }
    }

    /// Closes `id`'s socket now and notes it for the handler's `closed`.
    private func drop(_ id: ClientID, why: String) {
        guard let c = connections.removeValue(forKey: id) else { return }
        c.close()
        gone.append(id)
        log.debug("ipc: \(id) closed (\(why))")
    }

    /// Tells the handler of the clients closed since it last heard (its `closed` may close more).
    private func tellGone() {
        while !gone.isEmpty {
            handler.closed(gone.removeFirst(), context: self)
        }
    }

    /// `4 MiB`, `64 KiB` or `100 bytes`.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    // MARK: - LineServerContext

    func send(_ bytes: [UInt8], to client: ClientID) -> Bool {
        guard let c = connections[client], !c.closesWhenFlushed else { return false }
        guard c.queuedBytes + bytes.count <= maxQueuedBytes else {
            log.warn("ipc: \(client) does not read its replies: dropped (over \(Self.size(maxQueuedBytes)) queued)")
            drop(client, why: "it does not read its replies")
            return false
        }
        c.enqueue(bytes)
        return true
    }

    func close(_ client: ClientID, flush: Bool) {
        guard let c = connections[client] else { return }
        if flush, c.queuedBytes > 0 {
            c.closesWhenFlushed = true  // closed by `flush(_:)` once the queue is written
        } else {
            drop(client, why: "closed by the server")
        }
    }

    var clients: [ClientID] { connections.keys.sorted { $0.value < $1.value } }
}
