@preconcurrency import Glibc
import KioskCore

/// Reads parts of a local regular file as bytes (through `LocalFile`: symlinks followed, FIFOs and devices
/// refused before they are opened), with MediaErrors naming the file.
enum FileBytes {
    /// The file's size in bytes (the symlink's target's); throws "no such file" / "is a directory" /
    /// "not a regular file (…)".
    static func size(_ path: String) throws -> Int {
        try LocalFile(path).size
    }

    /// Up to `count` bytes starting at `offset`.
    static func read(_ path: String, offset: Int = 0, count: Int) throws -> [UInt8] {
        let fd = try LocalFile(path).openForReading()
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        let got = try bytes.withUnsafeMutableBytes { buf -> Int in
            guard let base = buf.baseAddress else { return 0 }
            return try readFully(fd, into: base, count: buf.count, offset: max(0, offset), path: path)
        }
        bytes.removeLast(bytes.count - got)
        return bytes
    }

    /// Reads exactly `count` bytes from the start of the file into `buffer` (no intermediate copy).
    static func read(_ path: String, into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws {
        let fd = try LocalFile(path).openForReading()
        defer { close(fd) }
        let got = try readFully(fd, into: UnsafeMutableRawPointer(buffer), count: count, offset: 0, path: path)
        guard got == count else {
            throw MediaError(path: path, reason: "read \(got) of \(count) bytes: the file changed while reading")
        }
    }

    /// `pread` until `count` bytes or the end of the file; returns the bytes read.
    private static func readFully(_ fd: Int32, into base: UnsafeMutableRawPointer, count: Int, offset: Int,
                                  path: String) throws -> Int {
        var done = 0
        while done < count {
            let n = pread(fd, base + done, count - done, off_t(offset + done))
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw MediaError(path: path, reason: "read failed: \(String(cString: strerror(errno)))")
            }
            done += n
        }
        return done
    }
}
