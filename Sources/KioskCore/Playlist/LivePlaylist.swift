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
///
/// Kept so that an edit costs in proportion to the edit, not to the playlist, as a folder of 100,000 files needs:
/// the order is a plain array of ids (an insert moves 8-byte ids, no more), items are found by id and by path in
/// tables updated item by item, and whether the playlist is in path order is kept up to date from each edit's
/// neighbours, so a path-ordered insert (`LoadMode.sorted`) finds its place by binary search.
public final class LivePlaylist {
    /// The ids in playlist order.
    public private(set) var ids: [ItemID] = []
    /// Each id's item.
    private var items = ItemTable()
    /// Each path's ids, in the order they were added (a file given twice has two).
    private var byPath: [String: [ItemID]] = [:]
    /// The ids whose items have a time window.
    public private(set) var windowed: Set<ItemID> = []
    /// Whether the paths are in `PathOrder` (each not after the next), as a folder's are.
    public private(set) var isPathSorted = true
    private var nextID = 0
    /// Bumps with every edit.
    public private(set) var version = 0

    /// A playlist of `items`, with ids 0, 1, 2… in order.
    public init(_ items: [PlaylistItem] = []) {
        _ = append(items)
    }

    /// The entries, in playlist order (built on each call: for tests and rare uses, not for every frame).
    public var entries: [PlaylistEntry] { ids.compactMap { id in items[id].map { PlaylistEntry(id: id, item: $0) } } }
    /// How many items there are.
    public var count: Int { ids.count }
    /// Whether there is nothing to play.
    public var isEmpty: Bool { ids.isEmpty }

    /// The item with `id`, if it is (still) in the playlist.
    public func item(_ id: ItemID) -> PlaylistItem? { items[id] }

    /// Whether `id` is in the playlist.
    public func contains(_ id: ItemID) -> Bool { items[id] != nil }

    /// The playlist as it is now, for the player's status (shared copy-on-write: cheap to take after any edit).
    public var snapshot: StatusPlaylist { StatusPlaylist(ids: ids, table: items) }

    /// The position of `id`, if it is in the playlist (a scan of the ids: cheap, but not for every item).
    public func position(of id: ItemID) -> Int? { items[id] == nil ? nil : ids.firstIndex(of: id) }

    /// The id at `position`, if there is one.
    public func id(at position: Int) -> ItemID? { ids.indices.contains(position) ? ids[position] : nil }

    /// The ids with `path`, in playlist order.
    public func ids(withPath path: String) -> [ItemID] {
        guard let found = byPath[path] else { return [] }
        guard found.count > 1 else { return found }
        let set = Set(found)
        return ids.filter { set.contains($0) }
    }

