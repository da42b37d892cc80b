import Foundation
import KioskCore

/// The watched folder as last seen, by paths relative to its root ("" is the root itself): each folder's watch,
/// the media files in it that are ready to play, and its subfolders. Removing a folder walks only what is under
/// it, so a change costs time in proportion to the change. Used on the watcher's thread only.
final class FolderTree {
    /// One folder: its watch (nil when the kernel refused one) and, by name, its ready files and subfolders.
    struct Folder {
        var wd: Int32?
        var files: Set<String> = []
        var subfolders: Set<String> = []
    }

    /// The folder as given (the playlist's paths start with it).
    let root: String
    private let inotify: Inotify
    private let log: Log
    private var folders: [String: Folder] = [:]
    private var byWatch: [Int32: String] = [:]
    private var warnedAboutLimit = false
    /// How many ready files the tree holds.
    private(set) var fileCount = 0

    /// What the playlist's paths of files here start with: `FolderMedia.path(root, rel)` is this and `rel`.
    private let prefix: String

    /// An empty tree for `root`, watching through `inotify`.
    init(root: String, inotify: Inotify, log: Log) {
        self.root = root
        self.inotify = inotify
        self.log = log
        prefix = String(FolderMedia.path(root, "x").dropLast())
    }

    /// Whether the root itself is in the tree (watched and listed).
    var hasRoot: Bool { folders[""] != nil }

    /// The path on disk of `rel`.
    func diskPath(_ rel: String) -> String { rel.isEmpty ? root : root + "/" + rel }

    /// The path the playlist holds for the file `rel` (as `FolderMedia.path`, without its cost for every file).
    func itemPath(_ rel: String) -> String { prefix + rel }

    /// The path the playlist holds for the file `name` in the folder `dir`, in a string of exactly its size (a large
    /// folder's paths are most of a scan's memory).
    func itemPath(_ dir: String, _ name: String) -> String {
        let parts = dir.isEmpty ? [prefix, name] : [prefix, dir, "/", name]
        let count = parts.reduce(0) { $0 + $1.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var at = 0
            for part in parts {
                for byte in part.utf8 {
                    buffer[at] = byte
                    at += 1
                }
            }
            return at
        }
    }

    /// `name` inside the folder `dir`.
    static func join(_ dir: String, _ name: String) -> String { dir.isEmpty ? name : dir + "/" + name }

    /// The folder of `rel` and its name there.
    static func split(_ rel: String) -> (folder: String, name: String) {
        guard let slash = rel.lastIndex(of: "/") else { return ("", rel) }
        return (String(rel[..<slash]), String(rel[rel.index(after: slash)...]))
    }

    /// The folder a watch belongs to, if it is (still) in the tree.
    func folder(watchedBy wd: Int32) -> String? { byWatch[wd] }

    /// Whether the folder `rel` is in the tree.
    func hasFolder(_ rel: String) -> Bool { folders[rel] != nil }

    /// Whether the file `rel` is ready in the tree.
    func contains(_ rel: String) -> Bool {
        let (dir, name) = Self.split(rel)
        return folders[dir]?.files.contains(name) ?? false
    }

    /// Adds the ready file `rel`; false when it was there already or its folder is not in the tree.
    func insert(_ rel: String) -> Bool {
        let (dir, name) = Self.split(rel)
        guard folders[dir]?.files.insert(name).inserted == true else { return false }
        fileCount += 1
        return true
    }

    /// Removes the file `rel`; false when it was not there.
    func remove(_ rel: String) -> Bool {
        let (dir, name) = Self.split(rel)
        guard folders[dir]?.files.remove(name) != nil else { return false }
        fileCount -= 1
        return true
    }

    /// Every ready file.
    var files: [String] { folders.flatMap { dir, f in f.files.map { Self.join(dir, $0) } } }

    /// Media files found in one folder: the folder (relative) and their names.
    struct Found {
        var folder: String
        var names: [String]

        /// Their relative paths.
        var paths: [String] { names.map { FolderTree.join(folder, $0) } }
    }

    /// Watches the folder `rel` and every folder under it, each before it is listed so that nothing landing
    /// meanwhile is missed, and adds them to the tree. Returns the media files found there; with `ready` they are
    /// in the tree's ready files, without it the caller makes them ready or waits for them to settle. Folders that
    /// cannot be listed (gone meanwhile) are left out; symlinked folders are not entered (as the playlist loader
    /// does).
    func add(_ rel: String, ready: Bool) -> [Found] {
        var found: [Found] = []
        var stack = [rel]
        while let dir = stack.popLast() {
            let watched = Result { () throws(FolderWatchError) in try inotify.watch(diskPath(dir)) }
            guard let names = FileAccess.names(in: diskPath(dir)) else {
                if case .success(let wd) = watched { inotify.unwatch(wd) }
                continue
            }
            let wd = unwrap(watched)
            var folder = Folder(wd: wd)
            var media: [String] = []
            for entry in names {
                if entry.isFolder {
                    folder.subfolders.insert(entry.name)
                    stack.append(Self.join(dir, entry.name))
                } else if FolderMedia.counts(entry.name) {
                    media.append(entry.name)
                }
            }
            if ready { folder.files = Set(media) }
            if let old = folders[dir] { fileCount -= old.files.count }
            fileCount += folder.files.count
            folders[dir] = folder
            if !media.isEmpty { found.append(Found(folder: dir, names: media)) }
            if let wd { byWatch[wd] = dir }
            if !dir.isEmpty {
                let (parent, name) = Self.split(dir)
                folders[parent]?.subfolders.insert(name)
            }
        }
        return found
    }

    /// Forgets the folder `rel` and everything under it, and stops their watches. Returns the files that were
    /// ready there.
    func removeFolder(_ rel: String) -> [String] {
        var gone: [String] = []
        var stack = [rel]
        while let dir = stack.popLast() {
            guard let folder = folders.removeValue(forKey: dir) else { continue }
            if let wd = folder.wd {
                inotify.unwatch(wd)  // one the kernel dropped already is fine: watch numbers are not reused soon
                if byWatch[wd] == dir { byWatch[wd] = nil }
            }
            gone += folder.files.map { Self.join(dir, $0) }
            fileCount -= folder.files.count
            stack += folder.subfolders.map { Self.join(dir, $0) }
        }
        if !rel.isEmpty {
            let (parent, name) = Self.split(rel)
            folders[parent]?.subfolders.remove(name)
        }
        return gone
    }

    /// Forgets every folder, keeping the kernel's watches (a rescan adds the same folders again and gets the same
    /// watches back). Returns the files that were ready.
    func forgetAll() -> [String] {
        let all = files
        folders.removeAll()
        byWatch.removeAll()
        fileCount = 0
        return all
    }

    /// The folder's watch, or nil with one warning when the kernel refused one (the watch limit); the folder is
    /// then still listed, but changes in it are not seen.
    private func unwrap(_ watched: Result<Int32, FolderWatchError>) -> Int32? {
        switch watched {
        case .success(let wd):
            return wd
        case .failure(let error):
            if !warnedAboutLimit || log.level >= .debug {
                warnedAboutLimit = true
                let hint = error.code == ENOSPC ? " (the limit is fs.inotify.max_user_watches)" : ""
                log.warn("\(error); changes there are not seen\(hint)")
            }
            return nil
        }
    }
}
