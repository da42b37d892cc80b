/// Edits by path, for producers that know files rather than ids (a folder watcher): items put into place by
/// path order, and many items removed in one edit. Each costs one pass over the playlist however many items it
/// names, so a folder's thousands of changes do not cost thousands of passes.
extension Slideshow {
    /// Adds `items` in path order (`LoadMode.sorted`): sorted among themselves, each before the first entry whose
    /// path sorts after it. One pass: the place for each next (larger) item can only be further on.
    func loadSorted(_ items: [PlaylistItem]) -> PlaylistEdit {
        let entries = playlist.entries
        var placed: [(item: PlaylistItem, before: Int)] = []
        placed.reserveCapacity(items.count)
        var at = 0
        for item in PathOrder.sorted(items, by: \.path) {
            while at < entries.count, !PathOrder.precedes(item.path, entries[at].item.path) { at += 1 }
            placed.append((item, at))
        }
        return playlist.insert(placed)
    }

    /// The ids `refs` name, each once, in order: refs that name nothing are skipped, and a `.path` names the first
    /// entry with that path that no ref before it named.
    func resolveAll(_ refs: [ItemRef]) -> [ItemID] {
        var wanted = Set<String>()
        for case .path(let p) in refs { wanted.insert(p) }
        var byPath: [String: [ItemID]] = [:]
        if !wanted.isEmpty {
            for e in playlist.entries where wanted.contains(e.item.path) { byPath[e.item.path, default: []].append(e.id) }
        }
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
        playlist.entries.first { $0.item.path == path }?.id
    }
}
