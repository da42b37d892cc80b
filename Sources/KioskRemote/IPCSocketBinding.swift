@preconcurrency import Glibc
import KioskCore

/// A listening Unix socket and the file it is bound to.
struct IPCListeningSocket {
    /// The listening descriptor (non-blocking, closed on exec).
    let fd: Int32
    /// The socket file's path.
    let path: String
    /// The socket file's device and inode, to tell it from a file another server put there later.
    let identity: (device: dev_t, inode: ino_t)

    /// Closes the descriptor and removes the socket file, unless the file at the path is no longer this one.
    func close() {
        _ = Glibc.close(fd)
        var st = stat()
        guard lstat(path, &st) == 0, st.st_dev == identity.device, st.st_ino == identity.inode else { return }
        unlink(path)
    }
}

/// Binds the remote-control socket as mpv's `--input-ipc-server` does, with kiosk's rules: the file has exactly
/// the mode asked for from the moment it appears; a stale socket is replaced, a live one is an error, anything
/// that is not a socket is an error and is never removed; a missing folder is made (one level, mode 0700).
enum IPCSocketBinding {
    /// A listening socket at `path` whose file has mode `mode` (permission bits only).
    ///
    /// How the mode is kept race-free: bind(2) creates the socket file with `0777 & ~umask`, so the socket is bound
    /// under a temporary name in the same folder; nobody can connect to it then, as it is not listening yet. It
    /// gets its mode with chmod(2), starts listening, and only then appears at `path`: by link(2) when the path is
    /// free (which fails rather than replace something that appeared meanwhile), or by rename(2) over a stale
    /// socket. The final path never shows looser permissions, and never a socket that refuses connections (which
    /// another kiosk starting at the same time would take for stale). The umask, which is per process, is left alone.
    static func listen(path: String, mode: UInt32, log: Log) throws(IPCServerError) -> IPCListeningSocket {
        guard UnixSocketAddress(path: path) != nil else {
            throw IPCServerError(path: path, kind: .pathTooLong, reason: "the path is longer than a socket address "
                                 + "holds (\(UnixSocketAddress.capacity - 1) bytes)")
        }
        let (folder, base) = split(path)
        try makeFolder(folder, for: path, log: log)
        var stale = try isStale(path)
        let (fd, temporary) = try bindTemporary(beside: path, base: base)
        var st = stat()
        func fail(_ error: IPCServerError) -> IPCServerError {
            unlink(temporary)
            _ = Glibc.close(fd)
            return error
        }
        guard chmod(temporary, mode_t(mode & 0o777)) == 0 else { throw fail(.call("chmod", path: temporary, errno: errno)) }
        guard Glibc.listen(fd, SOMAXCONN) == 0 else { throw fail(.call("listen", path: path, errno: errno)) }
        guard lstat(temporary, &st) == 0 else { throw fail(.call("lstat", path: temporary, errno: errno)) }
        var installed = false
        if !stale {
            if link(temporary, path) == 0 {
                unlink(temporary)
                installed = true
            } else if errno == EEXIST {
                do { stale = try isStale(path) } catch { throw fail(error) }  // it appeared meanwhile
            }  // else a file system without hard links to sockets: the path was free, so rename
        }
        if !installed {
            guard rename(temporary, path) == 0 else { throw fail(.call("rename", path: path, errno: errno)) }
            if stale { log.info("ipc: replaced the stale socket at \(path)") }
        }
        return IPCListeningSocket(fd: fd, path: path, identity: (st.st_dev, st.st_ino))
    }

    /// The folder part (`.` when none) and the file name of `path`.
    private static func split(_ path: String) -> (folder: String, base: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// Makes `folder` (mode 0700) when it is missing; its own parent must exist.
    private static func makeFolder(_ folder: String, for path: String, log: Log) throws(IPCServerError) {
        var st = stat()
        if stat(folder, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFDIR else {
                throw IPCServerError(path: path, kind: .folderMissing, reason: "\(folder) is not a folder")
            }
            return
        }
        guard errno == ENOENT else { throw .call("stat \(folder)", path: path, errno: errno) }
        if mkdir(folder, 0o700) != 0 {
            if errno == ENOENT {
                throw IPCServerError(path: path, kind: .folderMissing,
                                     reason: "the folder above \(folder) is missing (only one level is made)")
            }
            guard errno == EEXIST else { throw .call("mkdir \(folder)", path: path, errno: errno) }
            return  // made meanwhile by someone else
        }
        _ = chmod(folder, 0o700)  // exactly 0700 whatever the umask
        log.info("ipc: made the folder \(folder) (mode 0700)")
    }

    /// False when nothing is at `path`, true for a socket nobody listens on; throws for a live socket and for
    /// anything that is not a socket.
    private static func isStale(_ path: String) throws(IPCServerError) -> Bool {
        var st = stat()
        guard lstat(path, &st) == 0 else {
            guard errno == ENOENT else { throw .call("lstat", path: path, errno: errno) }
            return false
        }
        guard st.st_mode & S_IFMT == S_IFSOCK else {
            let what = st.st_mode & S_IFMT == S_IFDIR ? "a folder" : "a file that is not a socket"
            throw IPCServerError(path: path, kind: .notASocket, reason: "\(what) is there (left alone)")
        }
        guard let address = UnixSocketAddress(path: path) else { return false }
        let probe = socket(AF_UNIX, UnixSocketAddress.streamFlags, 0)
        guard probe >= 0 else { throw .call("socket", path: path, errno: errno) }
        defer { _ = Glibc.close(probe) }
        switch address.connect(probe) {
        case nil, EAGAIN?:  // EAGAIN: a live server whose backlog is full
            throw IPCServerError(path: path, kind: .inUse, reason: "another server is listening there")
        case ECONNREFUSED?:
            return true
        case let code?:
            throw .call("connect", path: path, errno: code)
        }
    }

    /// A new socket bound to a fresh name beside `path` (whose file name is `base`), no longer than `path`, so
    /// it fits wherever `path` does.
    private static func bindTemporary(beside path: String, base: String) throws(IPCServerError)
        -> (fd: Int32, path: String) {
        let fd = socket(AF_UNIX, UnixSocketAddress.streamFlags, 0)
        guard fd >= 0 else { throw .call("socket", path: path, errno: errno) }
        let prefix = String(path.utf8.dropLast(base.utf8.count)) ?? ""  // the folder with its "/", or nothing
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let length = max(1, min(base.utf8.count - 1, 12))
        for _ in 0..<64 {
            let name = String((0..<length).map { _ in letters.randomElement() ?? "k" })
            let temporary = prefix + (base.utf8.count > 1 ? "." : "") + name
            guard temporary != path, let address = UnixSocketAddress(path: temporary) else { continue }
            switch address.bind(fd) {
            case nil: return (fd, temporary)
            case EADDRINUSE?: continue  // that name is taken: try another
            case let code?:
                _ = Glibc.close(fd)
                throw .call("bind", path: temporary, errno: code)
            }
        }
        _ = Glibc.close(fd)
        throw IPCServerError(path: path, kind: .system, reason: "bind: no free temporary name beside it")
    }
}
