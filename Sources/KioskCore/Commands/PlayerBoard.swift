import Foundation

/// Where the player posts its status and events for servers on other threads. The player posts on its own
/// thread once a frame; each subscriber is woken (its `wake` is called, on the player's thread: it must only
/// raise a signal) when something new is there, and takes it on its own thread. Thread-safe.
public final class PlayerBoard: @unchecked Sendable {
    private let lock = NSLock()
    private var latest = PlayerStatus()
    private var subscribers: [Int: BoardSubscription] = [:]
    private var nextKey = 0

    /// An empty board (an idle status).
    public init() {}

    /// The latest status.
    public var status: PlayerStatus {
        lock.lock()
        defer { lock.unlock() }
        return latest
    }

    /// Posts the player's status; subscribers are woken when it differs from the last one.
    public func post(_ status: PlayerStatus) {
        lock.lock()
        guard status != latest else { return lock.unlock() }
        latest = status
        let woken = Array(subscribers.values)
        lock.unlock()
        for s in woken { s.statusChanged() }
    }

    /// Posts events, in order; every subscriber gets each.
    public func post(_ events: [PlayerEvent]) {
        guard !events.isEmpty else { return }
        lock.lock()
        let all = Array(subscribers.values)
        lock.unlock()
        for s in all { s.add(events) }
    }

    /// A new subscriber: it hears events posted from now on. `wake` is called when there is something to take.
    public func subscribe(wake: @escaping @Sendable () -> Void) -> BoardSubscription {
        lock.lock()
        defer { lock.unlock() }
        let key = nextKey
        nextKey += 1
        let s = BoardSubscription(board: self, key: key, wake: wake)
        subscribers[key] = s
        return s
    }

    fileprivate func remove(_ key: Int) {
        lock.lock()
        subscribers[key] = nil
        lock.unlock()
    }
}

/// One subscriber's queue of events, and whether the status changed since it last looked.
public final class BoardSubscription: @unchecked Sendable {
    private weak var board: PlayerBoard?
    private let key: Int
    private let wake: @Sendable () -> Void
    private let lock = NSLock()
    private var events: [PlayerEvent] = []
    private var statusIsNew = true
    /// Events kept for a subscriber that does not take them; past this the oldest go (a stuck server cannot
    /// make the player grow without bound).
    public static let maxQueuedEvents = 10_000

    fileprivate init(board: PlayerBoard, key: Int, wake: @escaping @Sendable () -> Void) {
        self.board = board
        self.key = key
        self.wake = wake
    }

    fileprivate func add(_ new: [PlayerEvent]) {
        lock.lock()
        events.append(contentsOf: new)
        if events.count > Self.maxQueuedEvents { events.removeFirst(events.count - Self.maxQueuedEvents) }
        lock.unlock()
        wake()
    }

    fileprivate func statusChanged() {
        lock.lock()
        statusIsNew = true
        lock.unlock()
        wake()
    }

    /// The events since the last call, oldest first, and the status when it changed since the last call.
    public func take() -> (events: [PlayerEvent], status: PlayerStatus?) {
        lock.lock()
        let out = events
        events.removeAll()
        let fresh = statusIsNew
        statusIsNew = false
        lock.unlock()
        return (out, fresh ? board?.status : nil)
    }

    /// Stops hearing from the board.
    public func cancel() { board?.remove(key) }
}
