import Foundation
import KioskCore
import KioskMedia

/// One watched folder as a producer of commands: its watcher's reports become `PlayerCommand`s sent to the
/// player's inbox (`.removeMany` of `.path`s for files that left, then `.load(_, .sorted)` for files that came),
/// so the folder's files join the playlist in path order, or are shuffled in. It lives here, beside the player,
/// because it speaks the player's commands while the watcher (KioskMedia) only knows files.
///
/// Commands go one at a time, each once the one before it was answered: a folder's changes never pile up in one
/// frame, and the order of changes is kept. A long list of arriving files (a large folder streaming in at start)
/// goes in batches of `firstBatch`, then twice as many each time: the first pictures can show soon, and the
/// player's cost for each batch, which grows with the playlist, is paid only a few times.
public final class FolderSource: @unchecked Sendable {
    /// Items in the first load command of a report; each next one holds twice as many.
    public static let firstBatch = 1000

    /// The folder, as its items' paths start.
    public var folder: String { watcher.folder }

    private let watcher: FolderWatcher
    private let log: Log
    private let lock = NSLock()
    private var sink: CommandSink?
    private var queue: [PlayerCommand] = []
    private var waiting = false
    private var closed = false
    private var scanned = false

    /// A source for `folder` whose items `known` are already in the playlist (nil: none were loaded, so every file
    /// found streams in). Nothing is watched until `start`.
    public init(folder: String, known: [String]?, settle: Double, log: Log) throws(FolderWatchError) {
        self.log = log
        let box = WeakSource()
        watcher = try FolderWatcher(folder: folder, known: known, settle: settle, log: log) { box.source?.received($0) }
        box.source = self
    }

    /// Starts watching; commands go to `sink` from now on.
    public func start(sending sink: CommandSink) {
        lock.lock()
        self.sink = sink
        lock.unlock()
        watcher.start()
    }

    /// Stops watching; no command is sent after this returns.
    public func stop() {
        watcher.stop()
        lock.lock()
        closed = true
        queue.removeAll()
        lock.unlock()
    }

    /// A watcher's report (on its thread) becomes commands.
    private func received(_ changes: FolderChanges) {
        lock.lock()
        if !scanned {
            scanned = true
            log.info("\(folder): watching for changes")
        }
        if !changes.removed.isEmpty {
            log.info("\(folder): \(Self.count(changes.removed.count)) left")
            queue.append(.removeMany(changes.removed.map { .path($0) }))
        }
        if !changes.added.isEmpty {
            log.info("\(folder): \(Self.count(changes.added.count)) arrived")
            queue += Self.batches(changes.added).map { .load($0.map { PlaylistItem(path: $0) }, .sorted) }
        }
        let next = takeNext()
        lock.unlock()
        next.map(send)
    }

    /// `paths` in batches of `firstBatch`, then twice as many each time.
    static func batches(_ paths: [String]) -> [ArraySlice<String>] {
        var out: [ArraySlice<String>] = []
        var size = firstBatch
        var at = 0
        while at < paths.count {
            out.append(paths[at..<min(paths.count, at + size)])
            at += size
            size *= 2
        }
        return out
    }

    /// The next command to send, unless one is still waiting for its answer. Called with the lock held.
    private func takeNext() -> (PlayerCommand, CommandSink)? {
        guard !waiting, !closed, let sink, !queue.isEmpty else { return nil }
        waiting = true
        return (queue.removeFirst(), sink)
    }

    /// Sends a command (not holding the lock: a sink may answer at once).
    private func send(_ next: (command: PlayerCommand, sink: CommandSink)) {
        next.sink.send(next.command) { [weak self] _ in self?.answered() }
    }

    /// An answer (on the player's thread): the next command may go. Once the player has stopped, answers stop
    /// coming, and so do commands.
    private func answered() {
        lock.lock()
        waiting = false
        let next = takeNext()
        lock.unlock()
        next.map(send)
    }

    private static func count(_ n: Int) -> String { n == 1 ? "1 file" : "\(n) files" }
}

/// Lets the watcher's callback reach its source without keeping it alive.
private final class WeakSource: @unchecked Sendable {
    weak var source: FolderSource?
}
