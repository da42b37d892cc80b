@preconcurrency import Glibc
import KioskCore

/// The one gate between a path and the bytes behind it: kiosk opens local regular files only. A path is
/// resolved to an absolute, symlink-free one and checked with `stat` before anything opens it, so a FIFO, a
/// device or a socket (directly or behind a symlink) is refused at once instead of blocking a reader. A path
/// beneath `--media-root` is instead opened once, through the root's descriptor (`MediaConfinement`), and every
/// later read goes through that open file (`/proc/self/fd/N`), so the file checked is the file read.
struct LocalFile {
    /// The path as the user gave it, for messages.
    let path: String
    /// The absolute path with every symlink followed (`realpath`).
    let resolved: String
    /// The size of the regular file in bytes.
    let size: Int
    /// The file opened beneath the media root, kept open while this value lives; nil elsewhere.
    private let opened: OpenedFile?

    /// Resolves and checks `path`; throws "no such file", "is a directory" or "not a regular file (…)".
    init(_ path: String) throws {
        self.path = path
        if MediaConfinement.beneath(path) != nil {
            let fd = try MediaConfinement.openForReading(path)
            let file = OpenedFile(fd)
            var st = stat()
            guard fstat(fd, &st) == 0 else { throw MediaError(path: path, reason: "cannot stat: \(Self.errorText())") }
            try Self.requireRegular(st.st_mode, path: path)
            opened = file
            resolved = "/proc/self/fd/\(fd)"
            size = Int(st.st_size)
            return
        }
        opened = nil
        var st = stat()
        guard FileName.withCString(path, { stat($0, &st) }) == 0 else {  // stat follows symlinks: the target is judged
            let missing = errno == ENOENT || errno == ENOTDIR
            // A name that is not a local file and reads as a URL (a remote `loadfile https://…`) is named as one.
            if missing, M3U.localPath(path) == nil {
                throw MediaError(path: path, reason: "a URL: kiosk is an offline player and opens local files only (no connection was made)")
            }
            throw MediaError(path: path, reason: missing ? "no such file" : "cannot stat: \(Self.errorText())")
        }
        try Self.requireRegular(st.st_mode, path: path)
        guard let real = FileName.withCString(path, { realpath($0, nil) }) else {
            throw MediaError(path: path, reason: "cannot resolve: \(Self.errorText())")
        }
        resolved = FileName.decode(UnsafeRawBufferPointer(start: real, count: strlen(real)))
        free(real)
        size = Int(st.st_size)
    }

    /// The URL ffmpeg opens: `file:` and the absolute resolved path. ffmpeg's file protocol takes everything
    /// after `file:` literally (no percent-decoding, no query), so no character needs escaping, and a leading
    /// `http:`, `subfile,…:` or `%d` in a folder or file name stays part of the name.
    var ffmpegURL: String { "file:" + resolved }

    /// The URL ffmpeg writes `path` through: `file:` and the absolute path (a relative one joined to the
    /// current folder), so a name such as `http://host/x.mp4` is a file under a folder named `http:`.
    static func outputURL(_ path: String) -> String {
        guard !path.hasPrefix("/"), let cwd = getcwd(nil, 0) else { return "file:" + path }
        defer { free(cwd) }
        return "file:" + String(cString: cwd) + "/" + path
    }

    /// Opens the file for reading. `O_NONBLOCK` keeps a FIFO swapped in after the check from blocking the open,
    /// and `fstat` on the opened descriptor refuses it; the caller closes the descriptor.
    func openForReading() throws -> Int32 {
        let fd = FileName.withCString(resolved) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        guard fd >= 0 else { throw MediaError(path: path, reason: "cannot open for reading: \(Self.errorText())") }
        var st = stat()
        do {
            guard fstat(fd, &st) == 0 else { throw MediaError(path: path, reason: "cannot stat: \(Self.errorText())") }
            try Self.requireRegular(st.st_mode, path: path)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Throws unless `mode` is a regular file's, naming what it is instead.
    private static func requireRegular(_ mode: mode_t, path: String) throws {
        switch mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw MediaError(path: path, reason: "is a directory")
        case S_IFIFO: throw MediaError(path: path, reason: "not a regular file (a FIFO)")
        case S_IFCHR, S_IFBLK: throw MediaError(path: path, reason: "not a regular file (a device)")
        case S_IFSOCK: throw MediaError(path: path, reason: "not a regular file (a socket)")
        default: throw MediaError(path: path, reason: "not a regular file")
        }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

/// A descriptor closed when the last `LocalFile` holding it goes.
private final class OpenedFile {
    let fd: Int32
    init(_ fd: Int32) { self.fd = fd }
    deinit { close(fd) }
}
