@preconcurrency import Glibc

/// Why the remote-control socket could not be served, in one line naming the socket's path and the reason.
public struct IPCServerError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What went wrong, for callers (and tests) that act on the kind rather than the text.
    public enum Kind: Sendable, Equatable {
        /// The path does not fit in `sun_path` (107 bytes and a NUL).
        case pathTooLong
        /// The socket's folder cannot be had: the folder above it is missing (only one level is made), or
        /// something that is not a folder is in its place.
        case folderMissing
        /// Something that is not a socket (a file, a folder) is at the path; it is left alone.
        case notASocket
        /// A server accepts connections at the path.
        case inUse
        /// A system call failed.
        case system
    }

    /// The socket's path.
    public var path: String
    /// What went wrong.
    public var kind: Kind
    /// Why, in words (with the call and `strerror` text when a call failed).
    public var reason: String

    /// Creates an error.
    public init(path: String, kind: Kind, reason: String) {
        self.path = path
        self.kind = kind
        self.reason = reason
    }

    /// A failed system call: `call: strerror(code)`.
    static func call(_ call: String, path: String, errno code: Int32) -> IPCServerError {
        IPCServerError(path: path, kind: .system, reason: "\(call): \(IPCServerError.text(code))")
    }

    /// `strerror(code)` as a string.
    static func text(_ code: Int32) -> String {
        guard let s = strerror(code) else { return "error \(code)" }
        return String(cString: s)
    }

    /// `ipc socket PATH: reason`.
    public var description: String { "ipc socket \(path): \(reason)" }
}
