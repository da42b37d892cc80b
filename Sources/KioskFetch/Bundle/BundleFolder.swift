import Foundation
import KioskCore
import KioskMedia
import KioskTrust

/// Why a bundle is refused: one line per problem, each naming the bundle's file and the reason.
struct BundleProblem: Error {
    /// The lines.
    let lines: [String]
    /// One problem in words.
    init(_ line: String) { lines = [line] }
    /// Several problems.
    init(lines: [String]) { self.lines = lines }
}

/// A bundle's folder, open: the one holding `index.smil` (the folder given, or its `kiosk/`). Every file in it is
/// opened beneath it in one step (`OpenBeneath`: `..`, an absolute path or a symlink that leaves the folder is
/// refused, one inside it is followed), must be a regular file (never a FIFO or device, which could block) within
/// a size cap, and is read from the descriptor that was checked. Lines name files by the folder's path.
final class BundleFolder {
    /// The folder holding `index.smil`.
    let path: String
    private let descriptor: Int32

    /// The bytes copied per read.
    static let chunkBytes = 1 << 20

    /// Opens the bundle in `folder`: `folder/kiosk` when it holds `index.smil`, else `folder` itself.
    init(_ folder: String) throws(BundleProblem) {
        let top = FileName.withCString(folder) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard top >= 0 else { throw BundleProblem("\(folder): no bundle: \(String(cString: strerror(errno)))") }
        var info = stat()
        let hasSubfolder = fstatat(top, BundleLayout.subfolder, &info, AT_SYMLINK_NOFOLLOW) == 0
            && [S_IFDIR, S_IFLNK].contains(info.st_mode & S_IFMT)
        if hasSubfolder {
            let inner: Int32
            do throws(MediaError) {
                inner = try OpenBeneath.open(BundleLayout.subfolder, in: top, flags: O_RDONLY | O_DIRECTORY)
            } catch {
                close(top)
                throw BundleProblem("\(folder)/\(BundleLayout.subfolder): \(error.reason)")
            }
            if fstatat(inner, BundleLayout.indexName, &info, AT_SYMLINK_NOFOLLOW) == 0 {
                close(top)
                descriptor = inner
                path = folder + "/" + BundleLayout.subfolder
                return
            }
            close(inner)
        }
        guard fstatat(top, BundleLayout.indexName, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            close(top)
            let playlist = ["index.m3u", "index.m3u8"].first { BundleLayout.isFile(folder + "/" + $0) }
            throw BundleProblem("\(folder): no bundle: neither \(BundleLayout.subfolder)/\(BundleLayout.indexName) nor "
                                + "\(BundleLayout.indexName) in it"
                                + (playlist.map { " (\($0) is no bundle index: a signed index gives each medium's sha256, which only SMIL can)" } ?? ""))
        }
        descriptor = top
        path = folder
    }

    deinit { close(descriptor) }

    /// Whether `relative` is there in the folder (a symlink counts, wherever it points).
    func has(_ relative: String) -> Bool {
        var info = stat()
        return fstatat(descriptor, relative, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// `relative` as a path for messages.
    func name(_ relative: String) -> String { path + "/" + relative }

    /// The regular file `relative` beneath the folder, open, with its size; refused above `limit` bytes (`what` names
    /// the cap in the line: "a medium").
    func openFile(_ relative: String, limit: Int64, what: String) throws(BundleProblem) -> BundleSource {
        let fd: Int32
        do throws(MediaError) {
            fd = try OpenBeneath.open(relative, in: descriptor, flags: O_RDONLY | O_NONBLOCK)
        } catch {
            throw BundleProblem("\(name(relative)): \(error.reason == "no such file" ? "refused: missing from the bundle" : error.reason)")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw BundleProblem("\(name(relative)): refused: not a regular file")
        }
        guard Int64(info.st_size) <= limit else {
            close(fd)
            throw BundleProblem("\(name(relative)): refused: \(info.st_size) bytes, more than the \(FetchError.mebibytes(limit)) "
                                + "\(what) may")
        }
        return BundleSource(name: name(relative), descriptor: fd, size: Int64(info.st_size))
    }

    /// The whole file `relative`, at most `limit` bytes.
    func read(_ relative: String, limit: Int64, what: String) throws(BundleProblem) -> [UInt8] {
        let source = try openFile(relative, limit: limit, what: what)
        var bytes: [UInt8] = []
        try source.copy(limit: limit) { chunk throws(BundleProblem) in bytes.append(contentsOf: chunk) }
        return bytes
    }
}

/// One file of a bundle, open for reading (closed when it goes).
final class BundleSource {
    /// Its path, for messages.
    let name: String
    /// Its size when opened.
    let size: Int64
    private let descriptor: Int32

    init(name: String, descriptor: Int32, size: Int64) {
        self.name = name
        self.descriptor = descriptor
        self.size = size
    }

    deinit { close(descriptor) }

    /// Hands `body` each chunk until the end; refuses a file that grows past `limit` while read.
    func copy(limit: Int64, _ body: ([UInt8]) throws(BundleProblem) -> Void) throws(BundleProblem) {
        var buffer = [UInt8](repeating: 0, count: BundleFolder.chunkBytes)
        var total: Int64 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw BundleProblem("\(name): cannot read: \(String(cString: strerror(errno)))") }
            if n == 0 { return }
            total += Int64(n)
            guard total <= limit else { throw BundleProblem("\(name): refused: grew past \(FetchError.mebibytes(limit)) while read") }
            try body(Array(buffer[0..<n]))
        }
    }

    /// Copies the file to `target` (a new file in the content cache, fsynced) and returns its size and SHA-256 as
    /// copied: what is checked is what was written, whatever the stick does meanwhile.
    func copy(to target: String, limit: Int64) throws(BundleProblem) -> (size: Int64, sha256: String) {
        unlink(target)
        let out = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard out >= 0 else { throw BundleProblem("\(name): cannot copy into the content cache: \(target): \(String(cString: strerror(errno)))") }
        defer { close(out) }
        let hash = SHA256Stream()
        var written: Int64 = 0
        try copy(limit: limit) { chunk throws(BundleProblem) in
            hash.update(chunk)
            var offset = 0
            while offset < chunk.count {
                let n = chunk[offset...].withUnsafeBytes { Foundation.write(out, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    throw BundleProblem("\(name): cannot copy into the content cache: \(target): \(String(cString: strerror(errno)))")
                }
                offset += n
            }
            written += Int64(chunk.count)
        }
        guard fsync(out) == 0 else {
            throw BundleProblem("\(name): cannot copy into the content cache: \(target): \(String(cString: strerror(errno)))")
        }
        return (written, hash.finishHex())
    }
}
