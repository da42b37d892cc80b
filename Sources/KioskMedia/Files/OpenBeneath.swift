@preconcurrency import Glibc
internal import CKioskOpenShim
import KioskCore

/// Opens a file by a name relative to an open folder, in one step that cannot leave that folder: the checked
/// file is the opened one, so a symlink swapped in after a check changes nothing. `openat2` with
/// `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS` does the lookup (Linux 5.6 and later); on an older kernel
/// (`ENOSYS`) a walk opens one component at a time with `O_NOFOLLOW`, refusing every symlink and `..`.
public enum OpenBeneath {
    /// `O_PATH`, which Glibc's Swift module leaves out: a descriptor that names a folder for `*at` calls only.
    static var pathOnly: Int32 { kiosk_o_path() }

    /// Opens `name` beneath the folder `folder` (a descriptor) with `open(2)`'s `flags` and `mode`, and returns
    /// the new descriptor (the caller closes it). Throws a `MediaError` naming `name` when the name holds a NUL
    /// byte, is empty, or resolves outside the folder (`..`, an absolute path or symlink, a magic link), or the
    /// open fails. `walk` forces the component walk (the fallback), for tests.
    public static func open(_ name: String, in folder: Int32, flags: Int32, mode: mode_t = 0,
                            walk: Bool = false) throws(MediaError) -> Int32 {
        guard !name.utf8.contains(0) else { throw MediaError(path: name, reason: "refused: the path holds a NUL byte") }
        guard !name.isEmpty else { throw MediaError(path: name, reason: "refused: the path is empty") }
        // openat2 refuses any flag O_PATH ignores, O_NOCTTY among them
        let all = flags & pathOnly != 0 ? flags | O_CLOEXEC : flags | O_CLOEXEC | O_NOCTTY
        if !walk {
            let fd = FileName.withCString(name) {
                kiosk_openat2(folder, $0, UInt64(UInt32(bitPattern: all)), UInt64(mode), kiosk_resolve_beneath())
            }
            if fd >= 0 { return fd }
            if errno != ENOSYS { throw failure(name, errno) }
        }
        return try walkOpen(name, in: folder, flags: all, mode: mode)
    }

    /// The fallback: every folder component opened with `O_PATH | O_DIRECTORY | O_NOFOLLOW` from the one
    /// before, the last with `O_NOFOLLOW`; `..` and an absolute name are refused before any open.
    private static func walkOpen(_ name: String, in folder: Int32, flags: Int32, mode: mode_t) throws(MediaError) -> Int32 {
        guard !name.hasPrefix("/") else { throw failure(name, EXDEV) }
        let parts = name.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
        guard !parts.contains(".."), let last = parts.last else { throw failure(name, parts.isEmpty ? EISDIR : EXDEV) }
        var current = folder
        defer { if current != folder { close(current) } }
        for part in parts.dropLast() {
            let next = FileName.withCString(part) { openat(current, $0, kiosk_o_path() | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            guard next >= 0 else { throw failure(name, isSymlink(part, in: current) ? ELOOP : errno) }
            if current != folder { close(current) }
            current = next
        }
        let fd = FileName.withCString(last) { openat(current, $0, flags | O_NOFOLLOW, mode) }
        guard fd >= 0 else { throw failure(name, isSymlink(last, in: current) ? ELOOP : errno) }
        return fd
    }

    /// Whether `part` in the folder `folder` is a symlink (an `O_NOFOLLOW` open of one fails with `ENOTDIR` or
    /// `ELOOP`, which alone would not say so).
    private static func isSymlink(_ part: String, in folder: Int32) -> Bool {
        var st = stat()
        return FileName.withCString(part) { fstatat(folder, $0, &st, AT_SYMLINK_NOFOLLOW) } == 0 && st.st_mode & S_IFMT == S_IFLNK
    }

    /// The one-line error for `code` (`EXDEV` and `ELOOP` are the lookup leaving the folder or meeting a link
    /// it may not follow).
    private static func failure(_ name: String, _ code: Int32) -> MediaError {
        switch code {
        case EXDEV: return MediaError(path: name, reason: "refused: resolves outside the folder")
        case ELOOP: return MediaError(path: name, reason: "refused: a symlink that leaves the folder or cannot be followed")
        case ENOENT: return MediaError(path: name, reason: "no such file")
        default: return MediaError(path: name, reason: "cannot open: \(String(cString: strerror(code)))")
        }
    }
}
