@preconcurrency import Glibc
import KioskCore

/// Writes a whole file the way a screenshot must be written: into a new temporary file in the target's folder,
/// then renamed over the name with `renameat`, both through one descriptor of that folder. The folder is opened
/// beneath `--media-root` when it lies there (`MediaConfinement`), so a symlink swapped in for the folder after
/// the gate's check cannot send the write outside, and a symlink at the name itself is replaced, never followed.
/// A reader never sees half a file; a failed write leaves the old file as it was.
enum ReplacingFileWrite {
    /// Writes `bytes` to `path` (`format` names it in errors, "PNG" or "JPEG").
    static func write(_ bytes: [UInt8], to path: String, format: String) throws(MediaError) {
        let (folder, name) = try MediaConfinement.openParent(of: path)
        defer { close(folder) }
        let temporary = ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        func failed(_ what: String, _ code: Int32) -> MediaError {
            MediaError(path: path, reason: "cannot \(what) \(format): \(String(cString: strerror(code)))")
        }
        let fd = FileName.withCString(temporary) { openat(folder, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw failed("create", errno) }
        var written = 0
        var code: Int32 = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { buf in Glibc.write(fd, buf.baseAddress.map { $0 + written }, bytes.count - written) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { code = n < 0 ? errno : ENOSPC; break }
            written += n
        }
        if close(fd) != 0, code == 0 { code = errno }
        if code == 0 {
            let renamed = FileName.withCString(temporary) { from in FileName.withCString(name) { renameat(folder, from, folder, $0) } }
            if renamed == 0 { return }
            code = errno
            _ = FileName.withCString(temporary) { unlinkat(folder, $0, 0) }
            throw failed("replace", code)
        }
        _ = FileName.withCString(temporary) { unlinkat(folder, $0, 0) }
        throw failed("write", code)
    }
}
