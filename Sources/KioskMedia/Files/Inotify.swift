@preconcurrency import Glibc
import KioskCore

/// Why a folder cannot be watched: the call that failed, what it was called on, and the system's reason.
public struct FolderWatchError: Error, CustomStringConvertible, Sendable, Equatable {
    /// One line.
    public var description: String
    /// The `errno` value.
    public var code: Int32

    /// The error of `call` on `path` (if any) with `errno` `code`.
    init(_ call: String, _ path: String? = nil, code: Int32) {
        self.code = code
        description = "\(call)\(path.map { " \($0)" } ?? ""): \(String(cString: strerror(code)))"
    }
}

/// One event as the kernel reports it (`struct inotify_event`): the watch, what happened, the rename cookie and
/// the name inside the watched folder ("" for the folder itself).
struct InotifyEvent: Equatable {
    var wd: Int32
    var mask: UInt32
    var cookie: UInt32 = 0
    var name: String = ""

    /// Size of the fixed part: wd, mask, cookie, len.
    static let headerSize = 16

    /// Whether the event has any of `flags` (`IN_*`).
    func has(_ flags: Int32) -> Bool { mask & UInt32(bitPattern: flags) != 0 }

    /// The events in a buffer read from an inotify descriptor. Each is a 16-byte header and `len` bytes of name,
    /// padded with NULs; a truncated event at the end (which the kernel never writes) is dropped.
    static func parse(_ raw: UnsafeRawBufferPointer) -> [InotifyEvent] {
        var out: [InotifyEvent] = []
        var at = 0
        while raw.count - at >= headerSize {
            let wd = raw.loadUnaligned(fromByteOffset: at, as: Int32.self)
            let mask = raw.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)
            let cookie = raw.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self)
            let length = Int(raw.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self))
            let nameStart = at + headerSize
            guard length <= raw.count - nameStart else { break }
            let name = FileName.decode(raw[nameStart..<(nameStart + length)].prefix { $0 != 0 })
            out.append(InotifyEvent(wd: wd, mask: mask, cookie: cookie, name: name))
            at = nameStart + length
        }
        return out
    }

    /// The bytes the kernel would write for this event (the name NUL-padded to 4 bytes), for tests.
    var bytes: [UInt8] {
        let name = FileName.bytes(of: self.name)
        let length = name.isEmpty ? 0 : (name.count / 4 + 1) * 4
        var out: [UInt8] = []
        for word in [UInt32(bitPattern: wd), mask, cookie, UInt32(length)] { withUnsafeBytes(of: word) { out += $0 } }
        return out + name + [UInt8](repeating: 0, count: length - name.count)
    }
}

/// An inotify instance: its descriptor (non-blocking, close-on-exec), watches added and removed, events read.
/// Used on the watcher's thread only.
final class Inotify {
    /// The descriptor to poll.
    let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    /// What every folder is watched for: files arriving (created, written and closed, moved in), leaving (deleted,
    /// moved out), and the folder itself going (deleted, moved). Unmounts, overflows and removed watches
    /// (`IN_UNMOUNT`, `IN_Q_OVERFLOW`, `IN_IGNORED`) always come.
    static let mask = UInt32(bitPattern: IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE
                                 | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// A new instance.
    init() throws(FolderWatchError) {
        fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw FolderWatchError("inotify_init1", code: errno) }
    }

    /// Watches the folder at `path`; its watch descriptor (the same one again for a folder already watched).
    func watch(_ path: String) throws(FolderWatchError) -> Int32 {
        let wd = FileName.withCString(path) { inotify_add_watch(fd, $0, Self.mask) }
        guard wd >= 0 else { throw FolderWatchError("inotify_add_watch", path, code: errno) }
        return wd
    }

    /// Stops watching `wd` (one the kernel already dropped is fine).
    func unwatch(_ wd: Int32) { _ = inotify_rm_watch(fd, wd) }

    /// Every event waiting now (none when there are none).
    func read() throws(FolderWatchError) -> [InotifyEvent] {
        var out: [InotifyEvent] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer.withUnsafeBytes { out += InotifyEvent.parse(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
                continue
            }
            let code = errno
            if n < 0 && code == EINTR { continue }
            if n < 0 && code != EAGAIN { throw FolderWatchError("read inotify", code: code) }
            return out
        }
    }

    /// Closes the descriptor (the watches go with it).
    func close() { _ = Glibc.close(fd) }
}
