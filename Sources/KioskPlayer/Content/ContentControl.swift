import Foundation
import KioskCore

/// Where the player and the content fetcher (`kiosk play URL`) meet for the remotes: the fetcher, on its own thread,
/// leaves its status here after every check and says what it does for "check now" and a remote's `load URL`; the
/// player, on its thread, copies the status into each status it posts and runs the `checkContent` and `loadContent`
/// commands through it. Without a fetcher the status is nil and both commands fail with one line. Thread-safe.
public final class ContentControl: @unchecked Sendable {
    /// What the fetcher does for the commands (called on the player's thread: each only records the wish and wakes
    /// the fetcher's thread, never waits on the network).
    public struct Handlers: Sendable {
        /// Checks the index now; the URL checked, or nil when there is none (the fetcher waits for a URL).
        public var checkNow: @Sendable () -> String?
        /// Plays the index at the URL from the next check on; the one-line reason when it cannot.
        public var switchTo: @Sendable (String) -> ContentRefusal?
        /// A remote replaced what plays with local media: the fetcher stops (until a URL is loaded again).
        public var localLoad: @Sendable () -> Void

        /// Handlers.
        public init(checkNow: @escaping @Sendable () -> String?, switchTo: @escaping @Sendable (String) -> ContentRefusal?,
                    localLoad: @escaping @Sendable () -> Void = {}) {
            self.checkNow = checkNow
            self.switchTo = switchTo
            self.localLoad = localLoad
        }
    }

    private let lock = NSLock()
    private var latest: ContentStatus?
    private var handlers: Handlers?

    /// No fetcher yet.
    public init() {}

    /// The fetcher's status as last left here; nil without a fetcher.
    public var status: ContentStatus? {
        lock.lock()
        defer { lock.unlock() }
        return latest
    }

    /// The fetcher's status from now on (the next status the player posts carries it).
    public func update(_ status: ContentStatus) {
        lock.lock()
        latest = status
        lock.unlock()
    }

    /// The fetcher answers the commands from now on.
    public func connect(_ handlers: Handlers) {
        lock.lock()
        self.handlers = handlers
        lock.unlock()
    }

    private var connected: Handlers? {
        lock.lock()
        defer { lock.unlock() }
        return handlers
    }

    /// The player's side of `checkContent`.
    func check(log: Log) -> CommandReply {
        guard let url = connected?.checkNow() else { return .failed(ContentStatus.notFetching) }
        log.info("content: checking \(url) now (a remote asked)")
        return .done()
    }

    /// A command from the inbox replaced what plays with `items`: when none of them is fetched content (a remote's
    /// `loadfile` of local files), the fetcher is told, so that its next index does not swap back in.
    func noteReplacingLoad(_ items: [PlaylistItem]) {
        guard let handlers = connected, !items.isEmpty, !items.contains(where: { FetchedIndexes.isFetched($0.path) }) else { return }
        handlers.localLoad()
    }

    /// The player's side of `loadContent`.
    func load(_ url: String, log: Log) -> CommandReply {
        guard let handlers = connected else {
            return .failed("kiosk has no content cache to fetch \(url) into (give --content-cache DIR or a state folder)")
        }
        if let refusal = handlers.switchTo(url) { return .failed(refusal.description) }
        return .done()
    }
}

/// Why the fetcher cannot take a URL, one line naming it.
public struct ContentRefusal: Error, CustomStringConvertible, Sendable, Equatable {
    /// The line.
    public let description: String
    /// A refusal.
    public init(_ description: String) { self.description = description }
}
