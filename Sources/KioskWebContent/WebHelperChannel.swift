internal import CKioskFDShim
import Glibc

/// The helper's end of its socket to the player: messages out (a frame's memfd attached), and frames copied into
/// sealed memfds. The player's end is `WebHelperProcess`.
public struct WebHelperChannel: Sendable {
    /// The socket (a `SOCK_SEQPACKET` end).
    public let socket: Int32

    /// Wraps the socket `socket`, keeping few messages in flight on it (each may hold a frame's memfd): when the
    /// player stops reading, frames are dropped in the helper rather than piling up in the socket.
    public init(socket: Int32) {
        self.socket = socket
        var sendBuffer: Int32 = 4096
        setsockopt(socket, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Sends `message` (with `fd` attached unless -1) without waiting; false when it could not go (the socket full
    /// or closed).
    @discardableResult
    public func send(_ message: WebHelperMessage, fd: Int32 = -1) -> Bool {
        let bytes = message.bytes
        return bytes.withUnsafeBytes { kiosk_web_send(socket, $0.baseAddress, $0.count, fd, 1) } == bytes.count
    }

    /// A new memfd holding the `count` bytes at `pixels`, sealed against shrinking, growing and writing (so the
    /// player's mapping cannot fault); nil when it cannot be made.
    public static func sealedCopy(of pixels: UnsafeRawPointer, count: Int) -> Int32? {
        let fd = kiosk_web_memfd("kiosk-web-frame")
        guard fd >= 0 else { return nil }
        var done = 0
        while done < count {
            let n = pwrite(fd, pixels + done, count - done, off_t(done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { close(fd); return nil }
            done += n
        }
        guard kiosk_web_seal(fd) == 0 else { close(fd); return nil }
        return fd
    }
}
