import Foundation
import XCTest

/// A datagram socket standing in for systemd's notification socket (`NOTIFY_SOCKET`): a file, or an abstract
/// address (`@name`). Closed, and its file removed, at deinit.
final class NotifySocket {
    /// The descriptor (non-blocking).
    let fd: Int32
    /// What `NOTIFY_SOCKET` is set to: the path, or `@` and the abstract name.
    let address: String
    private let file: String?

    /// A socket bound at `path`, or at the abstract `name` when `abstract` (the value is then `@name`).
    init(_ name: String, abstract: Bool = false) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw NSError(domain: "socket: \(String(cString: strerror(errno)))", code: Int(errno)) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        let offset = abstract ? 1 : 0  // an abstract address starts with a NUL byte
        guard bytes.count + offset < MemoryLayout.size(ofValue: addr.sun_path) else {
            close(fd)
            throw NSError(domain: "socket name too long: \(name)", code: 0)
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i + offset] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + offset + (abstract ? 0 : 1))
        let r = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard r == 0 else {
            let e = errno
            close(fd)
            throw NSError(domain: "bind \(name): \(String(cString: strerror(e)))", code: Int(e))
        }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, Self.timestampOption, &on, socklen_t(MemoryLayout<Int32>.size))
        self.fd = fd
        address = abstract ? "@" + name : name
        file = abstract ? nil : name
    }

    /// The next message, if one is waiting, with when it was sent: the kernel's stamp (SO_TIMESTAMPNS, taken as
    /// the sender queued it; CLOCK_REALTIME seconds), so a busy test thread does not move the times.
    func receive() -> (text: String, sent: Double)? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var control = [UInt8](repeating: 0, count: 128)
        var sent = Date().timeIntervalSince1970
        let n = buffer.withUnsafeMutableBytes { data in
            control.withUnsafeMutableBytes { ctl -> Int in
                var iov = iovec(iov_base: data.baseAddress, iov_len: data.count)
                return withUnsafeMutablePointer(to: &iov) { iovp -> Int in
                    var msg = msghdr()
                    msg.msg_iov = iovp
                    msg.msg_iovlen = 1
                    msg.msg_control = ctl.baseAddress
                    msg.msg_controllen = ctl.count
                    let n = recvmsg(fd, &msg, 0)
                    // One control message: struct cmsghdr { size_t len; int level; int type; } then a timespec.
                    let header = MemoryLayout<Int>.size + 8
                    if n >= 0, msg.msg_controllen >= header + MemoryLayout<timespec>.size,
                       ctl.load(fromByteOffset: MemoryLayout<Int>.size, as: Int32.self) == SOL_SOCKET,
                       ctl.load(fromByteOffset: MemoryLayout<Int>.size + 4, as: Int32.self) == Self.timestampOption {
                        let ts = ctl.loadUnaligned(fromByteOffset: header, as: timespec.self)
                        sent = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
                    }
                    return n
                }
            }
        }
        return n >= 0 ? (String(decoding: buffer[..<n], as: UTF8.self), sent) : nil
    }

    /// SO_TIMESTAMPNS (SCM_TIMESTAMPNS) from asm-generic/socket.h.
    private static let timestampOption: Int32 = 35

    deinit {
        close(fd)
        if let file { unlink(file) }
    }
}

/// A kiosk run as a service manager would see it: every notification with when it came and what standard error
/// held by then, and standard error itself, written into a pipe whose device and inode the test knows (so
/// `JOURNAL_STREAM` can name it). Bounded in time: past `timeout` the child is killed and the test fails.
struct SupervisedRun {
    /// One notification.
    struct Message {
        /// The datagram's text, e.g. `READY=1`.
        var text: String
        /// Seconds from the start when it was sent (the kernel's stamp).
        var seconds: Double
        /// Standard error as written before the datagram was sent (every byte written before then is read first).
        var stderrBefore: String
    }

    /// What `JOURNAL_STREAM` says.
    enum Journal {
        /// Not set.
        case unset
        /// The device and inode of the child's standard error, as systemd sets it for a journal stream.
        case standardError
        /// This value.
        case value(String)
    }

    var messages: [Message] = []
    var stderr = ""
    var status: Int32 = -1

    /// The messages' texts.
    var texts: [String] { messages.map(\.text) }

    /// Runs `executable` with `arguments`. The environment is the test's without the service manager's variables
    /// (`NOTIFY_SOCKET`, `WATCHDOG_*`, `JOURNAL_STREAM`), plus software GL and `environment`.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    notify: NotifySocket? = nil, journal: Journal = .unset, timeout: Double,
                    file: StaticString = #filePath, line: UInt = #line) throws -> SupervisedRun {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw NSError(domain: "pipe", code: Int(errno)) }
        let errRead = fds[0], errWrite = fds[1]
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }  // the child gets its copy as fd 2 only
        defer { close(errRead) }
        var env = ProcessInfo.processInfo.environment
        for k in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM"] { env[k] = nil }
        env["LIBGL_ALWAYS_SOFTWARE"] = "1"
        if let notify { env["NOTIFY_SOCKET"] = notify.address }
        switch journal {
        case .unset: break
        case .value(let v): env["JOURNAL_STREAM"] = v
        case .standardError:
            var st = stat()
            guard fstat(errWrite, &st) == 0 else { throw NSError(domain: "fstat", code: Int(errno)) }
            env["JOURNAL_STREAM"] = "\(st.st_dev):\(st.st_ino)"
        }
        env.merge(environment) { $1 }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(fileDescriptor: errWrite, closeOnDealloc: false)
        let start = Date()
        do {
            try process.run()
        } catch {
            close(errWrite)
            throw error
        }
        close(errWrite)  // the child has its copy; the pipe ends when the child's closes
        _ = fcntl(errRead, F_SETFL, fcntl(errRead, F_GETFL) | O_NONBLOCK)

        var result = SupervisedRun()
        var err = Data()
        var errOpen = true
        func drainStderr() {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while errOpen {
                let n = read(errRead, &buffer, buffer.count)
                if n > 0 { err.append(contentsOf: buffer[..<n]); continue }
                if n == 0 { errOpen = false }
                break  // EAGAIN: all that was written so far is read
            }
        }
        func drainMessages() {
            guard let notify else { return }
            while let (text, sent) = notify.receive() {
                // Read standard error first: what the child wrote before sending is in the pipe already.
                drainStderr()
                result.messages.append(Message(text: text, seconds: sent - start.timeIntervalSince1970,
                                               stderrBefore: String(decoding: err, as: UTF8.self)))
            }
        }
        while true {
            var polled = [pollfd(fd: notify?.fd ?? -1, events: Int16(POLLIN), revents: 0),
                          pollfd(fd: errOpen ? errRead : -1, events: Int16(POLLIN), revents: 0)]
            _ = poll(&polled, nfds_t(polled.count), 50)
            drainMessages()
            drainStderr()
            if !errOpen && !process.isRunning { break }
            if Date().timeIntervalSince(start) > timeout {
                XCTFail("\(executable) \(arguments.joined(separator: " ")) did not finish in \(timeout) s; stderr: "
                        + String(decoding: err.suffix(2000), as: UTF8.self), file: file, line: line)
                kill(process.processIdentifier, SIGKILL)
                break
            }
        }
        process.waitUntilExit()
        drainMessages()
        result.stderr = String(decoding: err, as: UTF8.self)
        result.status = process.terminationStatus
        return result
    }
}
