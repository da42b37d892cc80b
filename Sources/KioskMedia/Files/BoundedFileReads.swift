@preconcurrency import Glibc
import KioskCore

/// One local regular file opened once (through `LocalFile`: symlinks followed, FIFOs and devices refused) for a
/// few reads at chosen offsets, all together bounded by `budget` bytes: a metadata reader walks a file's
/// structure without reading the file, and a hostile structure cannot make it read more.
final class BoundedFileReads {
    /// The path as given, for messages.
    let path: String
    /// The file's size when opened.
    let size: Int
    /// Bytes the reads may still return in all.
    private(set) var budget: Int
    private let fd: Int32

    /// Opens `path` for reads of at most `budget` bytes in all; the error is one line naming the file.
    init(_ path: String, budget: Int) throws(MediaError) {
        let file: LocalFile
        let descriptor: Int32
        do {
            file = try LocalFile(path)
            descriptor = try file.openForReading()
        } catch let error as MediaError {
            throw error
        } catch {
            throw MediaError(path: path, reason: "\(error)")
        }
        self.path = path
        size = file.size
        self.budget = max(0, budget)
        fd = descriptor
    }

    deinit { close(fd) }

    /// Up to `count` bytes at `offset`: fewer at the end of the file, once the budget is spent, or when a read
    /// fails (a metadata reader takes a short read as the end of what it can use).
    func read(at offset: Int, count: Int) -> [UInt8] {
        guard offset >= 0, offset < size, count > 0 else { return [] }
        let wanted = min(count, size - offset, budget)
        guard wanted > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: wanted)
        var done = 0
        bytes.withUnsafeMutableBytes { buf in
            guard let base = buf.baseAddress else { return }
            while done < wanted {
                let n = pread(fd, base + done, wanted - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                done += n
            }
        }
        budget -= done
        return done == wanted ? bytes : Array(bytes[0..<done])
    }
}
