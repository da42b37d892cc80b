import Foundation
import KioskCore

/// Why the state folder or file could not be used: the call that failed, the file, and `strerror`'s text.
public struct StateStoreError: Error, CustomStringConvertible, Sendable {
    /// One line.
    public var description: String

    /// A failed call on `path` with `errno` `code`.
    init(_ call: String, _ path: String, errno code: Int32) {
        description = "\(call) \(path): \(String(cString: strerror(code)))"
    }

    /// Any other failure.
    init(_ description: String) { self.description = description }
}

/// The state file `state.json` in one folder, written so that a power cut or a kill at any moment leaves
/// either the old file or the new one, never a mix: the new bytes go to `state.json.tmp` in the same folder,
/// are fsynced, renamed over `state.json` (atomic), and the folder is fsynced so the rename itself is on disk.
/// Saves into one folder take turns (`flock` on the folder), so two players sharing it cannot tear the file
/// either. A crash can leave only that one temporary file, which the next save reuses and loads never read.
public struct StateStore: Sendable {
    /// The folder.
    public let directory: String
    /// Where load failures are told (one warn line each).
    let log: Log
    /// The temporary file's name.
    public static let temporaryName = StateDirectory.fileName + ".tmp"
    /// Larger files are not state files this kiosk wrote (a state is a few hundred bytes, plus the resume book).
    public static let maxBytes = 4 << 20

    /// The store in `directory` (not touched until used).
    public init(directory: String, log: Log) {
        self.directory = directory
        self.log = log
    }

    /// The state file's path.
    public var file: String { StateDirectory.joined(directory, StateDirectory.fileName) }

    /// Makes the folder (mode 0700, its missing parents too) and proves it can be written, by creating and
    /// removing the temporary file. Throws what stops it, naming the folder.
    public func prepare() throws(StateStoreError) {
        try Self.makeFolders(directory)
        let dir = try openFolder()
        defer { close(dir) }
        try lock(dir)
        let fd = FileName.withCString(Self.temporaryName) {
            openat(dir, $0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        }
        guard fd >= 0 else { throw StateStoreError("cannot write in", directory, errno: errno) }
        close(fd)
        _ = FileName.withCString(Self.temporaryName) { unlinkat(dir, $0, 0) }
    }

    /// The saved state, or nil: none saved yet (silently), or a file that is not a state this kiosk takes
    /// (empty, corrupt, cut short, another program's, a newer format, not a regular file, unreadable), which is
    /// ignored with one warn line naming it and why.
    public func load() -> PlayerState? {
        let path = file
        let fd = FileName.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else {
            if errno != ENOENT { log.warn("state: ignoring \(path): \(String(cString: strerror(errno)))") }
            return nil
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            log.warn("state: ignoring \(path): not a regular file")
            return nil
        }
        guard Int(st.st_size) <= Self.maxBytes else {
            log.warn("state: ignoring \(path): \(st.st_size) bytes is too large for a state file")
            return nil
        }
        let bytes: Data
        do {
            bytes = try Self.readAll(fd, path: path)
        } catch {
            log.warn("state: ignoring \(path): \(error.description)")
            return nil
        }
        do {
            return try PlayerState.decode(bytes)
        } catch {
            log.warn("state: ignoring \(path): \(error.description)")
            return nil
        }
    }

    /// Writes `state`: temporary file, fsync, rename over `state.json`, fsync of the folder. On failure the
    /// temporary file is removed and the old state stays.
    public func save(_ state: PlayerState) throws(StateStoreError) {
        let bytes: Data
        do { bytes = try state.encoded() } catch { throw StateStoreError(error.description) }
        let dir = try openFolder()
        defer { close(dir) }
        try lock(dir)
        let temp = StateDirectory.joined(directory, Self.temporaryName)
        let fd = FileName.withCString(Self.temporaryName) {
            openat(dir, $0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        }
        guard fd >= 0 else { throw StateStoreError("open", temp, errno: errno) }
        do throws(StateStoreError) {
            try Self.writeAll(fd, bytes, path: temp)
            guard fsync(fd) == 0 else { throw StateStoreError("fsync", temp, errno: errno) }
        } catch {
            close(fd)
            _ = FileName.withCString(Self.temporaryName) { unlinkat(dir, $0, 0) }
            throw error
        }
        guard close(fd) == 0 else {
            let code = errno
            _ = FileName.withCString(Self.temporaryName) { unlinkat(dir, $0, 0) }
            throw StateStoreError("close", temp, errno: code)
        }
        let renamed = FileName.withCString(Self.temporaryName) { from in
            FileName.withCString(StateDirectory.fileName) { to in renameat(dir, from, dir, to) }
        }
        guard renamed == 0 else {
            let code = errno
            _ = FileName.withCString(Self.temporaryName) { unlinkat(dir, $0, 0) }
            throw StateStoreError("rename to", file, errno: code)
        }
        guard fsync(dir) == 0 else { throw StateStoreError("fsync", directory, errno: errno) }
    }

    // MARK: - calls

    private func openFolder() throws(StateStoreError) -> Int32 {
        let dir = FileName.withCString(directory) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard dir >= 0 else { throw StateStoreError("open folder", directory, errno: errno) }
        return dir
    }

    /// Takes the folder's lock (released when `dir` is closed).
    private func lock(_ dir: Int32) throws(StateStoreError) {
        while flock(dir, LOCK_EX) != 0 {
            guard errno == EINTR else { throw StateStoreError("flock", directory, errno: errno) }
        }
    }

    /// Makes `path` and its missing parents, each mode 0700.
    static func makeFolders(_ path: String) throws(StateStoreError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if FileName.withCString(prefix, { mkdir($0, 0o700) }) != 0 && errno != EEXIST {
                throw StateStoreError("mkdir", prefix, errno: errno)
            }
        }
        var st = stat()
        guard FileName.withCString(path, { stat($0, &st) }) == 0 else { throw StateStoreError("stat", path, errno: errno) }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw StateStoreError("\(path): not a folder") }
    }

    private static func writeAll(_ fd: Int32, _ data: Data, path: String) throws(StateStoreError) {
        var left = data[...]
        while !left.isEmpty {
            let n = left.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw StateStoreError("write", path, errno: errno)
            }
            left = left.dropFirst(n)
        }
    }

    private static func readAll(_ fd: Int32, path: String) throws(StateStoreError) -> Data {
        var out = Data()
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while out.count <= maxBytes {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw StateStoreError("read", path, errno: errno)
            }
            if n == 0 { return out }
            out.append(contentsOf: chunk[..<n])
        }
        throw StateStoreError("\(path) is too large for a state file")
    }
}
