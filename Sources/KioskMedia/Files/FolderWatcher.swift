import Foundation
import KioskCore

/// What changed in a watched folder since the last report: media files that became ready to play, and files that
/// left. Paths are as the playlist holds them (`FolderMedia.path`); added ones are in path order (`PathOrder`).
public struct FolderChanges: Sendable, Equatable {
    /// Files that arrived (complete) or came back.
    public var added: [String]
    /// Files that were deleted, renamed away, or went with their folder.
    public var removed: [String]

    /// Changes.
    public init(added: [String] = [], removed: [String] = []) {
        self.added = added
        self.removed = removed
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty }
}

/// Watches a folder and everything under it with inotify, on its own thread, and reports what changed. Folders
/// that appear later are watched as they appear (and listed, since files may land before their watch). Only
/// files that `FolderMedia.counts` take part, and a file counts once it is complete: closed after writing, renamed
/// into place, or steady for `settle` seconds (`SettleQueue`). A folder that goes (deleted, moved away, unmounted)
/// loses its files with one warning, and is looked for every 2 s until it is back. An overflow of the kernel's
/// event queue leads to a full rescan.
///
/// The first report comes once the initial scan is done, even when empty. Given the files already known (loaded
/// at start), it holds only the differences; given none, it holds every file found, in path order.
public final class FolderWatcher: @unchecked Sendable {
    /// Seconds between looks for a folder that is gone.
    public static let lookForGoneFolder = 2.0

    /// The folder watched, as given.
    public let folder: String
    private let known: Set<String>?
    private let log: Log
    private let report: @Sendable (FolderChanges) -> Void
    private let inotify: Inotify
    private let wake: WakePipe
    private let stopped = NSCondition()
    private var running = false
    private var stopRequested = false
    /// Raw event bytes handed in by a test, read as if they came from the kernel.
    private var injected: [[UInt8]] = []

    // The watcher thread's own state.
    private let tree: FolderTree
    private var settling: SettleQueue
    /// Files touched since the last report, and whether each was ready before.
    private var touched: [String: Bool] = [:]
    /// While the folder is gone: when to look next, and what was at its path when it went (an unmounted folder
    /// leaves the empty folder under it, which is not it).
    private var gone: (nextLook: Double, left: (dev: UInt64, ino: UInt64)?)?
    /// Subfolders whose file system was unmounted (a USB stick mounted inside the folder, then pulled), with
    /// the folder their path showed after it: looked at every `lookForGoneFolder` seconds, and listed again once
    /// something else is there (mounted again).
    private var unmounted: [String: (dev: UInt64, ino: UInt64)] = [:]
    private var nextMountLook: Double?

    /// A watcher of `folder` (not started). `known` holds the paths already in the playlist for it; nil when none
    /// were loaded, so that the first report brings them all. `report` is called on the watcher's thread.
    public init(folder: String, known: [String]?, settle: Double, log: Log,
                report: @escaping @Sendable (FolderChanges) -> Void) throws(FolderWatchError) {
        self.folder = folder
        self.known = known.map(Set.init)
        self.log = log
        self.report = report
        inotify = try Inotify()
        do {
            wake = try WakePipe()
        } catch {
            inotify.close()
            throw error
        }
        tree = FolderTree(root: folder, inotify: inotify, log: log)
        settling = SettleQueue(settle: settle)
    }

    deinit {
        inotify.close()
        wake.close()
    }

    /// Starts the thread: the initial scan, then changes as they come.
    public func start() {
        stopped.lock()
        running = true
        stopped.unlock()
        let thread = Thread { [self] in
            run()
            stopped.lock()
            running = false
            stopped.broadcast()
            stopped.unlock()
        }
        thread.name = "kiosk folder watcher"
        thread.start()
    }

    /// Stops the thread and waits (up to 5 s) for it to end; no report comes after this returns.
    public func stop() {
        stopped.lock()
        stopRequested = true
        stopped.unlock()
        wake.raise()
        stopped.lock()
        let deadline = Date(timeIntervalSinceNow: 5)
        while running, stopped.wait(until: deadline) {}
        stopped.unlock()
    }

    /// Hands raw inotify event bytes to the watcher as if the kernel had sent them (tests: an overflow).
    func inject(_ bytes: [UInt8]) {
        stopped.lock()
        injected.append(bytes)
        stopped.unlock()
        wake.raise()
    }

    private var shouldStop: Bool {
        stopped.lock()
        defer { stopped.unlock() }
        return stopRequested
    }

    private func takeInjected() -> [InotifyEvent] {
        stopped.lock()
        defer { stopped.unlock() }
        let all = injected.flatMap { bytes in bytes.withUnsafeBytes { InotifyEvent.parse($0) } }
        injected.removeAll()
        return all
    }

    // MARK: - The thread

