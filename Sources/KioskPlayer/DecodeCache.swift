import Foundation
import KioskCore

/// Decodes playlist items on background threads ahead of their slots and keeps the few that are needed.
///
/// Each decode runs on its own thread, so one slow or stuck file cannot hold up the next. A decode that runs
/// past the time bound is abandoned: the item is reported failed, and the thread's late result is dropped.
/// Only `Sendable` values (paths, sizes, `DecodedItem`) cross between threads.
public final class DecodeCache: @unchecked Sendable {
    /// Decodes one file to a picture at about `canvas` size.
    public typealias Decode = @Sendable (_ path: String) throws -> DecodedItem

    private enum Entry {
        case pending(started: Double, token: Int)
        case ready(DecodedItem)
        case failed
    }

    private let lock = NSCondition()
    private var entries: [Int: Entry] = [:]
    private var nextToken = 0
    private let items: [PlaylistItem]
    private let decode: Decode
    private let timeout: Double
    private let log: Log
    private let wallClock = MonotonicClock()

    /// Creates a cache for `items`; `decode` runs on background threads; `timeout` is in seconds of real time.
    public init(items: [PlaylistItem], timeout: Double, log: Log, decode: @escaping Decode) {
        self.items = items
        self.timeout = timeout
        self.log = log
        self.decode = decode
    }

    /// Starts decoding `index` unless it is already decoded, decoding, or failed.
    public func request(_ index: Int) {
        lock.lock()
        defer { lock.unlock() }
        guard index >= 0, index < items.count, entries[index] == nil else { return }
        nextToken += 1
        let token = nextToken
        entries[index] = .pending(started: wallClock.now, token: token)
        let path = items[index].path
        let decode = self.decode
        let thread = Thread { [weak self] in
            let result: Result<DecodedItem, Error>
            do { result = .success(try decode(path)) } catch { result = .failure(error) }
            self?.finish(index, token: token, result: result)
        }
        thread.name = "kiosk-decode"
        thread.stackSize = 4 << 20
        thread.start()
    }

    private func finish(_ index: Int, token: Int, result: Result<DecodedItem, Error>) {
        lock.lock()
        defer { lock.broadcast(); lock.unlock() }
        guard case .pending(_, let t)? = entries[index], t == token else { return }  // abandoned or evicted
        switch result {
        case .success(let item):
            entries[index] = .ready(item)
            log.debug("\(items[index].path): decoded \(item.picture.size)")
        case .failure(let error):
            entries[index] = .failed
            log.warn("\(Self.describe(error, path: items[index].path)); skipped")
        }
    }

    /// One line naming the file and the reason.
    static func describe(_ error: Error, path: String) -> String {
        if let e = error as? MediaError { return e.description }
        return "\(path): \(error)"
    }

    private func expireLocked(_ index: Int) {
        if case .pending(let started, _)? = entries[index], wallClock.now - started > timeout {
            entries[index] = .failed
            log.warn("\(items[index].path): decode took longer than \(Self.seconds(timeout)); skipped")
        }
    }

    private static func seconds(_ t: Double) -> String { t == t.rounded() ? "\(Int(t)) s" : "\(t) s" }

    /// What the slideshow may know about `index` now; starts its decode if needed.
    public func availability(_ index: Int) -> Availability {
        request(index)
        lock.lock()
        defer { lock.unlock() }
        expireLocked(index)
        switch entries[index] {
        case .ready(let item)?: return .ready(item.picture.timing)
        case .failed?: return .failed
        default: return .pending
        }
    }

    /// Waits (real time, at most the decode bound, or `limit` seconds) until `index` is decoded or has failed.
    public func wait(for index: Int, limit: Double? = nil) {
        request(index)
        lock.lock()
        defer { lock.unlock() }
        let deadline = limit.map { wallClock.now + $0 }
        while true {
            if let deadline, wallClock.now >= deadline { return }
            expireLocked(index)
            if case .pending(let started, _)? = entries[index] {
                let left = timeout - (wallClock.now - started)
                _ = lock.wait(until: Date(timeIntervalSinceNow: max(0.001, min(left + 0.001, 0.25))))
            } else {
                return
            }
        }
    }

    /// The decoded item for `index`, if ready.
    public func item(_ index: Int) -> DecodedItem? {
        lock.lock()
        defer { lock.unlock() }
        if case .ready(let item)? = entries[index] { return item }
        return nil
    }

    /// Drops decoded pictures except those in `keep`; failures are remembered so bad files aren't retried.
    public func evict(keeping keep: Set<Int>) {
        lock.lock()
        defer { lock.unlock() }
        for (index, entry) in entries where !keep.contains(index) {
            if case .failed = entry { continue }
            entries[index] = nil
        }
    }

    /// Playlist indices holding a decoded picture now (for tests and memory checks).
    public var decodedIndices: Set<Int> {
        lock.lock()
        defer { lock.unlock() }
        return Set(entries.compactMap { if case .ready = $0.value { return $0.key } else { return nil } })
    }
}
