import Foundation
import KioskCore

/// Watches for a signed content bundle to appear, on a thread of its own, by polling (no udev, no D-Bus, no inotify:
/// it works in a container and on any file system, a stick's vfat included):
///
/// - `--content-bundle DIR`: the folder DIR (where a stick is mounted by fstab, or a folder a person copies a bundle
///   into). A bundle there at start counts as new.
/// - `--content-bundle auto`: every mount point under /media, /run/media and /mnt, read from `/proc/self/mountinfo`
///   at each poll. Something must mount the stick: udisks2 (desktops, `udisksctl mount`), usbmount, or an
///   fstab/systemd automount line; kiosk itself mounts nothing. A mount there at start counts as new.
///
/// A folder's bundle is its `index.smil` and `index.smil.minisig` (in `kiosk/` or the folder itself,
/// `BundleLayout.indexFolder`), known by their device, inode, size and times. When that changes to a bundle not yet
/// handed over (one that appeared: a new mount, a stick plugged in again, a new index copied in) and stays the same
/// for one more poll (a copy in progress settles first: copy the signature last), `onBundle` is called with the
/// watched folder (the mount point, or DIR), on the watch's thread; the handler imports it (`BundleImport`). A bundle
/// that goes away is forgotten, so the same stick plugged in again is handed over again.
public final class BundleWatch: @unchecked Sendable {
    /// What is watched.
    public enum Source: Sendable, Equatable {
        /// One folder.
        case folder(String)
        /// The mount points in the mount table `table` (proc(5)'s mountinfo) at or under `roots`.
        case mounts(table: String, roots: [String])
    }

    /// What it watches.
    public let source: Source
    /// Seconds between polls.
    public let interval: Double
    private let log: Log
    private let onBundle: @Sendable (String) -> Void
    private let cond = NSCondition()
    // guarded by `cond`
    private var stopping = false
    private var running = false
    private var seen: [String: BundleStamp?] = [:]
    private var handed: [String: BundleStamp] = [:]
    private var tableUnreadable = false

    /// The poll period of `--content-bundle`.
    public static let defaultInterval = 2.0

    /// The watch `--content-bundle SPEC` asks for (`auto`, or a folder), polling every 2 s, calling `onBundle` with
    /// each bundle's folder.
    public convenience init(spec: String, log: Log, onBundle: @escaping @Sendable (String) -> Void) throws(UsageError) {
        self.init(source: try Self.source(spec: spec), log: log, onBundle: onBundle)
    }

    /// A watch of `source` polling every `interval` seconds (tests give a fake mount table and short periods).
    public init(source: Source, interval: Double = BundleWatch.defaultInterval, log: Log,
                onBundle: @escaping @Sendable (String) -> Void) {
        self.source = source
        self.interval = interval
        self.log = log
        self.onBundle = onBundle
    }

    /// What `--content-bundle SPEC` names: `auto` the removable mounts, else the folder SPEC.
    public static func source(spec: String) throws(UsageError) -> Source {
        let text = spec.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw UsageError("--content-bundle: give a folder or 'auto'") }
        if text == "auto" { return .mounts(table: MountTable.proc, roots: MountTable.removableRoots) }
        return .folder(text)
    }

    /// Starts polling on a thread named `kiosk-bundle`; the first poll is at once.
    public func start() {
        cond.lock()
        guard !running else {
            cond.unlock()
            return
        }
        running = true
        stopping = false
        cond.unlock()
        let thread = Thread { [self] in
            while !isStopping {
                poll()
                cond.lock()
                let until = Date(timeIntervalSinceNow: interval)
                while !stopping, cond.wait(until: until) {}
                cond.unlock()
            }
            cond.lock()
            running = false
            cond.broadcast()
            cond.unlock()
        }
        thread.name = "kiosk-bundle"
        thread.start()
    }

    /// Ends the polling: waits (at most a few seconds, a handler may be importing a large stick) until the thread has
    /// left its loop; no handler call begins after it returns unless that wait ran out.
    public func stop() {
        cond.lock()
        stopping = true
        cond.broadcast()
        let until = Date(timeIntervalSinceNow: 5)
        while running, cond.wait(until: until) {}
        cond.unlock()
    }

    private var isStopping: Bool {
        cond.lock()
        defer { cond.unlock() }
        return stopping
    }

    /// Looks once (what the thread does every `interval`), calling `onBundle` for each bundle that appeared or
    /// changed and has settled since the last look.
    public func poll() {
        let folders = watchedFolders()
        let stamps = folders.map { ($0, BundleStamp(folder: $0)) }
        var ready: [String] = []
        cond.lock()
        for gone in seen.keys where !folders.contains(gone) {
            seen[gone] = nil
            handed[gone] = nil
        }
        for (folder, stamp) in stamps {
            let before = seen[folder]
            seen[folder] = .some(stamp)
            guard let stamp else {
                handed[folder] = nil
                continue
            }
            guard before == .some(.some(stamp)), handed[folder] != stamp else { continue }
            handed[folder] = stamp
            ready.append(folder)
        }
        cond.unlock()
        for folder in ready {
            log.info("content bundle: \(folder): a bundle (\(stampSummary(folder))); importing it")
            onBundle(folder)
        }
    }

    /// The folders to look in now.
    private func watchedFolders() -> [String] {
        switch source {
        case .folder(let folder): return [folder]
        case .mounts(let table, let roots):
            let points = MountTable.mountPoints(in: table, under: roots)
            cond.lock()
            let said = tableUnreadable
            tableUnreadable = points == nil
            cond.unlock()
            if points == nil, !said { log.warn("content bundle: cannot read the mount table \(table); no stick is noticed until it can") }
            return points ?? []
        }
    }

    /// Where the bundle's index is, for the log line.
    private func stampSummary(_ folder: String) -> String {
        (BundleLayout.indexFolder(in: folder).map { $0 + "/" + BundleLayout.indexName }) ?? folder
    }
}

/// What a bundle in a folder is now: its index's folder and the identity of its index and signature files (device,
/// inode, size, modification and change times). Two equal stamps are the same bundle, unchanged.
struct BundleStamp: Equatable, Sendable {
    /// One file's identity.
    struct FileStamp: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: [Int]
        var changed: [Int]

        /// `path`'s stamp (symlinks followed), nil when it is not a regular file.
        init?(_ path: String) {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = [info.st_mtim.tv_sec, info.st_mtim.tv_nsec]
            changed = [info.st_ctim.tv_sec, info.st_ctim.tv_nsec]
        }
    }

    var indexFolder: String
    var index: FileStamp
    var signature: FileStamp?

    /// The bundle in `folder` now; nil when it holds none.
    init?(folder: String) {
        guard let indexFolder = BundleLayout.indexFolder(in: folder),
              let index = FileStamp(indexFolder + "/" + BundleLayout.indexName) else { return nil }
        self.indexFolder = indexFolder
        self.index = index
        signature = FileStamp(indexFolder + "/" + BundleLayout.signatureName)
    }
}
