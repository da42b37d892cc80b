import Foundation

/// Writes a small file so that a power cut or a kill at any moment leaves the old file or the new one, never a
/// mix: the bytes go to `NAME.tmp` beside it, are fsynced, renamed over `NAME`, and the folder is fsynced so the
/// rename itself is on disk. On failure the temporary file is removed and the old file stays.
enum AtomicFile {
    /// Replaces the file at `path` with `bytes`.
    static func write(_ bytes: Data, to path: String) throws(CacheError) {
        let temp = path + ".tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw CacheError("open", temp, errno: errno) }
        var failure: CacheError?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, failure == nil {
                let n = Foundation.write(fd, raw.baseAddress.map { $0 + offset }, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { failure = CacheError("write", temp, errno: errno) } else { offset += n }
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = CacheError("fsync", temp, errno: errno) }
        if close(fd) != 0, failure == nil { failure = CacheError("close", temp, errno: errno) }
        if failure == nil, rename(temp, path) != 0 { failure = CacheError("rename to", path, errno: errno) }
        if let failure {
            unlink(temp)
            throw failure
        }
        syncFolder(of: path)
    }

    /// fsyncs the folder holding `path`, so a rename in it is on disk.
    static func syncFolder(of path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let dir = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { return }
        fsync(dir)
        close(dir)
    }

    /// The bytes of the regular file at `path`, at most `limit`; nil when there is none. Throws for a file that
    /// is there but cannot be read or is too large.
    static func read(_ path: String, limit: Int) throws(CacheError) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw CacheError("open", path, errno: errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw CacheError("\(path): not a regular file") }
        guard Int(info.st_size) <= limit else { throw CacheError("\(path): \(info.st_size) bytes, too large for a cache state") }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw CacheError("read", path, errno: errno) }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
            if data.count > limit { throw CacheError("\(path): grew too large while read") }
        }
        return data
    }
}
