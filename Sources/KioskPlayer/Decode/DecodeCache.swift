import Foundation
import KioskCore
import KioskMedia

/// Decodes playlist items (by stable id) on background threads ahead of their slots and keeps the few that are
/// needed.
///
/// Each decode runs on its own thread, so one slow or stuck file cannot hold up the next. A decode that runs
/// past the time bound is abandoned: the item is reported failed, and the thread's late result is dropped; so is
/// the result of a decode whose item was evicted or removed meanwhile (its decode is cancelled). Evicted items are
/// torn down on the reaper's thread, never on the caller's. Only `Sendable` values cross between threads.
public final class DecodeCache: @unchecked Sendable {
    /// Decodes one item's file to a picture at about `canvas` size.
    public typealias Decode = @Sendable (_ item: PlaylistItem) throws -> DecodedItem

    private enum Entry {
        case pending(started: Double, token: Int, stamp: FileStamp?)
        case ready(DecodedItem)
        /// Failed; `stamp` is the file as it was when its decode began (nil: it could not be read); `reason` is
        /// the log line's reason.
        case failed(stamp: FileStamp?, reason: String)
    }

    private let lock = NSCondition()
    private var entries: [ItemID: Entry] = [:]
    private var failures = 0
    private var paths: [ItemID: String] = [:]
    private var nextToken = 0
    /// The playlist ids refer to (read on the caller's thread only, when a decode starts).
    private let playlist: LivePlaylist
    private let decode: Decode
    private let timeout: Double
    private let log: Log
    private let wallClock = MonotonicClock()
    /// When failed items' files were last looked at, and where the next look starts (see `retryChanged`).
    private var lastRetryCheck = -Double.infinity
    private var retryCursor = 0
    /// How often, and at most how many, failed files `retryChanged` looks at.
    static let retryInterval = 1.0
    static let retryBatch = 32

    /// Creates a cache for the items of `playlist`; `decode` runs on background threads; `timeout` is in seconds
    /// of real time.
    public init(playlist: LivePlaylist, timeout: Double, log: Log, decode: @escaping Decode) {
        self.playlist = playlist
        self.timeout = timeout
        self.log = log
        self.decode = decode
    }

    /// A cache over a new playlist of `items` (ids 0, 1, 2…).
    public convenience init(items: [PlaylistItem], timeout: Double, log: Log, decode: @escaping Decode) {
        self.init(playlist: LivePlaylist(items), timeout: timeout, log: log, decode: decode)
    }

    /// Starts decoding `id` unless it is already decoded, decoding, failed, or not in the playlist.
    public func request(_ index: ItemID) {
        guard let item = playlist.item(index) else { return }
        let path = item.path
        lock.lock()
        defer { lock.unlock() }
        guard entries[index] == nil else { return }
        nextToken += 1
        let token = nextToken
        entries[index] = .pending(started: wallClock.now, token: token, stamp: FileStamp(path: path))
        paths[index] = path
        let decode = self.decode
        let thread = Thread { [weak self] in
            let result: Result<DecodedItem, Error>
            do { result = .success(try decode(item)) } catch { result = .failure(error) }
            self?.finish(index, token: token, result: result)
        }
        thread.name = "kiosk-decode"
        thread.stackSize = 4 << 20
        thread.start()
    }

    private func finish(_ index: ItemID, token: Int, result: Result<DecodedItem, Error>) {
        lock.lock()
        guard case .pending(_, let t, let stamp)? = entries[index], t == token else {
            lock.unlock()
            return  // abandoned, evicted or removed: the late result is dropped here, on the decode thread
        }
        let path = paths[index] ?? "?"
        switch result {
        case .success(let item):
            entries[index] = .ready(item)
            log.debug("\(path): decoded \(item.picture.size)")
        case .failure(let error):
            let line = Self.describe(error, path: path)
            entries[index] = .failed(stamp: stamp, reason: line)
            failures += 1
            log.warn("\(line); skipped")
        }
        lock.broadcast()
        lock.unlock()
    }

