import Foundation
import KioskCore
import KioskFetch
import KioskMedia
import KioskPlayer

/// What `ContentLink` says: the status it leaves for the remotes, its lines (each said once until it changes), and
/// the cached index read for the player.
extension ContentLink {
    /// Leaves the status for the remotes: after `report`'s check, or (nil) as the cache's state file has it.
    func publish(_ report: SyncReport?, url: String?) {
        if let url, wantedURL != url { return }  // a remote moved on meanwhile (another URL, or local media)
        var s = ContentStatus()
        s.url = url
        s.signed = key != nil
        s.cacheBudget = budget
        if let cache = sync?.cache {
            s.cacheBytes = cache.usedBytes()
            if let report {
                s.lastCheck = WallInstant(clamping: Date())
                s.result = ContentStatus.CheckResult(rawValue: report.outcome.rawValue) ?? .none
                s.problem = report.problems.first
            } else if let check = cache.lastCheck, check.url == url {
                s.lastCheck = WallInstant(clamping: Date(timeIntervalSince1970: check.at))
                s.result = ContentStatus.CheckResult(rawValue: check.outcome) ?? .none
                s.problem = check.problems.first
            }
        }
        if let index = handedIndex {
            s.fetched = WallInstant(clamping: Date(timeIntervalSince1970: index.publishedAt))
            s.media = index.media.count
        }
        show(s)
    }

    /// Hands `s` to the player's `ContentControl` and wakes its loop to post it.
    func show(_ s: ContentStatus) {
        cond.lock()
        let player = self.player
        cond.unlock()
        player?.control.update(s)
        player?.inbox.nudge()
    }

    /// The index cached for `index`, ready to hand the player: one SMIL file (read here, off the player's loop) or
    /// the playlist's entries as cache files. Nil, with one line, when it cannot be read.
    func read(_ index: KeptIndex, cache: ContentCache) -> PendingContent.Swap? {
        let file = cache.indexPath(of: index)
        let map = cache.map(of: index)
        FetchedIndexes.register(file, map)
        switch index.kind {
        case .smil:
            do {
                let layout = try SMILFile.load(file, limits: limits, content: map)
                return PendingContent.Swap(items: [PlaylistItem(path: file)], layout: layout)
            } catch {
                log.warn("content: \(error)")
                return nil
            }
        case .m3u:
            guard let data = FileManager.default.contents(atPath: file) else {
                log.warn("content: cannot read the cached playlist \(file)")
                return nil
            }
            let items = M3U.entries(in: String(decoding: data, as: UTF8.self), base: "", source: index.url, log: log, content: map)
            return PendingContent.Swap(items: items, layout: nil)
        }
    }

    /// Writes `line` (and `more`) unless `key` is what was said last (the same problems: said once, not at every
    /// retry); nil forgets it, so a problem that comes back is said again.
    func say(_ line: String?, key: [String], more: [String] = []) {
        cond.lock()
        let same = key == lastSaid
        lastSaid = key
        cond.unlock()
        guard !same, let line else { return }
        for l in [line] + more { log.warn(l) }
    }

    static func seconds(_ s: Double) -> String { s < 90 ? "\(Int(saturating: s)) s" : "\(Int(saturating: s / 60)) min" }

    static func age(_ since: Double) -> String {
        seconds(max(0, Date().timeIntervalSince1970 - since))
    }
}
