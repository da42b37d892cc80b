import KioskCore

/// One tile the grid wants a picture for: the item's path and its projection override from the playlist.
/// Two requests are the same when their paths and the override's projection fields (the part that changes the
/// picture) are; a start view (yaw, pitch, field of view) or an effect does not change a tile.
public struct ThumbnailRequest: Sendable, Hashable {
    /// The item's file.
    public var path: String
    /// The playlist's projection override for the item, if any.
    public var override: ProjectionOverride?

    /// A request as given.
    public init(path: String, override: ProjectionOverride? = nil) {
        self.path = path
        self.override = override
    }

    /// The override's projection fields as text (`projection=equirect;stereo=sbs`), "" for none: the part of the
    /// disk cache key that tells tiles of one file under different overrides apart.
    public var variant: String {
        guard let o = override else { return "" }
        var parts: [String] = []
        if let k = o.kind { parts.append("projection=\(k.rawValue)") }
        if let f = o.inputFOV { parts.append("input-fov=\(f)") }
        if let s = o.stereo { parts.append("stereo=\(s.rawValue)") }
        if let e = o.eye { parts.append("eye=\(e.rawValue)") }
        return parts.joined(separator: ";")
    }

    /// Same path and same projection fields.
    public static func == (a: ThumbnailRequest, b: ThumbnailRequest) -> Bool {
        a.path == b.path && a.variant == b.variant
    }

    /// Hashes the path and the projection fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(variant)
    }
}

/// What a `ThumbnailStore` has done so far.
public struct ThumbnailStats: Sendable, Equatable {
    /// Thumbnails made by decoding their file.
    public var decoded = 0
    /// Thumbnails read back from the disk cache.
    public var diskHits = 0
    /// Requests that were already in memory when they were wanted.
    public var memoryHits = 0
    /// Requests dropped from the queue, or stopped while being made, because they were no longer wanted.
    public var cancelled = 0
    /// Files whose thumbnail could not be made.
    public var failed = 0
    /// Bytes of decoded pictures held in memory now.
    public var memoryBytes = 0

    /// No work yet.
    public init() {}
}

/// The decoded thumbnails held in memory, by path, within a byte budget: the least recently used go first. Not
/// thread-safe; its owner locks.
struct ThumbnailMemory {
    /// Most bytes of pictures held.
    let budget: Int
    /// Bytes of pictures held now.
    private(set) var bytes = 0
    private var items: [String: (thumbnail: Thumbnail, variant: String, used: UInt64)] = [:]
    private var clock: UInt64 = 0

    /// An empty memory of `budget` bytes.
    init(budget: Int) { self.budget = max(0, budget) }

    /// Whether the picture for `request` is held.
    func holds(_ request: ThumbnailRequest) -> Bool { items[request.path]?.variant == request.variant }

    /// The picture held for `path` (whatever its override), counted as a use.
    mutating func use(_ path: String) -> Thumbnail? {
        guard let item = items[path] else { return nil }
        clock += 1
        items[path]?.used = clock
        return item.thumbnail
    }

    /// Holds `thumbnail` for `request` (replacing the path's old one), then lets the least recently used go until
    /// the budget holds. A picture larger than the whole budget is not held.
    mutating func put(_ thumbnail: Thumbnail, for request: ThumbnailRequest) {
        let size = thumbnail.image.byteCount
        if let old = items.removeValue(forKey: request.path) { bytes -= old.thumbnail.image.byteCount }
        guard size <= budget else { return }
        clock += 1
        items[request.path] = (thumbnail, request.variant, clock)
        bytes += size
        while bytes > budget, let oldest = items.min(by: { $0.value.used < $1.value.used }) {
            items[oldest.key] = nil
            bytes -= oldest.value.thumbnail.image.byteCount
        }
    }
}