    /// Where an item with `path` goes in path order: before the first entry whose path sorts after it. Binary
    /// search while the playlist is in path order, a scan otherwise.
    public func pathOrderPosition(of path: String) -> Int {
        guard isPathSorted else {
            return ids.firstIndex { PathOrder.precedes(path, self.path(of: $0)) } ?? ids.count
        }
        var lo = 0, hi = ids.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if PathOrder.precedes(path, self.path(of: ids[mid])) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// Adds `items` at the end.
    @discardableResult
    public func append(_ items: [PlaylistItem]) -> PlaylistEdit {
        insert(items, at: ids.count)
    }

    /// Adds `items` before `position` (clamped to the playlist).
    @discardableResult
    public func insert(_ items: [PlaylistItem], at position: Int) -> PlaylistEdit {
        guard !items.isEmpty else { return PlaylistEdit() }
        let at = min(max(0, position), ids.count)
        let made = items.map(register)
        ids.insert(contentsOf: made, at: at)
        keepSortedness(around: at, count: made.count)
        version += 1
        return PlaylistEdit(added: made)
    }

    /// Adds each item before the entry at its position (in the playlist before the edit, clamped), in one edit;
    /// items with the same position keep their order.
    @discardableResult
    public func insert(_ placed: [(item: PlaylistItem, before: Int)]) -> PlaylistEdit {
        guard !placed.isEmpty else { return PlaylistEdit() }
        let queue = placed.indices.sorted { (placed[$0].before, $0) < (placed[$1].before, $1) }
            .map { (item: placed[$0].item, before: min(max(0, placed[$0].before), ids.count)) }
        let added = queue.map { register($0.item) }
        if queue.count <= 32 {
            // A few: each moved into place, from the back so the earlier positions still hold.
            for k in queue.indices.reversed() {
                ids.insert(added[k], at: queue[k].before)
            }
            var shift = 0
            for k in queue.indices {
                keepSortedness(around: queue[k].before + shift, count: 1)
                shift += 1
            }
        } else {
            var out: [ItemID] = []
            out.reserveCapacity(ids.count + queue.count)
            var k = 0
            var landed: [Int] = []
            landed.reserveCapacity(queue.count)
            for position in 0...ids.count {
                while k < queue.count, queue[k].before <= position {
                    landed.append(out.count)
                    out.append(added[k])
                    k += 1
                }
                if position < ids.count { out.append(ids[position]) }
            }
            ids = out
            for at in landed { keepSortedness(around: at, count: 1) }
        }
        version += 1
        return PlaylistEdit(added: added)
    }

    /// Removes every one of `ids` in the playlist, in one edit.
    public func remove(_ gone: Set<ItemID>) -> PlaylistEdit {
        let present = gone.filter { items[$0] != nil }
        guard !present.isEmpty else { return PlaylistEdit() }
        var removed: [(id: ItemID, position: Int)] = []
        if present.count <= 32 {
            for id in present { if let p = ids.firstIndex(of: id) { removed.append((id, p)) } }
            removed.sort { $0.position < $1.position }
            for r in removed.reversed() { ids.remove(at: r.position) }
        } else {
            removed = ids.enumerated().filter { present.contains($0.element) }.map { (id: $0.element, position: $0.offset) }
            ids.removeAll { present.contains($0) }
        }
        for r in removed { unregister(r.id) }
        version += 1
        return PlaylistEdit(removed: removed)
    }

    /// Removes `id`; nil when it is not in the playlist.
    public func remove(_ id: ItemID) -> PlaylistEdit? {
        guard let p = position(of: id) else { return nil }
        ids.remove(at: p)
        unregister(id)
        version += 1
        return PlaylistEdit(removed: [(id, p)])
    }

    /// Moves `id` to `position` (clamped; the position in the playlist after the move). False when `id` is not there.
    public func move(_ id: ItemID, to target: Int) -> Bool {
        guard let p = position(of: id) else { return false }
        ids.remove(at: p)
        let at = min(max(0, target), ids.count)
        ids.insert(id, at: at)
        keepSortedness(around: at, count: 1)
        version += 1
        return true
    }

    /// Replaces everything with `items` (new ids), except that the first item with the path of `keep`'s entry
    /// takes `keep`'s id (a reload keeps the item on screen when its file is still listed).
    public func replace(with items: [PlaylistItem], keeping keep: ItemID) -> PlaylistEdit {
        guard let old = item(keep), let at = items.firstIndex(where: { $0.path == old.path }) else {
            return replace(with: items)
        }
        let removed = ids.enumerated().filter { $0.element != keep }.map { (id: $0.element, position: $0.offset) }
        clear()
        var made = items[..<at].map(register)
        register(items[at], as: keep)
        let after = items[(at + 1)...].map(register)
        ids = made + [keep] + after
        made += after
        isPathSorted = checkSorted()
        version += 1
        return PlaylistEdit(removed: removed, added: made)
    }

    /// Replaces everything with `items` (new ids).
    public func replace(with items: [PlaylistItem]) -> PlaylistEdit {
        let removed = ids.enumerated().map { (id: $0.element, position: $0.offset) }
        clear()
        var edit = append(items)
        edit.removed = removed
        version += 1
        return edit
    }

    // MARK: - The tables

    private func path(of id: ItemID) -> String { items[id]?.path ?? "" }

    /// Gives `item` a new id and enters it in the tables (not in the order).
    private func register(_ item: PlaylistItem) -> ItemID {
        let id = ItemID(nextID)
        nextID += 1
        register(item, as: id)
        return id
    }

    private func register(_ item: PlaylistItem, as id: ItemID) {
        items.set(item, for: id)
        byPath[item.path, default: []].append(id)
        if item.window != nil { windowed.insert(id) }
    }

    private func unregister(_ id: ItemID) {
        guard let item = items.remove(id) else { return }
        if var list = byPath[item.path] {
            list.removeAll { $0 == id }
            byPath[item.path] = list.isEmpty ? nil : list
        }
        windowed.remove(id)
    }

    private func clear() {
        ids.removeAll()
        items.removeAll()
        byPath.removeAll()
        windowed.removeAll()
        isPathSorted = true
    }

    /// After `count` ids went in at `at`: the playlist stays in path order only if they and their two neighbours
    /// are in order.
    private func keepSortedness(around at: Int, count: Int) {
        guard isPathSorted else { return }
        let lo = max(0, at - 1), hi = min(ids.count - 1, at + count)
        guard lo < hi else { return }
        for i in lo..<hi where PathOrder.precedes(path(of: ids[i + 1]), path(of: ids[i])) {
            isPathSorted = false
            return
        }
    }

    private func checkSorted() -> Bool {
        guard ids.count > 1 else { return true }
        for i in 0..<(ids.count - 1) where PathOrder.precedes(path(of: ids[i + 1]), path(of: ids[i])) { return false }
        return true
    }
}
