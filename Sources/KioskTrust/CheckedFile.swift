@preconcurrency import Glibc

/// A regular file opened read-only to be checked: read whole up to a limit (keys, signatures, legacy-signed
/// files) or streamed in chunks (hashes). Opening never blocks (a FIFO or device is refused, not waited on), and
/// every failure is a `TrustError` naming the path and `strerror`.
struct CheckedFile: ~Copyable {
    /// The bytes read per `read(2)` when streaming.
    static let chunkBytes = 64 * 1024

    private let path: String
    private let descriptor: Int32
    /// The size `fstat` saw when the file was opened.
    let size: Int

    /// Opens `path` for reading; only a regular file is accepted.
    init(_ path: String) throws(TrustError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw CheckedFile.failure(path, "cannot open") }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = CheckedFile.failure(path, "cannot stat")
            close(fd)
            throw error
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw TrustError(file: path, reason: "not a regular file")
        }
        descriptor = fd
        size = Int(info.st_size)
    }

    deinit { close(descriptor) }

    /// Reads the whole file, refusing one of more than `limit` bytes (checked before and while reading, so a file
    /// that grows is refused too); `what` says what the file should be, for the error.
    static func read(_ path: String, atMost limit: Int, what: String) throws(TrustError) -> [UInt8] {
        let file = try CheckedFile(path)
        let tooBig = TrustError(file: path, reason: "larger than \(limit) bytes, too big for \(what)")
        guard file.size <= limit else { throw tooBig }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(file.size)
        try file.forEachChunk { chunk throws(TrustError) in
            guard bytes.count + chunk.count <= limit else { throw tooBig }
            bytes.append(contentsOf: chunk)
        }
        return bytes
    }

    /// Calls `body` with each chunk of the file, in order, until its end; memory stays at one chunk.
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws(TrustError) -> Void) throws(TrustError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: CheckedFile.chunkBytes, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw CheckedFile.failure(path, "cannot read")
            }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// An error for the call that just failed: `doing` and `strerror(errno)`.
    private static func failure(_ path: String, _ doing: String) -> TrustError {
        TrustError(file: path, reason: "\(doing): \(String(cString: strerror(errno)))")
    }
}