    private func run() {
        initialScan()
        while !shouldStop {
            let now = MonotonicClock.seconds()
            let due = [settling.nextLook, gone?.nextLook, nextMountLook].compactMap { $0 }.min()
            let readable = wake.wait(timeout: due.map { max(0, $0 - now) }, also: inotify.fd)
            if shouldStop { break }
            var events = takeInjected()
            if readable {
                do {
                    events += try inotify.read()
                } catch {
                    log.error("\(folder): \(error); the folder is no longer watched")
                    return
                }
            }
            var overflowed = false
            for e in events {
                if e.has(IN_Q_OVERFLOW) { overflowed = true } else { handle(e) }
            }
            if overflowed { rescan() }
            settle(now: MonotonicClock.seconds())
            if let g = gone, MonotonicClock.seconds() >= g.nextLook { lookForFolder() }
            if let m = nextMountLook, MonotonicClock.seconds() >= m { lookForMounts() }
            flush()
        }
    }

    /// Watches and lists everything; reports what differs from `known` (or everything, without it).
    private func initialScan() {
        let found = tree.add("", ready: known == nil)
        guard tree.hasRoot else {
            folderWent(reason: "cannot be watched")
            report(FolderChanges(removed: PathOrder.sorted(Array(known ?? []))))
            return
        }
        let now = MonotonicClock.seconds()
        guard let known else {
            report(FolderChanges(added: PathOrder.sorted(found.flatMap { f in f.names.map { tree.itemPath(f.folder, $0) } })))
            return
        }
        var seen = Set<String>()
        for rel in found.flatMap(\.paths) {
            let path = tree.itemPath(rel)
            seen.insert(path)
            if known.contains(path) {
                _ = tree.insert(rel)
            } else {
                settling.add(rel, look: look(rel), now: now)  // arrived since it was loaded: may be half written
            }
        }
        let removed = known.filter { !seen.contains($0) }
        report(FolderChanges(removed: PathOrder.sorted(Array(removed))))
    }

    /// One event from the kernel.
    private func handle(_ e: InotifyEvent) {
        guard let dir = tree.folder(watchedBy: e.wd) else { return }  // a watch already forgotten
        if e.has(IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT | IN_IGNORED) {
            guard dir.isEmpty else {
                if e.has(IN_UNMOUNT) {
                    subfolderUnmounted(dir)
                } else if e.has(IN_IGNORED) {
                    folderLeft(dir)  // its parent's event removes it otherwise
                }
                return
            }
            folderWent(reason: e.has(IN_UNMOUNT) ? "unmounted" : e.has(IN_MOVE_SELF) ? "moved away" : "deleted",
                       unmounted: e.has(IN_UNMOUNT) || e.has(IN_IGNORED) && !e.has(IN_DELETE_SELF | IN_MOVE_SELF))
            return
        }
        let rel = FolderTree.join(dir, e.name)
        if e.has(IN_ISDIR) {
            if e.has(IN_DELETE | IN_MOVED_FROM) {
                folderLeft(rel)
            } else if e.has(IN_MOVED_TO) {  // moved in whole: its files are complete
                for f in tree.add(rel, ready: true).flatMap(\.paths) { touch(f, wasReady: false) }
            } else if e.has(IN_CREATE) {  // made here: it may still be filling
                let now = MonotonicClock.seconds()
                for f in tree.add(rel, ready: false).flatMap(\.paths) { settling.add(f, look: look(f), now: now) }
            }
            return
        }
        guard FolderMedia.counts(e.name) else { return }
        if e.has(IN_CLOSE_WRITE | IN_MOVED_TO) {
            settling.remove(rel)
            ready(rel)
        } else if e.has(IN_CREATE) {
            if !tree.contains(rel) { settling.add(rel, look: look(rel), now: MonotonicClock.seconds()) }
        } else if e.has(IN_DELETE | IN_MOVED_FROM) {
            settling.remove(rel)
            if tree.remove(rel) { touch(rel, wasReady: true) }
        }
    }

    /// The file `rel` is complete.
    private func ready(_ rel: String) {
        if tree.insert(rel) { touch(rel, wasReady: false) }
    }

    private func touch(_ rel: String, wasReady: Bool) {
        if touched[rel] == nil { touched[rel] = wasReady }
    }

    /// The subfolder `rel` was unmounted: its files leave (with one warning), and its path is looked at until
    /// something is mounted there again.
    private func subfolderUnmounted(_ rel: String) {
        folderLeft(rel)
        // Folders inside the unmounted file system are gone now; its mount point is still there and says it.
        guard let st = FileAccess.status(tree.diskPath(rel)), st.st_mode & S_IFMT == S_IFDIR else { return }
        unmounted[rel] = (UInt64(st.st_dev), UInt64(st.st_ino))
        nextMountLook = MonotonicClock.seconds() + Self.lookForGoneFolder
        log.warn("\(folder): \(rel) unmounted: its items leave the playlist until it is back")
    }

