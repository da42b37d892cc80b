import Foundation
@preconcurrency import Glibc

/// Why a test's socket call failed (or ran out of time).
struct SocketTestError: Error, CustomStringConvertible {
    /// One line.
    let description: String
}

/// A test's client of a Unix stream socket. Every call has a deadline, so a broken server fails the test instead
/// of hanging it. Writes use MSG_NOSIGNAL: a server that closes early is an error here, never SIGPIPE.
final class UnixSocketClient {
    /// The socket (non-blocking).
    let fd: Int32
    /// Bytes read and not yet returned as lines.
    private var inbox: [UInt8] = []

    /// Connects to `path` within `timeout` seconds (a full backlog is waited for).
    init(path: String, timeout: Double = 5) throws {
        switch Self.open(path: path, timeout: timeout) {
        case .success(let fd): self.fd = fd
        case .failure(let e): throw SocketTestError(description: "connect \(path): \(String(cString: strerror(e.code)))")
        }
    }

    deinit { close() }

    /// The errno of a connect to `path` (ENOENT, ECONNREFUSED…); nil when it connects (the socket is then closed).
    static func connectErrno(path: String) -> Int32? {
        switch open(path: path, timeout: 2) {
        case .success(let fd): Glibc.close(fd); return nil
        case .failure(let e): return e.code
        }
    }

    /// An errno.
    struct Errno: Error { let code: Int32 }

    /// A connected non-blocking socket, or the errno of connect(2).
    private static func open(path: String, timeout: Double) -> Result<Int32, Errno> {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return .failure(Errno(code: ENAMETOOLONG)) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { return .failure(Errno(code: errno)) }
            let r = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            let code = errno
            if r == 0 { return .success(fd) }
            Glibc.close(fd)
            guard code == EAGAIN, Date() < deadline else { return .failure(Errno(code: code)) }
            usleep(2_000)  // the backlog is full: the server is accepting
        }
    }

    /// Waits up to `deadline` for `events`; false on time-out.
    private func wait(_ events: Int32, until deadline: Date) -> Bool {
        var p = pollfd(fd: fd, events: Int16(events), revents: 0)
        while true {
            let ms = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            let n = poll(&p, 1, ms)
            if n > 0 { return true }
            if n == 0 || errno != EINTR { return false }
        }
    }

    /// Writes all of `bytes` within `timeout` seconds.
    func write(_ bytes: [UInt8], timeout: Double = 5) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress?.advanced(by: done), $0.count - done, Int32(MSG_NOSIGNAL)) }
            if n > 0 { done += n; continue }
            guard n < 0, errno == EAGAIN || errno == EINTR else {
                throw SocketTestError(description: "write: \(String(cString: strerror(errno))) after \(done) bytes")
            }
            guard wait(POLLOUT, until: deadline) else { throw SocketTestError(description: "write: timed out after \(done) bytes") }
        }
    }

    /// Writes `text`.
    func write(_ text: String, timeout: Double = 5) throws { try write(Array(text.utf8), timeout: timeout) }

    /// Reads what is there into the inbox; 0 at the end (EOF), -errno on failure, nil when nothing came in time.
    private func fill(until deadline: Date) -> Int? {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { inbox.append(contentsOf: chunk[..<n]); return n }
            if n == 0 { return 0 }
            guard errno == EAGAIN || errno == EINTR else { return -Int(errno) }
            guard wait(POLLIN, until: deadline) else { return nil }
        }
    }

    /// The next line (without "\n"); nil at the end of the stream. Throws on time-out or a failed read.
    func readLine(timeout: Double = 5) throws -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var scanned = 0
        while true {
            if let nl = inbox[scanned...].firstIndex(of: 10) {
                let line = String(decoding: inbox[..<nl], as: UTF8.self)
                inbox.removeFirst(nl + 1)
                return line
            }
            scanned = inbox.count
            guard let n = fill(until: deadline) else { throw SocketTestError(description: "readLine: timed out") }
            if n == 0 { return nil }
            if n < 0 { throw SocketTestError(description: "readLine: \(String(cString: strerror(Int32(-n))))") }
        }
    }

    /// Everything until the end of the stream, and how it ended: 0 for EOF, else the errno (ECONNRESET).
    func readToEnd(timeout: Double = 5) throws -> (bytes: [UInt8], end: Int32) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            guard let n = fill(until: deadline) else { throw SocketTestError(description: "readToEnd: timed out") }
            if n <= 0 {
                defer { inbox = [] }
                return (inbox, Int32(-n))
            }
        }
    }

    /// Closes the socket (once).
    func close() {
        if !closed { Glibc.close(fd) }
        closed = true
    }
    private var closed = false
}
