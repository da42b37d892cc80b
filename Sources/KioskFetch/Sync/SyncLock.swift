import Foundation

/// One sync at a time per cache folder: an exclusive `flock` on `FOLDER/lock`, held for the sync and released at
/// its end (or when the process ends). A second sync on the same folder is refused at once, not queued.
struct SyncLock {
    private let descriptor: Int32

    /// Takes the lock of `folder`; throws a line naming it when another sync holds it or it cannot be made.
    init(folder: String) throws(CacheError) {
        let path = folder + "/lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw CacheError("open", path, errno: errno) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { throw CacheError("content cache \(folder): another sync is using it") }
            throw CacheError("flock", path, errno: code)
        }
        descriptor = fd
    }

    /// Releases the lock.
    func release() { close(descriptor) }
}
