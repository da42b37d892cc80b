import Foundation

extension ContentCache {
    /// Keeps the cache within `budgetBytes`: removes continued downloads, then the least recently used bodies no
    /// kept index needs, then those only the replaced index needs, until it fits. The current index's files and
    /// `pending` (the next index's) are never removed; when they alone exceed the budget, the one line returned
    /// says so (nil when the cache fits).
    @discardableResult
    public func enforceBudget(protecting pending: Set<String> = []) -> String? {
        guard let budget = budgetBytes else { return nil }
        var used = usedBytes()
        guard used > budget else { return nil }
        var needed = pending
        if let current = state.current {
            needed.insert(current.file)
            needed.formUnion(current.media.values)
        }
        let previous = Set(state.previous.map { [$0.file] + Array($0.media.values) } ?? [])
        let sizes = Dictionary(listFiles().map { ($0.name, $0.size) }, uniquingKeysWith: { a, _ in a })
        func drop(_ name: String) {
            guard !needed.contains(name), let size = sizes[name], unlink(path(name)) == 0 else { return }
            used -= size
        }
        for url in state.partials.keys.sorted() where used > budget {
            let part = CacheNames.part(url)
            if needed.contains(part) { continue }
            drop(part)
            state.partials[url] = nil
        }
        let lru = state.entries.filter { !needed.contains($0.value.file) }
            .sorted { ($0.value.lastUsed, $0.key) < ($1.value.lastUsed, $1.key) }
        for (url, entry) in lru.sorted(by: { !previous.contains($0.value.file) && previous.contains($1.value.file) })
        where used > budget {
            drop(entry.file)
            state.entries[url] = nil
        }
        for name in previous.sorted() where used > budget && exists(name) { drop(name) }
        guard used > budget else { return nil }
        return "content cache \(directory): the current and next index need \(FetchError.mebibytes(used)), more than its "
            + "budget of \(FetchError.mebibytes(budget)); kept"
    }
}
