import Foundation
import KioskCore

/// File-system calls by a name's exact bytes (`FileName`): the few calls that Foundation would make with a lossy
/// UTF-8 name, so that a name that is not UTF-8 still opens. `LocalFile` is the gate for media files themselves.
public enum FileAccess {
    /// The file's `stat` (following symlinks), or nil when it cannot be looked at.
    public static func status(_ path: String) -> stat? {
        var st = stat()
        return FileName.withCString(path, { stat($0, &st) }) == 0 ? st : nil
    }

    /// Whether `path` exists, and whether it is a folder (as `FileManager.fileExists(atPath:isDirectory:)`).
    public static func exists(_ path: String, isDirectory: inout ObjCBool) -> Bool {
        guard let st = status(path) else { return false }
        isDirectory = ObjCBool(st.st_mode & S_IFMT == S_IFDIR)
        return true
    }

    /// The file's size in bytes, if it can be looked at.
    public static func size(_ path: String) -> Int? { status(path).map { Int($0.st_size) } }

    /// A handle reading the file, or nil (as `FileHandle(forReadingAtPath:)`).
    public static func handle(forReading path: String) -> FileHandle? {
        let fd = FileName.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        return fd >= 0 ? FileHandle(fileDescriptor: fd, closeOnDealloc: true) : nil
    }

    /// The C stream reading the file (as `fopen(path, "rb")`).
    public static func openStream(_ path: String) -> UnsafeMutablePointer<FILE>? {
        FileName.withCString(path) { fopen($0, "rb") }
    }

    /// The whole file, or nil (as `FileManager.contents(atPath:)`).
    public static func contents(_ path: String) -> Data? {
        guard let handle = handle(forReading: path) else { return nil }
        defer { try? handle.close() }
        return try? handle.readToEnd() ?? Data()
    }

    /// Every entry under `folder`, recursively, as paths relative to it (as `FileManager.enumerator(atPath:)`:
    /// symlinked folders are not entered); names keep their bytes. Nil when the folder cannot be read. With
    /// `limit`, the listing stops once it holds that many.
    public static func entries(under folder: String, limit: Int = .max) -> [String]? {
        guard let top = names(in: folder, limit: limit) else { return nil }
        var out: [String] = []
        var pending = top.reversed().map { ($0.name, $0.isFolder) }  // a stack: the next entry is the last
        while out.count < limit, let (rel, isFolder) = pending.popLast() {
            out.append(rel)
            if isFolder, let inner = names(in: folder + "/" + rel, limit: limit) {
                pending.append(contentsOf: inner.reversed().map { (rel + "/" + $0.name, $0.isFolder) })
            }
        }
        return out
    }

    /// The names in one folder (no `.` and `..`), and which are folders (not following symlinks); nil when it
    /// cannot be read. At most `limit` of them.
    static func names(in folder: String, limit: Int = .max) -> [(name: String, isFolder: Bool)]? {
        guard let dir = FileName.withCString(folder, { opendir($0) }) else { return nil }
        defer { closedir(dir) }
        var out: [(name: String, isFolder: Bool)] = []
        while out.count < limit, let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                FileName.decode(raw.prefix { $0 != 0 })
            }
            if name == "." || name == ".." { continue }
            var isFolder = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                var st = stat()
                isFolder = FileName.withCString(folder + "/" + name, { lstat($0, &st) }) == 0 && st.st_mode & S_IFMT == S_IFDIR
            }
            out.append((name, isFolder))
        }
        return out
    }
}
