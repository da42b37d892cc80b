@preconcurrency import Glibc

/// One connected client, on the server thread: its descriptor, the lines coming in, and the replies queued
/// for it. Reads and writes never block.
final class IPCClientConnection {
    /// Who it is.
    let id: ClientID
    /// The connected socket (non-blocking, closed on exec).
    let fd: Int32
    /// Its incoming lines.
    var framer: LineFramer
    /// Set when the connection is to close once its queue is written (after an overlong line, or the handler's
    /// `close(_:flush: true)`); what the client sends from then on is read and thrown away.
    var closesWhenFlushed = false

    /// Replies not yet written, in order; `chunks[head]` is written up to `offset`.
    private var chunks: [[UInt8]] = []
    private var head = 0
    private var offset = 0
    /// Bytes queued and not yet written.
    private(set) var queuedBytes = 0

    /// A connection on `fd`, which it owns until `close()`.
    init(id: ClientID, fd: Int32, maxLineBytes: Int) {
        self.id = id
        self.fd = fd
        framer = LineFramer(maxLineBytes: maxLineBytes)
    }

    /// What one read gave.
    enum Received {
        /// This many bytes, at the start of the buffer.
        case bytes(Int)
        /// Nothing to read now.
        case nothing
        /// The client closed its end.
        case end
        /// The read failed with this errno (ECONNRESET…).
        case failed(Int32)
    }

    /// Reads what is there into `buffer`.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Received {
        while true {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n > 0 { return .bytes(n) }
            if n == 0 { return .end }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .nothing
            case let code: return .failed(code)
            }
        }
    }

    /// Appends `bytes` to the queue.
    func enqueue(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        chunks.append(bytes)
        queuedBytes += bytes.count
    }

    /// What writing the queue gave.
    enum Flushed {
        /// All of it is written.
        case empty
        /// The socket is full; the rest waits for POLLOUT.
        case blocked
        /// The write failed with this errno (EPIPE, ECONNRESET: the client left).
        case failed(Int32)
    }

    /// Writes as much of the queue as the socket takes. MSG_NOSIGNAL: a client gone is EPIPE, never SIGPIPE.
    func flush() -> Flushed {
        defer { compact() }
        while head < chunks.count {
            let n = chunks[head].withUnsafeBytes { all in
                let rest = UnsafeRawBufferPointer(rebasing: all[offset...])
                return send(fd, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if n < 0 {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .blocked
                case let code: return .failed(code)
                }
            }
            queuedBytes -= n
            offset += n
            if offset == chunks[head].count {
                head += 1
                offset = 0
            }
        }
        return .empty
    }

    /// Drops written chunks from the front once they are most of the array.
    private func compact() {
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 32, head * 2 > chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
    }

    /// Closes the socket.
    func close() {
        _ = Glibc.close(fd)
    }
}
