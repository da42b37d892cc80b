import Foundation
@preconcurrency import Glibc
import KioskCore

/// The `--media-root` folder as an open descriptor, so that what lies beneath it is opened through it: a path
/// under the root is opened with `OpenBeneath` from the root's descriptor (every symlink and `..` resolved by the
/// kernel without leaving the root), never by its name alone. The remote gate (`MediaGate`) checks a name and
/// hands on its real path; a symlink swapped in after that check then makes the open fail instead of reaching a
/// file outside. `LocalFile` reads and `ScreenshotFile` writes go through here.
public enum MediaConfinement {
    /// The root: its real path (no trailing slash, "/" only for the file system's root) and an `O_PATH` descriptor.
    struct Root: Sendable {
        let path: String
        let fd: Int32
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var current: Root?

    /// Confines what lies beneath `root`, a real path (symlinks resolved, as `MediaGate` resolves it), from now
    /// on. Throws a `MediaError` naming the folder when it cannot be opened as one. Called once at start.
    public static func confine(root: String) throws(MediaError) {
        let fd = FileName.withCString(root) { open($0, OpenBeneath.pathOnly | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else {
            throw MediaError(path: root, reason: "--media-root: cannot open the folder: \(String(cString: strerror(errno)))")
        }
        let trimmed = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        lock.lock()
        defer { lock.unlock() }
        if let old = current { close(old.fd) }
        current = Root(path: trimmed, fd: fd)
    }

    /// Lifts the confinement (tests).
    public static func release() {
        lock.lock()
        defer { lock.unlock() }
        if let old = current { close(old.fd) }
        current = nil
    }

    /// The root's real path while one is set (nil: no `--media-root`).
    static var rootPath: String? {
        lock.lock()
        defer { lock.unlock() }
        return current?.path
    }

    /// The root's descriptor and `path` relative to it, when `path` (absolute) lies beneath the root; nil when no
    /// root is set or the path is elsewhere. The descriptor stays open for the process's life once set, and
    /// a later `confine` is a test's.
    static func beneath(_ path: String) -> (fd: Int32, relative: String)? {
        lock.lock()
        let root = current
        lock.unlock()
        guard let root, path.hasPrefix("/") else { return nil }
        let prefix = root.path == "/" ? "/" : root.path + "/"
        guard path.hasPrefix(prefix) else { return nil }
        let relative = String(path.dropFirst(prefix.count))
        return relative.isEmpty ? nil : (root.fd, relative)
    }

    /// Opens `path` for reading: beneath the root when it lies there (a symlink leaving it is refused), else by
    /// name. `O_NONBLOCK` keeps a FIFO from blocking the open; the caller checks what it opened with `fstat`.
    static func openForReading(_ path: String) throws(MediaError) -> Int32 {
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY
        if let (root, relative) = beneath(path) {
            do throws(MediaError) {
                return try OpenBeneath.open(relative, in: root, flags: flags)
            } catch {
                throw MediaError(path: path, reason: "\(error.reason) (beneath --media-root)")
            }
        }
        let fd = FileName.withCString(path) { open($0, flags) }
        guard fd >= 0 else { throw MediaError(path: path, reason: "cannot open for reading: \(String(cString: strerror(errno)))") }
        return fd
    }

    /// The folder `path`'s file goes into, opened (`O_PATH | O_DIRECTORY`) beneath the root when it lies there,
    /// else by name, and the file's name in it.
    static func openParent(of path: String) throws(MediaError) -> (fd: Int32, name: String) {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let slash = absolute.lastIndex(of: "/") ?? absolute.startIndex
        let folder = slash == absolute.startIndex ? "/" : String(absolute[..<slash])
        let name = String(absolute[absolute.index(after: slash)...])
        guard !name.isEmpty, name != ".", name != ".." else { throw MediaError(path: path, reason: "not a file name") }
        let flags = OpenBeneath.pathOnly | O_DIRECTORY
        if let (root, relative) = beneath(folder) {
            do throws(MediaError) {
                let fd = try OpenBeneath.open(relative, in: root, flags: flags)
                return (fd, name)
            } catch {
                throw MediaError(path: path, reason: "\(error.reason) (its folder, beneath --media-root)")
            }
        }
        if beneath(absolute) != nil {  // the folder is the root itself
            lock.lock()
            let rootFD = current.map { dup($0.fd) } ?? -1
            lock.unlock()
            guard rootFD >= 0 else { throw MediaError(path: path, reason: "cannot open its folder: \(String(cString: strerror(errno)))") }
            return (rootFD, name)
        }
        let fd = FileName.withCString(folder) { open($0, flags | O_CLOEXEC) }
        guard fd >= 0 else { throw MediaError(path: path, reason: "cannot open its folder: \(String(cString: strerror(errno)))") }
        return (fd, name)
    }
}
