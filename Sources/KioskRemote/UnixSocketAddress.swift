@preconcurrency import Glibc

/// A filled-in `sockaddr_un` for a file-system path, and the socket calls that take one.
struct UnixSocketAddress {
    /// Bytes in `sun_path`, the NUL included (108 on Linux).
    static let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    private var storage = sockaddr_un()

    /// The address of `path`; nil when the path is empty, holds a NUL, or does not fit with its NUL.
    init?(path: String) {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < Self.capacity, !bytes.contains(0) else { return nil }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { $0.copyBytes(from: bytes) }  // the rest stays zero
    }

    /// Calls `body` with the address as a `sockaddr` and its length.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var copy = storage
        return withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// bind(2) of `fd` to this address; the errno on failure.
    func bind(_ fd: Int32) -> Int32? {
        withSockaddr { Glibc.bind(fd, $0, $1) } == 0 ? nil : errno
    }

    /// connect(2) of `fd` to this address, retried on EINTR; the errno on failure.
    func connect(_ fd: Int32) -> Int32? {
        while true {
            if withSockaddr({ Glibc.connect(fd, $0, $1) }) == 0 { return nil }
            if errno != EINTR { return errno }
        }
    }

    /// The flags for a stream socket that is closed on exec and never blocks.
    static let streamFlags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
}
