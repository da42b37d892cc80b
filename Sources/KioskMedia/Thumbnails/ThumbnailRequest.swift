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
    /// Requests dropped from the queue, or stopped while being made, because they were no longer wanted.
    public var cancelled = 0
    /// Files whose thumbnail could not be made.
    public var failed = 0
    /// Bytes of decoded pictures held in memory now.
    public var memoryBytes = 0
    /// Tiles that became ready (decoded, from disk, or failed): what a grid redraws for.
    public var ready = 0

    /// No work yet.
    public init() {}
}

/// The decoded thumbnails held in memory, by request (path and projection), within a byte budget: the least
/// recently used go first. Not thread-safe; its owner locks.
struct ThumbnailMemory {
    /// Most bytes of pictures held.
    let budget: Int
    /// Bytes of pictures held now.
    private(set) var bytes = 0
    private var items: [ThumbnailRequest: (thumbnail: Thumbnail, used: UInt64)] = [:]
    private var clock: UInt64 = 0

    /// An empty memory of `budget` bytes.
    init(budget: Int) { self.budget = max(0, budget) }

    /// Whether the picture for `request` is held; a held one counts as used now.
    mutating func touch(_ request: ThumbnailRequest) -> Bool {
        guard items[request] != nil else { return false }
        clock += 1
        items[request]?.used = clock
        return true
    }

    /// The picture held for `request`, counted as a use.
    mutating func use(_ request: ThumbnailRequest) -> Thumbnail? {
        guard touch(request) else { return nil }
        return items[request]?.thumbnail
    }

    /// Holds `thumbnail` for `request`, then lets the least recently used go until the budget holds. A picture
    /// larger than the whole budget is not held.
    mutating func put(_ thumbnail: Thumbnail, for request: ThumbnailRequest) {
        let size = thumbnail.image.byteCount
        if let old = items.removeValue(forKey: request) { bytes -= old.thumbnail.image.byteCount }
        guard size <= budget else { return }
        clock += 1
        items[request] = (thumbnail, clock)
        bytes += size
        while bytes > budget, let oldest = items.min(by: { $0.value.used < $1.value.used }) {
            items[oldest.key] = nil
            bytes -= oldest.value.thumbnail.image.byteCount
        }
    }
}
