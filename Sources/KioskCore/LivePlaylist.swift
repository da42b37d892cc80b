/// The one model of what can play: items with stable ids, edited while the slideshow runs. The slideshow, the
/// decode cache and the composer all refer to items by `ItemID`; nothing keeps a copy keyed by position.
///
/// Owned by the render thread: producers on other threads never touch it, they send `PlayerCommand`s.

/// A playlist item's identity for as long as the run lasts: never reused, unchanged by moves and edits around it.
public struct ItemID: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The number (the items given at start are 0, 1, 2… in order; later ones count on).
    public let value: Int

    /// An id with this number.
    public init(_ value: Int) { self.value = value }
    /// An id from a literal (tests, the initial items).
    public init(integerLiteral value: Int) { self.value = value }

    /// Ids order by age.
    public static func < (a: ItemID, b: ItemID) -> Bool { a.value < b.value }
    /// The number.
    public var description: String { "\(value)" }
}

/// One entry of the live playlist.
public struct PlaylistEntry: Sendable, Equatable {
    /// Its stable id.
    public let id: ItemID
    /// The file and its settings.
    public var item: PlaylistItem
}

/// What an edit did, for the slideshow to follow: ids gone (with the position each had) and ids added.
public struct PlaylistEdit: Sendable, Equatable {
    /// Removed ids with their position before the edit.
    public var removed: [(id: ItemID, position: Int)] = []
    /// Added ids, in playlist order.
    public var added: [ItemID] = []
    /// Ids that should play right after the current item (`insert next`).
    public var playNext: [ItemID] = []

    /// Compares ids and positions.
    public static func == (a: PlaylistEdit, b: PlaylistEdit) -> Bool {
        a.removed.map(\.id) == b.removed.map(\.id) && a.removed.map(\.position) == b.removed.map(\.position)
            && a.added == b.added && a.playNext == b.playNext
    }
}

/// The items in playlist order, each with its id. Use on one thread (the player's).
public final class LivePlaylist {
    /// The entries, in playlist order.
    public private(set) var entries: [PlaylistEntry] = [] {
        didSet { positions = Dictionary(uniqueKeysWithValues: entries.enumerated().map { ($0.element.id, $0.offset) }) }
    }
    /// Each id's position, kept with `entries` so look-ups by id cost nothing per frame.
    private var positions: [ItemID: Int] = [:]
    private var nextID = 0
    /// Bumps with every edit.
    public private(set) var version = 0

    /// A playlist of `items`, with ids 0, 1, 2… in order.
    public init(_ items: [PlaylistItem] = []) {
        _ = append(items)
    }

    /// The ids in playlist order.
    public var ids: [ItemID] { entries.map(\.id) }
    /// How many items there are.
    public var count: Int { entries.count }
    /// Whether there is nothing to play.
    public var isEmpty: Bool { entries.isEmpty }

    /// The item with `id`, if it is (still) in the playlist.
    public func item(_ id: ItemID) -> PlaylistItem? { positions[id].map { entries[$0].item } }

    /// The position of `id`, if it is in the playlist.
    public func position(of id: ItemID) -> Int? { positions[id] }

    /// The id at `position`, if there is one.
    public func id(at position: Int) -> ItemID? { entries.indices.contains(position) ? entries[position].id : nil }

    /// Adds `items` at the end.
    @discardableResult
    public func append(_ items: [PlaylistItem]) -> PlaylistEdit {
        insert(items, at: entries.count)
    }

    /// Adds `items` before `position` (clamped to the playlist).
    @discardableResult
    public func insert(_ items: [PlaylistItem], at position: Int) -> PlaylistEdit {
        let at = min(max(0, position), entries.count)
        let made = items.map { item -> PlaylistEntry in
            defer { nextID += 1 }
            return PlaylistEntry(id: ItemID(nextID), item: item)
        }
        entries.insert(contentsOf: made, at: at)
        if !made.isEmpty { version += 1 }
        return PlaylistEdit(added: made.map(\.id))
    }

    /// Adds each item before the entry at its position (in the playlist before the edit, clamped), in one edit;
    /// items with the same position keep their order.
    @discardableResult
    public func insert(_ placed: [(item: PlaylistItem, before: Int)]) -> PlaylistEdit {
        guard !placed.isEmpty else { return PlaylistEdit() }
        let queue = placed.indices.sorted { (placed[$0].before, $0) < (placed[$1].before, $1) }.map { placed[$0] }
        var out: [PlaylistEntry] = []
        out.reserveCapacity(entries.count + queue.count)
        var added: [ItemID] = []
        var k = 0
        for position in 0...entries.count {
            while k < queue.count, queue[k].before <= position || position == entries.count {
                added.append(ItemID(nextID))
                out.append(PlaylistEntry(id: ItemID(nextID), item: queue[k].item))
                nextID += 1
                k += 1
            }
            if position < entries.count { out.append(entries[position]) }
        }
        entries = out
        version += 1
        return PlaylistEdit(added: added)
    }

    /// Removes every one of `ids` in the playlist, in one edit.
    public func remove(_ ids: Set<ItemID>) -> PlaylistEdit {
        let removed = entries.enumerated().filter { ids.contains($0.element.id) }.map { (id: $0.element.id, position: $0.offset) }
        guard !removed.isEmpty else { return PlaylistEdit() }
        entries.removeAll { ids.contains($0.id) }
        version += 1
        return PlaylistEdit(removed: removed)
    }

    /// Removes `id`; nil when it is not in the playlist.
    public func remove(_ id: ItemID) -> PlaylistEdit? {
        guard let p = position(of: id) else { return nil }
        entries.remove(at: p)
        version += 1
        return PlaylistEdit(removed: [(id, p)])
    }

    /// Moves `id` to `position` (clamped; the position in the playlist after the move). False when `id` is not there.
    public func move(_ id: ItemID, to target: Int) -> Bool {
        guard let p = position(of: id) else { return false }
        let entry = entries.remove(at: p)
        entries.insert(entry, at: min(max(0, target), entries.count))
        version += 1
        return true
    }

    /// Replaces everything with `items` (new ids), except that the first item with the path of `keep`'s entry
    /// takes `keep`'s id (a reload keeps the item on screen when its file is still listed).
    public func replace(with items: [PlaylistItem], keeping keep: ItemID) -> PlaylistEdit {
        guard let old = item(keep), let at = items.firstIndex(where: { $0.path == old.path }) else {
            return replace(with: items)
        }
        let removed = entries.enumerated().filter { $0.element.id != keep }.map { (id: $0.element.id, position: $0.offset) }
        entries.removeAll()
        var edit = append(Array(items[..<at]))
        entries.append(PlaylistEntry(id: keep, item: items[at]))
        let after = append(Array(items[(at + 1)...]))
        edit.added += after.added
        edit.removed = removed
        version += 1
        return edit
    }

    /// Replaces everything with `items` (new ids).
    public func replace(with items: [PlaylistItem]) -> PlaylistEdit {
        let removed = entries.enumerated().map { (id: $0.element.id, position: $0.offset) }
        entries.removeAll()
        var edit = append(items)
        edit.removed = removed
        version += 1
        return edit
    }
}
