@preconcurrency import Glibc

/// accept(2) of one connection on `listener`, non-blocking and closed on exec from the start.
enum IPCAccept {
    private typealias Accept4 = @convention(c) (Int32, UnsafeMutablePointer<sockaddr>?,
                                                UnsafeMutablePointer<socklen_t>?, Int32) -> Int32
    /// glibc's accept4, which Swift's Glibc module does not import (it is a _GNU_SOURCE declaration).
    private static let accept4: Accept4? = dlsym(nil, "accept4").map { unsafeBitCast($0, to: Accept4.self) }

    /// The new connection's descriptor, or the errno (EAGAIN when none is waiting).
    static func next(on listener: Int32) -> Result<Int32, IPCAcceptError> {
        while true {
            let fd: Int32
            if let accept4 {
                fd = accept4(listener, nil, nil, Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
            } else {  // a libc without accept4: the flags right after (a fork in between could leak the fd)
                fd = accept(listener, nil, nil)
                if fd >= 0 {
                    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                }
            }
            if fd >= 0 { return .success(fd) }
            if errno != EINTR { return .failure(IPCAcceptError(code: errno)) }
        }
    }
}

/// accept(2)'s errno.
struct IPCAcceptError: Error {
    /// The errno.
    let code: Int32
}