    /// Whether something is mounted again where a subfolder was unmounted: then it is listed and its files come
    /// back once they have settled. A path that is no longer a folder is forgotten.
    private func lookForMounts() {
        for (rel, left) in unmounted {
            guard let st = FileAccess.status(tree.diskPath(rel)), st.st_mode & S_IFMT == S_IFDIR else {
                unmounted[rel] = nil
                continue
            }
            guard left.dev != UInt64(st.st_dev) || left.ino != UInt64(st.st_ino) else { continue }
            unmounted[rel] = nil
            let found = tree.add(rel, ready: false).flatMap(\.paths)
            let now = MonotonicClock.seconds()
            for f in found { settling.add(f, look: look(f), now: now) }
            log.warn("\(folder): \(rel) is back with \(found.count) file\(found.count == 1 ? "" : "s")")
        }
        nextMountLook = unmounted.isEmpty ? nil : MonotonicClock.seconds() + Self.lookForGoneFolder
    }

    /// The folder `rel` (inside the root) went: its files leave.
    private func folderLeft(_ rel: String) {
        unmounted[rel] = nil
        settling.remove(under: rel)
        for f in tree.removeFolder(rel) { touch(f, wasReady: true) }
    }

    /// The watched folder itself went: everything leaves, with one warning, until it is back.
    private func folderWent(reason: String, unmounted: Bool = false) {
        let gone = tree.removeFolder("")
        for f in gone { touch(f, wasReady: true) }
        settling.remove(under: "")
        var left: (dev: UInt64, ino: UInt64)?
        if unmounted, let st = FileAccess.status(folder) { left = (UInt64(st.st_dev), UInt64(st.st_ino)) }
        self.gone = (MonotonicClock.seconds() + Self.lookForGoneFolder, left)
        let count = gone.isEmpty ? "" : " (\(gone.count) item\(gone.count == 1 ? "" : "s"))"
        log.warn("\(folder): folder \(reason): its items\(count) leave the playlist until it is back")
    }

    /// While gone: whether a folder is at the path again (not the one an unmount left behind); then it is listed
    /// and its files come back once they have settled.
    private func lookForFolder() {
        guard let g = gone else { return }
        gone?.nextLook = MonotonicClock.seconds() + Self.lookForGoneFolder
        guard let st = FileAccess.status(folder), st.st_mode & S_IFMT == S_IFDIR else { return }
        if let left = g.left, left.dev == UInt64(st.st_dev), left.ino == UInt64(st.st_ino) { return }
        let found = tree.add("", ready: false).flatMap(\.paths)
        guard tree.hasRoot else { return }
        gone = nil
        let now = MonotonicClock.seconds()
        for f in found { settling.add(f, look: look(f), now: now) }
        log.warn("\(folder): folder is back with \(found.count) file\(found.count == 1 ? "" : "s")")
    }

    /// After an overflow (events were lost): lists everything again and reports the differences.
    private func rescan() {
        guard gone == nil else { return }
        log.info("\(folder): the kernel's event queue overflowed; rescanning the folder")
        let before = Set(tree.forgetAll())
        let found = tree.add("", ready: false).flatMap(\.paths)
        guard tree.hasRoot else {
            for rel in before { touch(rel, wasReady: true) }
            return folderWent(reason: "deleted")
        }
        let now = MonotonicClock.seconds()
        var seen = Set<String>()
        for rel in found {
            seen.insert(rel)
            if before.contains(rel) {
                _ = tree.insert(rel)
            } else if !settling.contains(rel) {
                settling.add(rel, look: look(rel), now: now)
            }
        }
        for rel in before where !seen.contains(rel) { touch(rel, wasReady: true) }
    }

    /// Files that held still long enough become ready.
    private func settle(now: Double) {
        guard let due = settling.nextLook, due <= now else { return }
        for rel in settling.ready(now: now, look: look) { ready(rel) }
    }

    /// Size and modification time of the file `rel`, or nil when it is gone.
    private func look(_ rel: String) -> SettleQueue.Look? {
        guard let st = FileAccess.status(tree.diskPath(rel)) else { return nil }
        return SettleQueue.Look(size: Int64(st.st_size), modified: Int64(st.st_mtim.tv_sec),
                                modifiedNanoseconds: Int64(st.st_mtim.tv_nsec))
    }

    /// Reports the files touched since the last report whose state changed.
    private func flush() {
        var changes = FolderChanges()
        var added: [String] = []
        for (rel, wasReady) in touched {
            let isReady = tree.contains(rel)
            if isReady && !wasReady { added.append(rel) }
            if wasReady && !isReady { changes.removed.append(tree.itemPath(rel)) }
        }
        touched.removeAll()
        changes.added = PathOrder.sorted(added).map(tree.itemPath)
        changes.removed = PathOrder.sorted(changes.removed)
        if !changes.isEmpty { report(changes) }
    }
}
