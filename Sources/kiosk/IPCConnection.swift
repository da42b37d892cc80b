import Foundation
import KioskCore

/// Why talking to an IPC server failed: one line naming the socket and the reason.
enum IPCClientError: Error, CustomStringConvertible, Equatable {
    /// Nothing listens at the socket (it does not exist, or nobody accepts on it): `connect` failed with `errno`.
    case noServer(socket: String, reason: String)
    /// Connecting failed otherwise (permission, not a socket, a path too long).
    case connect(socket: String, reason: String)
    /// A read or write on the connection failed.
    case io(socket: String, call: String, reason: String)
    /// The server closed the connection before it answered `request`.
    case closed(socket: String, request: String)
    /// No reply to `request` within `seconds`.
    case timeout(socket: String, request: String, seconds: Double)
    /// The server answered with a line that is not a JSON object.
    case badReply(socket: String, line: String)
    /// The server answered `request` with an error (mpv's error string).
    case failed(request: String, error: String)

    var description: String {
        switch self {
        case .noServer(let socket, let reason): return "no server at \(socket): \(reason)"
        case .connect(let socket, let reason): return "cannot connect to \(socket): \(reason)"
        case .io(let socket, let call, let reason): return "\(call) on \(socket): \(reason)"
        case .closed(let socket, let request): return "\(socket) closed the connection before it answered \(request)"
        case .timeout(let socket, let request, let seconds):
            return "no reply to \(request) from \(socket) within \(String(format: "%g", seconds)) s"
        case .badReply(let socket, let line): return "\(socket) sent a line that is not a JSON object: \(line.prefix(200))"
        case .failed(let request, let error): return "\(request): \(error)"
        }
    }
}

/// A point in time to wait until, and the wait it ends (for messages).
struct IPCDeadline {
    /// MonotonicClock seconds.
    let at: Double
    /// How long the wait is.
    let seconds: Double

    /// `seconds` from now.
    init(seconds: Double) {
        self.seconds = seconds
        at = MonotonicClock.seconds() + seconds
    }
}

/// One connection to a Unix stream socket that carries lines: send a line, read the next line within a deadline.
/// The socket is closed by `close()` or when the connection is released.
final class IPCConnection {
    /// The socket path, for messages.
    let socket: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var ended = false
    private let stopper: Stopper

    /// Ends a blocked read from another thread (a signal handler's queue): the read then sees the end of the
    /// stream, as if the server had gone away.
    final class Stopper: @unchecked Sendable {
        private let lock = NSLock()
        private var fd: Int32?

        init(_ fd: Int32) { self.fd = fd }

        /// Shuts the socket down for reading and writing; a no-op once the connection is closed.
        func stop() {
            lock.lock(); defer { lock.unlock() }
            if let fd { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }

        /// Forgets the descriptor (it is about to be closed and may be reused).
        func detach() -> Int32? {
            lock.lock(); defer { lock.unlock() }
            let old = fd
            fd = nil
            return old
        }
    }

    /// Connects to the server at `socket`. A missing socket file or a socket nobody accepts on is `.noServer`.
    /// Connecting (to a server whose backlog is full) and each write wait at most `timeout` seconds.
    init(socket: String, timeout: Double) throws(IPCClientError) {
        self.socket = socket
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socket.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !path.isEmpty, path.count < capacity else {
            throw .connect(socket: socket, reason: "the path is empty or longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.enumerated() { raw[i] = byte }
            raw[path.count] = 0
        }
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .connect(socket: socket, reason: "socket: \(Self.errnoText())") }
        var limit = timeval(tv_sec: Int(saturating: timeout, rounding: .towardZero), tv_usec: Int(saturating: (timeout - timeout.rounded(.down)) * 1_000_000, rounding: .towardZero))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if connected != 0 {
            let code = errno
            Glibc.close(fd)
            let reason = String(cString: strerror(code))
            if code == ENOENT || code == ECONNREFUSED { throw .noServer(socket: socket, reason: reason) }
            if code == EAGAIN { throw .timeout(socket: socket, request: "connect", seconds: timeout) }
            throw .connect(socket: socket, reason: reason)
        }
        self.fd = fd
        stopper = Stopper(fd)
    }

    deinit { close() }

    /// A descriptor whose hang-up ends the stream too (standard output, for a reader that waits for events to
    /// print: `kiosk ctl observe pause | head -1` ends when `head` does, not at the next change).
    var endOnHangUp: Int32?

    /// What ends a blocked `readLine` from another thread.
    var interrupter: Stopper { stopper }

    /// Closes the socket (once).
    func close() {
        if let fd = stopper.detach() { Glibc.close(fd) }
    }

    /// Writes `line` and a newline.
    func send(_ line: String) throws(IPCClientError) {
        var bytes = Array((line + "\n").utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw .io(socket: socket, call: "send", reason: Self.errnoText()) }
            bytes = bytes.dropFirst(n)
        }
    }

    /// The next line without its newline, waiting until `deadline` (nil: no limit). Returns nil at the end of the
    /// stream; throws `.timeout` naming `request` when the deadline passes.
    func readLine(until deadline: IPCDeadline?, request: String) throws(IPCClientError) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            if ended { return nil }
            try fill(until: deadline, request: request)
        }
    }

    /// Reads what is there into the buffer, after waiting for it until `deadline`.
    private func fill(until deadline: IPCDeadline?, request: String) throws(IPCClientError) {
        var timeout: Int32 = -1
        if let deadline {
            let left = deadline.at - MonotonicClock.seconds()
            guard left > 0 else { throw .timeout(socket: socket, request: request, seconds: deadline.seconds) }
            timeout = Int32(clamping: Int(saturating: min(left * 1000, Double(Int32.max)), rounding: .up))
        }
        var pollers = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        if let watched = endOnHangUp { pollers.append(pollfd(fd: watched, events: 0, revents: 0)) }
        let ready = poll(&pollers, nfds_t(pollers.count), timeout)
        if ready < 0 {
            if errno == EINTR { return }
            throw .io(socket: socket, call: "poll", reason: Self.errnoText())
        }
        if ready == 0 { return }  // the deadline check above throws on the next round
        if pollers.count > 1 && pollers[1].revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
            ended = true  // whoever reads what we print is gone: nothing more to wait for
            return
        }
        guard pollers[0].revents != 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 {
            if errno == EINTR || errno == EAGAIN { return }
            throw .io(socket: socket, call: "recv", reason: Self.errnoText())
        }
        if n == 0 {
            ended = true
            if !buffer.isEmpty { buffer.append(UInt8(ascii: "\n")) }  // a last line without its newline
            return
        }
        buffer.append(contentsOf: chunk[..<n])
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
