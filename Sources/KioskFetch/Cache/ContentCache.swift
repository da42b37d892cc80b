import Foundation
import KioskCore

/// The content cache in one folder: the bodies fetched from servers (media and indexes) in `files/`, named by
/// `CacheNames` (a hash of the URL and a version, so a changed body is a new file and the file on screen is never
/// rewritten), and `state.json` (written atomically) with each URL's file, validators, size, SHA-256 and last use,
/// the last good index (what plays, with its URL -> file map) and the one it replaced, and the last check. It
/// survives restarts: a new `ContentCache` on the same folder finds everything again.
///
/// Not for sharing between threads; one sync at a time uses a folder (`ContentSync` takes its lock).
public final class ContentCache {
    /// The cache folder.
    public let directory: String
    /// The most bytes the files may take (`--content-cache-mb`); nil: no budget.
    public var budgetBytes: Int64?
    /// Why the state file was not read, when it was there but unusable (the cache then starts empty).
    public private(set) var loadProblem: String?
    var state: CacheState

    /// The state file's name in the folder.
    public static let stateName = "state.json"
    /// The folder of the cached bodies, in the cache folder.
    public static let filesName = "files"

    /// The cache in `directory` (made, with its `files` folder, when missing), with what its state file says.
    public init(directory: String, budgetBytes: Int64? = nil) throws(CacheError) {
        self.directory = directory
        self.budgetBytes = budgetBytes
        for folder in [directory, directory + "/" + Self.filesName] {
            var info = stat()
            if stat(folder, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else { throw CacheError("\(folder): not a folder") }
            } else {
                guard mkdir(folder, 0o755) == 0 || errno == EEXIST else { throw CacheError("mkdir", folder, errno: errno) }
            }
        }
        state = CacheState()
        do {
            if let data = try AtomicFile.read(stateFile, limit: CacheState.maxBytes) { state = try CacheState.decode(data) }
        } catch let error as CacheError {
            loadProblem = "\(stateFile): ignored: \(error.description)"
        } catch {
            loadProblem = "\(stateFile): ignored: not a state file this kiosk wrote (\(error))"
        }
        state.entries = state.entries.filter { exists($0.value.file) }
        state.partials = state.partials.filter { exists(CacheNames.part($0.key)) }
    }

    /// The state file's path.
    public var stateFile: String { directory + "/" + Self.stateName }
    /// The path of the cached file `name`.
    public func path(_ name: String) -> String { directory + "/" + Self.filesName + "/" + name }

    /// The last good index: what plays.
    public var current: KeptIndex? { state.current }
    /// The index the current one replaced (its files are kept until the next replacement).
    public var previous: KeptIndex? { state.previous }
    /// The last check and how it went.
    public var lastCheck: CheckRecord? { state.lastCheck }
    /// What is cached, by URL.
    public var entries: [String: CacheEntry] { state.entries }

    /// `index`'s map for the player: each medium's URL -> its file's absolute path.
    public func map(of index: KeptIndex) -> ContentMap {
        ContentMap(indexURL: index.url, files: index.media.mapValues { path($0) })
    }

    /// The path of `index`'s own file (the SMIL layout or M3U playlist the player reads).
    public func indexPath(of index: KeptIndex) -> String { path(index.file) }

    /// Whether every file `index` needs is in the cache.
    public func isWhole(_ index: KeptIndex) -> Bool { exists(index.file) && index.media.values.allSatisfy(exists) }

    /// Writes the state file (atomically).
    public func save() throws(CacheError) {
        let data: Data
        do { data = try state.encoded() } catch { throw CacheError("\(stateFile): cannot encode the state: \(error)") }
        try AtomicFile.write(data, to: stateFile)
    }

    // MARK: - what a sync does

    /// The `.part` file of `url`, with the validators of the body it holds when it can be continued.
    func partial(for url: String) -> (path: String, validators: HTTPValidators?) {
        (path(CacheNames.part(url)), state.partials[url])
    }

