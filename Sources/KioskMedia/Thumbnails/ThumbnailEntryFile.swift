import Foundation
import KioskCore

/// One disk cache entry as a file: a magic line, the full key (so a hash collision is a miss, not a wrong
/// picture), the tile's facts as JSON, the side, then the picture as JPEG. Written to a temporary name in the
/// same folder and renamed, so a reader never sees half an entry.
///
///     "KTHUMB1\n" | u32 keyLength | key | u32 factsLength | facts JSON | u32 side | JPEG bytes
enum ThumbnailEntryFile {
    /// The first bytes of every entry.
    static let magic = Array("KTHUMB1\n".utf8)
    /// The name prefix of entries being written.
    static let tempPrefix = ".tmp-"
    /// The largest entry read back (a 4096 px tile at q=4 is far below it).
    static let maxBytes = 16 << 20

    /// The thumbnail in `file` if it holds `key` at `side`; nil when missing, stale or damaged.
    static func read(_ file: String, key: String, side: Int) -> Thumbnail? {
        guard let bytes = contents(file) else { return nil }
        var at = magic.count
        guard bytes.count > at, Array(bytes[0..<at]) == magic else { return nil }
        func u32() -> Int? {
            guard at + 4 <= bytes.count else { return nil }
            let v = Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
            at += 4
            return v
        }
        func chunk() -> ArraySlice<UInt8>? {
            guard let n = u32(), at + n <= bytes.count else { return nil }
            defer { at += n }
            return bytes[at..<(at + n)]
        }
        guard let storedKey = chunk(), storedKey.elementsEqual(key.utf8),
              let factsJSON = chunk(), let facts = try? JSONDecoder().decode(TileFacts.self, from: Data(factsJSON)),
              u32() == side else { return nil }
        let size = PixelSize(width: side, height: side)
        guard let image = try? ThumbnailJPEG.decode(bytes[at...], size: size, name: file) else { return nil }
        return Thumbnail(image: image, facts: facts)
    }

    /// Writes `thumbnail` under `key` as `folder/name` (atomically); returns the entry's size in bytes.
    static func write(_ thumbnail: Thumbnail, key: String, folder: String, name: String) throws -> Int {
        var bytes = magic
        func u32(_ v: Int) { for s in stride(from: 0, through: 24, by: 8) { bytes.append(UInt8((v >> s) & 0xFF)) } }
        let keyBytes = Array(key.utf8)
        u32(keyBytes.count)
        bytes += keyBytes
        let facts = try JSONEncoder().encode(thumbnail.facts)
        u32(facts.count)
        bytes += facts
        u32(thumbnail.image.size.width)
        bytes += try ThumbnailJPEG.encode(thumbnail.image, name: folder + "/" + name)
        try place(bytes, folder: folder, name: name)
        return bytes.count
    }

    /// Checks that files can be made in `folder` (by making and removing one).
    static func checkWritable(_ folder: String) throws {
        let probe = folder + "/" + tempPrefix + "probe-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw MediaError(path: folder, reason: "cannot create a file: \(errorText())") }
        close(fd)
        unlink(probe)
    }

    /// `bytes` written to a temporary file in `folder`, then renamed to `name`.
    private static func place(_ bytes: [UInt8], folder: String, name: String) throws {
        let temp = folder + "/" + tempPrefix + name + "-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw MediaError(path: temp, reason: "cannot create: \(errorText())") }
        var written = 0
        var failure: String?
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { buf in Glibc.write(fd, buf.baseAddress.map { $0 + written }, bytes.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { failure = "cannot write: \(errorText())"; break }
            written += n
        }
        close(fd)
        if failure == nil, rename(temp, folder + "/" + name) != 0 { failure = "cannot rename: \(errorText())" }
        if let failure {
            unlink(temp)
            throw MediaError(path: folder + "/" + name, reason: failure)
        }
    }

    /// The whole of `file` if it is a regular file of at most `maxBytes` (symlinks are not followed).
    private static func contents(_ file: String) -> [UInt8]? {
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size > 0, st.st_size <= maxBytes else { return nil }
        let count = Int(st.st_size)
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = out.withUnsafeMutableBytes { buf in Glibc.read(fd, buf.baseAddress.map { $0 + done }, count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return out
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
