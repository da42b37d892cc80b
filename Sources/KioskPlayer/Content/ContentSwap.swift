import Foundation
import KioskCore
import KioskMedia

/// New content the content fetcher made local (`kiosk play URL`), waiting for the end of the item on screen so that
/// nothing is cut off mid-showing: a playlist, or one SMIL layout already read. Set from the fetcher's thread, taken
/// on the player's. Thread-safe.
public final class PendingContent: @unchecked Sendable {
    /// What replaces the content: the items to load, and the layout when they are one SMIL file (read off the loop).
    public struct Swap: Sendable {
        /// The playlist's items, or the one SMIL file.
        public let items: [PlaylistItem]
        /// The SMIL file, read, when `items` is one.
        public let layout: SMILFile?

        /// A swap to `items` (with `layout` read when they are one SMIL file).
        public init(items: [PlaylistItem], layout: SMILFile?) {
            self.items = items
            self.layout = layout
        }
    }

    private let lock = NSLock()
    private var waiting: Swap?

    /// Nothing waiting.
    public init() {}

    /// `swap` waits for the end of the item on screen (replacing one that waited).
    public func set(_ swap: Swap) {
        lock.lock()
        waiting = swap
        lock.unlock()
    }

    /// Whether a swap waits.
    public var isWaiting: Bool {
        lock.lock()
        defer { lock.unlock() }
        return waiting != nil
    }

    /// Whether the swap waiting is one SMIL layout (a layout playing takes it region by region).
    public var waitsWithLayout: Bool {
        lock.lock()
        defer { lock.unlock() }
        return waiting?.layout != nil
    }

    /// The waiting swap, taken (nil when none waits).
    public func take() -> Swap? {
        lock.lock()
        defer { lock.unlock() }
        let swap = waiting
        waiting = nil
        return swap
    }
}

extension Screen {
    /// At an item's end (the slideshow's next slot, or a layout's first region changing medium), or at once for a
    /// new layout over a layout playing, at player time `t`: the waiting content, if any, replaces what plays (a
    /// replacing load, as a remote's). A layout playing hands over to a new one region by region
    /// (`LayoutHandover`) when `byRegion` says so: each of its regions keeps its item to that item's end. True when
    /// it swapped: the turn then rests, and the next one plays the new content.
    func swapsContent(at t: Double, byRegion: Bool = false) -> Bool {
        guard let swap = fetched.pending.take() else { return false }
        if let layout = swap.layout, let path = swap.items.first?.path {
            services.intake.layoutLoads.put(path, .ready(layout))
        }
        let going = layoutMode
        let reply = execute(.load(swap.items, .replace), at: t)
        let what = swap.items.count == 1 ? swap.items[0].path : "\(swap.items.count) items"
        if case .failed(let why) = reply {
            log.warn("content: the new content could not be swapped in: \(why)")
        } else if byRegion, let going, let coming = layoutMode, coming !== going, let handover = going.goingOut(at: t), !handover.isDone {
            coming.handover = handover
            publish(handover.closing(handover.notHeld))
            log.info("content: swapping in region by region, each at the end of its item on screen (\(what); held: "
                     + handover.heldRegions.joined(separator: ", ") + ")")
        } else {
            log.info("content: swapped in at the end of the item on screen (\(what))")
        }
        publish(show.takeEvents())
        return true
    }
}

/// The indexes the content fetcher cached, by file: each with its `ContentMap`, so that a load of that file (a swap,
/// the state file's item after a restart, a remote's `loadfile`) reads its sources from the cache. Thread-safe.
public enum FetchedIndexes {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var maps: [String: ContentMap] = [:]
    nonisolated(unsafe) private static var files: Set<String> = []

    /// The index cached at `path` plays with `map`.
    public static func register(_ path: String, _ map: ContentMap) {
        lock.lock()
        maps[path] = map
        files.insert(path)
        files.formUnion(map.files.values)
        lock.unlock()
    }

    /// Whether `path` is a fetched index or one of its media (what a fetched playlist's items are).
    public static func isFetched(_ path: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return files.contains(path)
    }

    /// The map of the index cached at `path`; nil for any other file.
    public static func map(for path: String) -> ContentMap? {
        lock.lock()
        defer { lock.unlock() }
        return maps[path]
    }
}