    /// Decodes that failed since the start (a file retried after it changed counts again): the health readings'.
    public var failureCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return failures
    }

    /// One line naming the file and the reason.
    static func describe(_ error: Error, path: String) -> String {
        if let e = error as? MediaError { return e.description }
        return "\(path): \(error)"
    }

    private func expireLocked(_ index: ItemID) {
        if case .pending(let started, _, let stamp)? = entries[index], wallClock.now - started > timeout {
            let line = "\(paths[index] ?? "?"): decode took longer than \(Self.seconds(timeout))"
            entries[index] = .failed(stamp: stamp, reason: line)
            log.warn("\(line); skipped")
        }
    }

    private static func seconds(_ t: Double) -> String { t == t.rounded() ? "\(Int(saturating: t, rounding: .towardZero)) s" : "\(t) s" }

    /// What the slideshow may know about `index` now; starts its decode if needed.
    public func availability(_ index: ItemID) -> Availability {
        request(index)
        lock.lock()
        defer { lock.unlock() }
        expireLocked(index)
        switch entries[index] {
        case .ready(let item)?: return .ready(item.picture.timing)
        case .failed?: return .failed
        case nil: return .failed  // not in the playlist (removed)
        default: return .pending
        }
    }

    /// Waits (real time, at most the decode bound, or `limit` seconds) until `index` is decoded or has failed.
    public func wait(for index: ItemID, limit: Double? = nil) {
        request(index)
        lock.lock()
        defer { lock.unlock() }
        if entries[index] == nil { return }  // not in the playlist
        let deadline = limit.map { wallClock.now + $0 }
        while true {
            if let deadline, wallClock.now >= deadline { return }
            expireLocked(index)
            if case .pending(let started, _, _)? = entries[index] {
                let left = timeout - (wallClock.now - started)
                _ = lock.wait(until: Date(timeIntervalSinceNow: max(0.001, min(left + 0.001, 0.25))))
            } else {
                return
            }
        }
    }

    /// Failed items whose file changed (size or modification time) since their decode began, and is there: their
    /// failure is forgotten, so the next request decodes them again (a file still being copied plays once it is whole).
    /// Looks at most once every `retryInterval` seconds of real time, at up to `retryBatch` files in turn, so a
    /// folder of bad files costs the caller little.
    public func retryChanged() -> [ItemID] {
        let now = wallClock.now
        lock.lock()
        guard now - lastRetryCheck >= Self.retryInterval else { lock.unlock(); return [] }
        lastRetryCheck = now
        var failed: [(id: ItemID, stamp: FileStamp?, path: String)] = []
        for (id, entry) in entries {
            if case .failed(let stamp, _) = entry { failed.append((id, stamp, paths[id] ?? "")) }
        }
        lock.unlock()
        guard !failed.isEmpty else { return [] }
        failed.sort { $0.id < $1.id }
        let start = retryCursor % failed.count
        let batch = (failed[start...] + failed[..<start]).prefix(Self.retryBatch)
        retryCursor = start + batch.count
        // A file that is gone has not "changed" into something playable: it is retried once it is back.
        let changed = batch.filter { failed in FileStamp(path: failed.path).map { $0 != failed.stamp } ?? false }
        guard !changed.isEmpty else { return [] }
        var retried: [ItemID] = []
        lock.lock()
        for c in changed {
            guard case .failed(let stamp, _)? = entries[c.id], stamp == c.stamp else { continue }
            entries[c.id] = nil
            paths[c.id] = nil
            retried.append(c.id)
            log.info("\(c.path): changed since it failed; trying it again")
        }
        lock.unlock()
        return retried
    }

    /// The decoded item for `index`, if ready.
    /// Why `index` failed (one line naming its file), if it did.
    public func failure(_ index: ItemID) -> String? {
        lock.lock()
        defer { lock.unlock() }
        if case .failed(_, let reason)? = entries[index] { return reason }
        return nil
    }

    public func item(_ index: ItemID) -> DecodedItem? {
        lock.lock()
        defer { lock.unlock() }
        if case .ready(let item)? = entries[index] { return item }
        return nil
    }

    /// Drops decoded pictures and pending decodes except those in `keep` (a pending decode's late result is then
    /// thrown away); failures are remembered so bad files aren't retried, unless their item left the playlist.
    /// What is dropped is torn down on the reaper's thread (a clip's decoder thread can take a while to stop).
    public func evict(keeping keep: Set<ItemID>) {
        var dropped: [DecodedItem] = []
        lock.lock()
        for (index, entry) in entries where !keep.contains(index) {
            if case .failed = entry, playlist.position(of: index) != nil { continue }
            if case .ready(let item) = entry { dropped.append(item) }
            entries[index] = nil
            paths[index] = nil
        }
        lock.unlock()
        // Handed over whole: nothing here keeps a reference, so the last one is dropped on the reaper's thread.
        if !dropped.isEmpty { Reaper.dispose(consume dropped) }
    }

    /// Whether `index` failed and is remembered as failed (for tests).
    public func hasFailed(_ index: ItemID) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if case .failed? = entries[index] { return true }
        return false
    }

    /// Items holding a decoded picture now (for tests and memory checks).
    public var decodedIndices: Set<ItemID> {
        lock.lock()
        defer { lock.unlock() }
        return Set(entries.compactMap { if case .ready = $0.value { return $0.key } else { return nil } })
    }
}