    /// Remembers (or forgets, with nil) the validators of `url`'s `.part` file.
    func setPartial(_ url: String, _ validators: HTTPValidators?) {
        state.partials[url] = validators
        if validators == nil { unlink(path(CacheNames.part(url))) }
    }

    /// Removes the `.part` files of URLs not in `urls` (downloads the index that wanted them no longer names).
    func forgetPartials(except urls: Set<String>) {
        for url in state.partials.keys where !urls.contains(url) { setPartial(url, nil) }
    }

    /// Moves the finished `.part` of `url` into place as a new version and records it; the file it replaces stays
    /// (an index may still need it; `collectGarbage` removes it when none does).
    /// `fileExtension` names the file's extension instead of its URL or type (an index's kind).
    @discardableResult
    func install(_ url: String, from part: String, validators: HTTPValidators, size: Int64, sha256: String,
                 contentType: String?, fileExtension: String? = nil, now: Double) throws(CacheError) -> CacheEntry {
        var version = (state.entries[url].flatMap { CacheNames.version(of: $0.file) } ?? 0) + 1
        func named(_ version: Int) -> String {
            guard let fileExtension else { return CacheNames.file(url, version: version, contentType: contentType) }
            return CacheNames.stem(url) + "-v\(version)." + fileExtension
        }
        var name = named(version)
        while exists(name) || isKept(name) {
            version += 1
            name = named(version)
        }
        guard rename(part, path(name)) == 0 else { throw CacheError("rename \(part) to", path(name), errno: errno) }
        AtomicFile.syncFolder(of: path(name))
        let entry = CacheEntry(file: name, validators: validators, size: size, sha256: sha256, contentType: contentType,
                               lastUsed: now)
        state.entries[url] = entry
        state.partials[url] = nil
        return entry
    }

    /// Keeps new validators for `url`'s body (the server sent the same bytes under new ones).
    func revalidate(_ url: String, _ validators: HTTPValidators) {
        state.entries[url]?.validators = validators
    }

    /// Marks `urls` as used `now` (least recently used go first when over budget).
    func touch(_ urls: some Sequence<String>, now: Double) {
        for url in urls { state.entries[url]?.lastUsed = now }
    }

    /// Makes `index` the last good one; the one it replaces becomes `previous`.
    func publish(_ index: KeptIndex) {
        if let current = state.current, current.file != index.file || current.media != index.media { state.previous = current }
        state.current = index
    }

    /// Records the last check.
    func record(_ check: CheckRecord) { state.lastCheck = check }

    // MARK: - files

    /// Whether the cached file `name` is there.
    func exists(_ name: String) -> Bool {
        var info = stat()
        return stat(path(name), &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Whether a kept index names the file `name`.
    func isKept(_ name: String) -> Bool {
        [state.current, state.previous].contains { index in
            index.map { $0.file == name || $0.media.values.contains(name) } ?? false
        }
    }

    /// The names in the `files` folder with their sizes.
    func listFiles() -> [(name: String, size: Int64)] {
        let folder = directory + "/" + Self.filesName
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.compactMap { name in
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0 else { return nil }
            return (name, Int64(info.st_size))
        }
    }

    /// The bytes the cached files take.
    public func usedBytes() -> Int64 { listFiles().reduce(0) { $0 + $1.size } }

    /// Removes every file no entry, kept index or continued download names, nor `pending` (the files of an index
    /// being fetched): old versions once no kept index needs them, and leftovers.
    func collectGarbage(keeping pending: Set<String> = []) {
        var keep = pending
        for entry in state.entries.values { keep.insert(entry.file) }
        for url in state.partials.keys { keep.insert(CacheNames.part(url)) }
        for index in [state.current, state.previous].compactMap({ $0 }) {
            keep.insert(index.file)
            keep.formUnion(index.media.values)
        }
        for file in listFiles() where !keep.contains(file.name) { unlink(path(file.name)) }
    }
}
