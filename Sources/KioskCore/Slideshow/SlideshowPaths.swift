/// Edits by path, for producers that know files rather than ids (a folder watcher): items put into place by
/// path order, and many items removed in one edit. Each costs in proportion to the items it names (a binary
/// search or a table look-up each), so a change to a folder of 100,000 files costs what the change is.
extension Slideshow {
    /// Adds `items` in path order (`LoadMode.sorted`): sorted among themselves, each before the first entry whose
    /// path sorts after it. One pass: the place for each next (larger) item can only be further on.
    func loadSorted(_ items: [PlaylistItem]) -> PlaylistEdit {
        let sorted = PathOrder.sorted(items, by: \.path)
        var placed: [(item: PlaylistItem, before: Int)] = []
        placed.reserveCapacity(sorted.count)
        let n = playlist.count
        let searches = sorted.count * (Int.bitWidth - n.leadingZeroBitCount + 1)
        if (playlist.isPathSorted && searches < n) || sorted.count <= 4 {
            // A binary search each, for a few items among many (a scan each for a very few into a playlist out of
            // path order); otherwise one merge pass over the playlist.
            for item in sorted { placed.append((item, playlist.pathOrderPosition(of: item.path))) }
        } else {
            let ids = playlist.ids
            var at = 0
            for item in sorted {
                while at < ids.count, !PathOrder.precedes(item.path, playlist.item(ids[at])?.path ?? "") { at += 1 }
                placed.append((item, at))
            }
        }
        return playlist.insert(placed)
    }

    /// The ids `refs` name, each once, in order: refs that name nothing are skipped, and a `.path` names the first
    /// entry with that path that no ref before it named.
    func resolveAll(_ refs: [ItemRef]) -> [ItemID] {
        var byPath: [String: [ItemID]] = [:]
        for case .path(let p) in refs where byPath[p] == nil { byPath[p] = playlist.ids(withPath: p) }
        var taken = Set<ItemID>()
        var out: [ItemID] = []
        for ref in refs {
            let id: ItemID?
            if case .path(let p) = ref { id = byPath[p]?.first { !taken.contains($0) } } else { id = resolve(ref) }
            if let id, taken.insert(id).inserted { out.append(id) }
        }
        return out
    }

    /// The id of the first entry with `path`.
    func firstID(withPath path: String) -> ItemID? {
        playlist.ids(withPath: path).first
    }
}
