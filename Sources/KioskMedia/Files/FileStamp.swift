import Glibc

/// What a file looked like: its size and modification time (nanoseconds), from `stat`. The decode cache retries a
/// failed file once its stamp changes; the thumbnail cache keys its entries by it.
public struct FileStamp: Equatable, Sendable {
    /// Bytes.
    public let size: Int64
    /// Modification time, nanoseconds since the epoch.
    public let modified: Int64
    /// Whether it is a regular file.
    public let isRegular: Bool

    /// The file at `path` now; nil if it cannot be looked at.
    public init?(path: String) {
        guard let st = FileAccess.status(path) else { return nil }
        self.init(st)
    }

    /// The stamp of a `stat` result.
    init(_ st: stat) {
        size = Int64(st.st_size)
        modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        isRegular = st.st_mode & S_IFMT == S_IFREG
    }
}
