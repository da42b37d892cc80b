/// Playlist items by id, kept in chunks of 1,024 ids that are copied on write.
///
/// The player hands a snapshot of its playlist to the remote-control servers once a frame. A copy of this
/// table is one copy of the chunk list, and an edit after it copies only the chunk it touches, so a snapshot of
/// 100,000 items costs what a snapshot of 100 does. Ids are handed out in increasing order, so the chunks fill
/// from the front; a chunk whose items have all gone is dropped.
public struct ItemTable: Sendable, Equatable {
    /// Ids to a chunk.
    static let chunkSize = 1024
    private var chunks: [[PlaylistItem?]?] = []
    private var live: [Int] = []
    /// How many items there are.
    public private(set) var count = 0

    /// An empty table.
    public init() {}

    /// The item with `id`, if there is one.
    public subscript(id: ItemID) -> PlaylistItem? {
        let (c, k) = Self.place(of: id)
        guard c >= 0, c < chunks.count, let chunk = chunks[c] else { return nil }
        return chunk[k]
    }

    /// Enters `item` as `id`'s (replacing any item it had).
    public mutating func set(_ item: PlaylistItem, for id: ItemID) {
        let (c, k) = Self.place(of: id)
        guard c >= 0 else { return }
        if c >= chunks.count {
            chunks.append(contentsOf: repeatElement(nil, count: c - chunks.count + 1))
            live.append(contentsOf: repeatElement(0, count: c - live.count + 1))
        }
        if chunks[c] == nil { chunks[c] = [PlaylistItem?](repeating: nil, count: Self.chunkSize) }
        if chunks[c]?[k] == nil {
            live[c] += 1
            count += 1
        }
        chunks[c]?[k] = item
    }

    /// Takes `id`'s item out; returns it.
    @discardableResult
    public mutating func remove(_ id: ItemID) -> PlaylistItem? {
        let (c, k) = Self.place(of: id)
        guard c >= 0, c < chunks.count, let item = chunks[c]?[k] else { return nil }
        live[c] -= 1
        count -= 1
        if live[c] == 0 { chunks[c] = nil } else { chunks[c]?[k] = nil }
        return item
    }

    /// Takes every item out.
    public mutating func removeAll() {
        chunks.removeAll()
        live.removeAll()
        count = 0
    }

    private static func place(of id: ItemID) -> (chunk: Int, slot: Int) {
        guard id.value >= 0 else { return (-1, 0) }
        return (id.value / chunkSize, id.value % chunkSize)
    }
}

/// The playlist as the player's status shows it: the ids in order and their items, shared with the player's
/// live playlist copy-on-write (so the status of a 100,000-item playlist costs nothing to post after an edit).
public struct StatusPlaylist: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    /// The ids in playlist order.
    public let ids: [ItemID]
    private let table: ItemTable

    /// A snapshot of `ids` and their items.
    public init(ids: [ItemID], table: ItemTable) {
        self.ids = ids
        self.table = table
    }

    /// A playlist of these entries (tests, and statuses made by hand).
    public init(arrayLiteral entries: PlayerStatus.Entry...) {
        var table = ItemTable()
        for e in entries { table.set(PlaylistItem(path: e.path, title: e.title), for: e.id) }
        self.init(ids: entries.map(\.id), table: table)
    }

    /// The first position.
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { ids.count }

    /// The entry at `position`.
    public subscript(position: Int) -> PlayerStatus.Entry {
        let id = ids[position]
        let item = table[id]
        return PlayerStatus.Entry(id: id, path: item?.path ?? "", title: item?.title)
    }

    /// The position of `id`, if it is listed.
    public func position(of id: ItemID) -> Int? { ids.firstIndex(of: id) }
}
