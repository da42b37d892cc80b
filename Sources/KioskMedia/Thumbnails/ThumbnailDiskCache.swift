import Foundation
import KioskCore

/// Thumbnails kept on disk between runs, one file each in a private folder, bounded in bytes. An entry is found
/// by the source file's path, size and modification time and the tile side, so a changed file is simply a miss.
/// The least recently used entries (by the entry file's mtime, touched on every load) go first when the folder
/// is over budget. A folder that cannot be made or written turns the cache off with one warning: thumbnails are
/// then made afresh each run, and nothing fails. Safe to use from several threads.
public final class ThumbnailDiskCache: @unchecked Sendable {
    /// The folder the entries live in.
    public let folder: String
    /// Most bytes the entries may take together.
    public let budget: Int
    /// Whether entries are kept (false when the folder could not be made or written).
    public var isEnabled: Bool { lock.lock(); defer { lock.unlock() }; return enabled }
    /// Bytes the entries take now.
    public var totalBytes: Int { lock.lock(); defer { lock.unlock() }; return total }

    /// 256 MiB: about 10,000 tiles of 360 px.
    public static let defaultBudget = 256 << 20
    /// The suffix of entry files.
    static let suffix = ".thumb"

    private let log: Log
    private let lock = NSLock()
    private var enabled = true
    /// Each entry's bytes and last use (ns since the epoch), by file name.
    private var entries: [String: (bytes: Int, used: Int64)] = [:]
    private var total = 0

    /// A cache over `folder` (made 0700 if missing) holding at most `budget` bytes; one scan of the folder
    /// learns what it holds. Problems are reported through `log`, once.
    /// The folder is resolved here, once (`realpath`): a symlinked folder is logged with where it leads, and
    /// entries go to that real folder from then on, even if the link is later pointed elsewhere.
    public init(folder given: String, budget: Int = ThumbnailDiskCache.defaultBudget, log: Log) {
        self.budget = max(0, budget)
        self.log = log
        do {
            try FileManager.default.createDirectory(atPath: given, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            folder = given
            disable("cannot use \(given): \(Self.reason(error))")
            return
        }
        let real = FileName.withCString(given) { realpath($0, nil) }.map { resolved -> String in
            defer { free(resolved) }
            return FileName.decode(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
        }
        folder = real ?? given
        if let real, real != URL(fileURLWithPath: given).standardized.path {
            log.info("grid: thumbnail cache \(given) resolves to \(real) (symlinks followed once); entries go there")
        }
        do {
            try ThumbnailEntryFile.checkWritable(folder)
        } catch {
            disable("cannot use \(folder): \(Self.reason(error))")
            return
        }
        for name in FileAccess.names(in: folder)?.map(\.name) ?? [] {
            let path = folder + "/" + name
            if name.hasPrefix(ThumbnailEntryFile.tempPrefix) { unlink(path); continue }  // a write cut short
            guard name.hasSuffix(Self.suffix), let stamp = FileStamp(path: path), stamp.isRegular else { continue }
            entries[name] = (Int(stamp.size), stamp.modified)
            total += Int(stamp.size)
        }
    }

    /// The folder thumbnails are kept in: `$XDG_CACHE_HOME/kiosk/thumbs`, else `$HOME/.cache/kiosk/thumbs`, else
    /// `<stateDirectory>/thumbs`; nil when none of them is known.
    public static func defaultFolder(stateDirectory: String?,
                                     environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/kiosk/thumbs" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/kiosk/thumbs" }
        if let state = stateDirectory, !state.isEmpty { return state + "/thumbs" }
        return nil
    }

    /// The thumbnail kept for the file at `path` as it is now, made for tiles of `side` (and the projection
    /// override described by `variant`); nil when there is none or it is stale or unreadable. Counts as a use.
    public func load(path: String, side: Int, variant: String = "") -> Thumbnail? {
        guard isEnabled, let key = Self.key(path: path, side: side, variant: variant) else { return nil }
        let name = Self.fileName(key)
        let file = folder + "/" + name
        guard let thumbnail = ThumbnailEntryFile.read(file, key: key, side: side) else { return nil }
        _ = utimensat(AT_FDCWD, file, nil, 0)  // both times to now: the entry's last use
        lock.lock()
        if let e = entries[name] { entries[name] = (e.bytes, Self.nowNanoseconds()) }
        lock.unlock()
        return thumbnail
    }

    /// Keeps `thumbnail` for the file at `path` as it is now (tiles of `side`, override `variant`), then evicts
    /// the least recently used entries down to 90 % of the budget if the folder went over it.
    public func store(_ thumbnail: Thumbnail, path: String, side: Int, variant: String = "") {
        guard isEnabled, let key = Self.key(path: path, side: side, variant: variant) else { return }
        let name = Self.fileName(key)
        let bytes: Int
        do {
            bytes = try ThumbnailEntryFile.write(thumbnail, key: key, folder: folder, name: name)
        } catch {
            disable("cannot write to \(folder): \(Self.reason(error))")
            return
        }
        lock.lock()
        total += bytes - (entries[name]?.bytes ?? 0)
        entries[name] = (bytes, Self.nowNanoseconds())
        let victims = total > budget ? evictLocked(keep: budget / 10 * 9) : []
        lock.unlock()
        for victim in victims { unlink(folder + "/" + victim) }
    }

    /// Drops the oldest entries from the index until `keep` bytes are left; returns their names. Holds the lock.
    private func evictLocked(keep: Int) -> [String] {
        var victims: [String] = []
        for (name, e) in entries.sorted(by: { $0.value.used < $1.value.used }) {
            if total <= keep { break }
            entries[name] = nil
            total -= e.bytes
            victims.append(name)
        }
        return victims
    }

    /// Turns the cache off with one warning (later problems are not reported again).
    private func disable(_ why: String) {
        lock.lock()
        let first = enabled
        enabled = false
        lock.unlock()
        if first { log.warn("thumbnail cache: \(why); thumbnails are not kept on disk") }
    }

    /// The entry's key: the file's path, size, mtime (ns) and the tile side and variant; nil when the file
    /// cannot be looked at or is not a regular file (its decode reports why).
    static func key(path: String, side: Int, variant: String) -> String? {
        guard let stamp = FileStamp(path: path), stamp.isRegular else { return nil }
        return "\(path)\n\(stamp.size)\n\(stamp.modified)\n\(side)\n\(variant)"
    }

    /// The entry file's name for `key`: its FNV-1a 64-bit hash in hex.
    static func fileName(_ key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + suffix
    }

    /// Now on the wall clock (file times are wall-clock times), in nanoseconds.
    private static func nowNanoseconds() -> Int64 {
        Int64(Int(saturating: Date().timeIntervalSince1970 * 1e9, rounding: .towardZero))
    }

    private static func reason(_ error: any Error) -> String {
        if let m = error as? MediaError { return m.reason }
        if let n = error as NSError?, let under = n.userInfo[NSUnderlyingErrorKey] as? NSError,
           under.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(under.code)))
        }
        return "\(error)"
    }
}

