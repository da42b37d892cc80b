@preconcurrency import Glibc

/// Where one transfer's response goes as libcurl hands it over: header lines into `head`, body bytes into memory
/// or a `.part` file. The body of an error status is read and dropped (never written into the file), and the
/// first body byte decides how the file is written: continued after a 206 whose range starts where the file
/// ends, from the start after a 200. Any refusal is kept in `failure` and stops the transfer (the callback
/// returns a short count, libcurl gives up).
final class ResponseSink {
    /// The most bytes of an error body read (and dropped) before the transfer is stopped.
    static let errorBodyBytes: Int64 = 64 * 1024

    let target: HTTPBodyTarget
    /// Where a resume asked to continue (the `.part` file's size); 0: no Range sent.
    let resumeOffset: Int64
    /// The response headers so far.
    var head = HTTPResponseHead()
    /// The body (memory target).
    var memory: [UInt8] = []
    /// Body bytes received.
    private(set) var received: Int64 = 0
    /// Bytes the file or memory holds.
    private(set) var stored: Int64 = 0
    /// Where the file was continued from.
    private(set) var startOffset: Int64 = 0
    /// Why the transfer was stopped from here.
    private(set) var failure: FetchError.Reason?
    /// Whether the first body byte (or the end of an empty body) was handled.
    private(set) var decided = false
    private var discarding = false
    private var descriptor: Int32 = -1

    /// A sink for `target`, which asked for the bytes from `resumeOffset` on.
    init(target: HTTPBodyTarget, resumeOffset: Int64) {
        self.target = target
        self.resumeOffset = resumeOffset
    }

    deinit { closeFile() }

    /// The validators a resume continues (the `.part` file's body), from the target.
    var resumeValidators: HTTPValidators? {
        if case .file(_, _, let resume) = target { return resume }
        return nil
    }

    /// The limit of the target.
    var limit: Int64 {
        switch target {
        case .memory(let limit), .file(_, let limit, _): return limit
        }
    }

    /// Takes body bytes; false stops the transfer.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if !decided { decide() }
        guard failure == nil else { return false }
        received += Int64(bytes.count)
        if discarding { return received < Self.errorBodyBytes }
        guard startOffset + stored + Int64(bytes.count) <= limit else {
            failure = .tooLarge(limit: limit)
            return false
        }
        switch target {
        case .memory: memory.append(contentsOf: bytes)
        case .file(let path, _, _):
            var offset = 0
            while offset < bytes.count {
                let n = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    failure = .disk("write \(path): \(String(cString: strerror(errno)))")
                    return false
                }
                offset += n
            }
        }
        stored += Int64(bytes.count)
        return true
    }

    /// Called at the end of a transfer that succeeded: an empty body still makes (or empties) its file.
    func finishEmptyBody() {
        if !decided { decide() }
    }

    /// Closes the file, if open; a failed close (a full disk that showed late) becomes the failure.
    func closeFile() {
        guard descriptor >= 0 else { return }
        if case .file(let path, _, _) = target, failure == nil {
            if fsync(descriptor) != 0 || close(descriptor) != 0 {
                failure = .disk("write \(path): \(String(cString: strerror(errno)))")
            }
        } else {
            close(descriptor)
        }
        descriptor = -1
    }

    /// Decides, at the first body byte, whether this body is kept and how the file is written.
    private func decide() {
        decided = true
        guard (200..<300).contains(head.status) else {
            discarding = true
            return
        }
        guard case .file(let path, let limit, _) = target else { return }
        var keep: Int64 = 0
        if head.status == 206 {
            guard resumeOffset > 0, let range = head.contentRange else {
                failure = .badRange("a 206 reply without a usable Content-Range")
                return
            }
            guard range.first == resumeOffset else {
                failure = .badRange("a 206 reply for bytes \(range.first)-, not the \(resumeOffset)- asked for")
                return
            }
            if let total = range.total, total > limit {
                failure = .tooLarge(limit: limit)
                return
            }
            keep = resumeOffset
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            failure = .disk("open \(path): \(String(cString: strerror(errno)))")
            return
        }
        descriptor = fd
        guard ftruncate(fd, off_t(keep)) == 0, lseek(fd, off_t(keep), SEEK_SET) == off_t(keep) else {
            failure = .disk("truncate \(path): \(String(cString: strerror(errno)))")
            return
        }
        startOffset = keep
    }
}
