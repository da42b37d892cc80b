import Foundation
import Glibc
import KioskCore

/// What remote commands may name: local paths only, and with `--media-root DIR` only paths whose real location
/// (realpath: every symlink followed) is inside DIR. loadfile, loadlist and screenshot-to-file go through it.
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
    /// playlist file). A URL becomes an item that fails like any unloadable file (no connection is made);
    /// a path outside the media root is refused with one log line.
    func items(_ given: String, list: Bool) throws(MPVError) -> [PlaylistItem] {
        guard let local = M3U.localPath(given) else {
            return list ? [] : [PlaylistItem(path: given)]  // the decoder's gate refuses it with one line
        }
        let path = Self.absolute(local)
        guard allows(path, what: list ? "loadlist" : "loadfile") else { throw list ? .command : .loadingFailed }
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
        return expand(path).filter { allows($0.path, what: "\(given): entry") }
    }

    /// The file a screenshot may be written to: absolute, local, and inside the media root.
    func outputPath(_ given: String) throws(MPVError) -> String {
        guard let local = M3U.localPath(given), !local.isEmpty else {
            log.warn("ipc: screenshot-to-file \(given): refused: not a local path")
            throw .command
        }
        let path = Self.absolute(local)
        guard allows(path, what: "screenshot-to-file") else { throw .command }
        return path
    }

    /// Whether `path` lies inside the root (always, without one); logs a refusal.
    func allows(_ path: String, what: String) -> Bool {
        guard let root else { return true }
        // An existing path is judged by where it really is; a new one by its folder's real place.
        let real = Self.realPath(path)
            ?? Self.realPath((path as NSString).deletingLastPathComponent).map { $0 + "/" + (path as NSString).lastPathComponent }
        if let real, real == root || real.hasPrefix(root == "/" ? "/" : root + "/") { return true }
        log.warn("ipc: \(what) \(path): refused: outside --media-root \(root)")
        return false
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

/// Why the remote-control server could not start: one line naming the flag or path.
public struct IPCSetupError: Error, CustomStringConvertible, Sendable {
    /// The line.
    public let description: String
    /// An error.
    public init(_ description: String) { self.description = description }
}
