import Foundation
import Glibc
import KioskCore

/// What remote commands may name: local paths only, and with `--media-root DIR` only paths whose real location
/// (realpath: every symlink followed) is inside DIR. loadfile, loadlist and screenshot-to-file go through it, and
/// the fleet's MQTT `load` (`localItems`): one gate for every remote. With a root, what passes is handed on by
/// its real path, which lies beneath the root, so the open (through the root's descriptor, `MediaConfinement`)
/// refuses a symlink swapped in after this check instead of following it out.
public struct MediaGate: Sendable {
    /// The confining folder, resolved; nil: anywhere.
    public let root: String?
    /// Expands a folder or a playlist file into items (kiosk's playlist loader).
    let expand: @Sendable (String) -> [PlaylistItem]
    let log: Log

    /// A gate confined to `root` (resolved now; an error names it when it is not a folder).
    public init(root: String?, log: Log, expand: @escaping @Sendable (String) -> [PlaylistItem]) throws(IPCSetupError) {
        self.log = log
        self.expand = expand
        guard let root else {
            self.root = nil
            return
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDir), isDir.boolValue,
              let real = Self.realPath(root) else {
            throw IPCSetupError("--media-root: '\(root)' is not a folder")
        }
        self.root = real
    }

    /// The items `given` names for loadfile (`list` false: a file, a folder or a playlist) or loadlist (a
    /// playlist file). A URL other than http(s) (which loadfile hands the content fetcher) becomes an item that
    /// fails like any unloadable file (no connection is made); a path outside the media root is refused with one
    /// log line.
    func items(_ given: String, list: Bool) throws(MPVError) -> [PlaylistItem] {
        if given.utf8.contains(0) {  // before the URL case: a NUL-cut name is refused, not passed on
            _ = admitted(given, what: list ? "loadlist" : "loadfile")
            throw list ? .command : .loadingFailed
        }
        guard let local = M3U.localPath(given) else {
            return list ? [] : [PlaylistItem(path: given)]  // the decoder's gate refuses it with one line
        }
        guard let path = admitted(Self.absolute(local), what: list ? "loadlist" : "loadfile") else {
            throw list ? .command : .loadingFailed
        }
        var isDir: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
        let ext = (path as NSString).pathExtension.lowercased()
        if list {
            guard exists, !isDir.boolValue else {
                log.warn("ipc: loadlist \(given): no such playlist file")
                throw .command
            }
        }
        guard list || isDir.boolValue || ext == "m3u" || ext == "m3u8" else { return [PlaylistItem(path: path)] }
        return expand(path).compactMap { entry in admitted(entry.path, what: "\(given): entry").map { entry.at($0) } }
    }

    /// The file a screenshot may be written to: absolute, local, and inside the media root.
    func outputPath(_ given: String) throws(MPVError) -> String {
        guard let local = M3U.localPath(given), !local.isEmpty else {
            log.warn("ipc: screenshot-to-file \(given): refused: not a local path")
            throw .command
        }
        guard let path = admitted(Self.absolute(local), what: "screenshot-to-file") else { throw .command }
        return path
    }

    /// The items another remote server's `load` names (the fleet's MQTT): a local file, folder or playlist file
    /// that exists and lies inside the root; a playlist's or folder's entries outside it are left out. Throws the
    /// one-line reason for a refusal, which the caller logs with its own context.
    public func localItems(_ given: String) throws(MediaRefusal) -> [PlaylistItem] {
        guard let local = M3U.localPath(given), !local.isEmpty else { throw MediaRefusal("'\(given)' is not a local path") }
        let path: String
        switch admit(Self.absolute(local)) {
        case .success(let real): path = real
        case .failure(let why): throw MediaRefusal("\(Self.absolute(local)): \(why)")
        }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw MediaRefusal("\(path): no such file or folder")
        }
        let ext = (path as NSString).pathExtension.lowercased()
        guard isDir.boolValue || ext == "m3u" || ext == "m3u8" else { return [PlaylistItem(path: path)] }
        return expand(path).compactMap { entry in (try? admit(entry.path).get()).map { entry.at($0) } }
    }

    /// The path to use for `path` when it is allowed (see `admit`); nil, with one log line, when refused.
    func admitted(_ path: String, what: String) -> String? {
        switch admit(path) {
        case .success(let real): return real
        case .failure(let why):
            log.warn("ipc: \(what) \(path.replacingOccurrences(of: "\u{0}", with: "\\0")): refused: \(why)")
            return nil
        }
    }

    /// Whether `path` is allowed (no NUL byte, which C would cut the name at; inside the root), and the path to
    /// use: without a root `path` itself; with one, its real location as found once by this very check (an
    /// existing path where it really is, a new one its folder's real place), so that the path handed on is the
    /// path checked, beneath the root, where `MediaConfinement` opens it through the root's descriptor.
    private func admit(_ path: String) -> Result<String, MediaRefusal> {
        if path.utf8.contains(0) { return .failure(MediaRefusal("the path holds a NUL byte")) }
        guard let root else { return .success(path) }
        if let real = Self.realLocation(path), real == root || real.hasPrefix(root == "/" ? "/" : root + "/") { return .success(real) }
        return .failure(MediaRefusal("outside --media-root \(root)"))
    }

    /// Where `path` really is (`realpath`); for a file not made yet, its folder's real place and its name.
    static func realLocation(_ path: String) -> String? {
        realPath(path) ?? realPath((path as NSString).deletingLastPathComponent).map { $0 + "/" + (path as NSString).lastPathComponent }
    }

    /// `path` joined to the current folder when relative (the server's, which is kiosk's).
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        return (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    }

    /// realpath(3), nil when the path does not resolve.
    static func realPath(_ path: String) -> String? {
        guard let r = realpath(path, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }
}

/// Why a remote load is refused: one line naming the path.
public struct MediaRefusal: Error, CustomStringConvertible, Sendable {
    /// The line.
    public let description: String
    /// A refusal.
    public init(_ description: String) { self.description = description }
}

/// Why the remote-control server could not start: one line naming the flag or path.
public struct IPCSetupError: Error, CustomStringConvertible, Sendable {
    /// The line.
    public let description: String
    /// An error.
    public init(_ description: String) { self.description = description }
}

extension PlaylistItem {
    /// The same item at another path (the real one the gate checked).
    fileprivate func at(_ path: String) -> PlaylistItem {
        var item = self
        item.path = path
        return item
    }
}
