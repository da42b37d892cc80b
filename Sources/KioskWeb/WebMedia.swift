import Foundation
import Glibc
import KioskCore

/// The media folder as the page sees it: its files (kind, size, duration from a probe, cached by size and mtime),
/// each served for its thumbnail, deleted, renamed into place after an upload, with its caption (the sidecar
/// `NAME.txt`) and the playlists (`.m3u`) in it. Only names directly in the folder: no `/`, no `..`, no hidden
/// files, the real path checked to be inside.
final class WebMedia: @unchecked Sendable {
    let root: String
    private let probe: @Sendable (String) -> MediaSummary?
    /// `--max-pixels`: an upload with more is refused; nil: no limit.
    private let maxPixels: Int?
    private let lock = NSLock()
    private var probed: [String: (size: Int64, mtime: Double, summary: MediaSummary?)] = [:]
    /// One thumbnail decode at a time.
    private let thumbnailing = DispatchSemaphore(value: 1)
    /// Seconds a thumbnail waits for the one being made.
    static let thumbnailWait = 3.0

    init(root: String, probe: @escaping @Sendable (String) -> MediaSummary?, maxPixels: Int? = nil) {
        self.root = root
        self.probe = probe
        self.maxPixels = maxPixels
    }

    /// `name` as a path in the folder, when it is a plain name there.
    func path(_ name: String) -> String? {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."), !name.contains("\0"), name.utf8.count <= 255 else { return nil }
        return root + "/" + name
    }

    /// One file's size, mtime and regular-ness (lstat: a link is not followed).
    private func stat(_ path: String) -> (size: Int64, mtime: Double)? {
        var s = Glibc.stat()
        guard lstat(path, &s) == 0, (s.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int64(s.st_size), Double(s.st_mtim.tv_sec) + Double(s.st_mtim.tv_nsec) / 1e9)
    }

    /// What a probe says of `path` (cached while its size and mtime stay).
    func summary(_ path: String) -> MediaSummary? {
        guard let s = stat(path) else { return nil }
        lock.lock()
        if let c = probed[path], c.size == s.size, c.mtime == s.mtime { lock.unlock(); return c.summary }
        lock.unlock()
        let summary = probe(path)
        lock.lock()
        if probed.count > 20_000 { probed = [:] }
        probed[path] = (s.size, s.mtime, summary)
        lock.unlock()
        return summary
    }

    /// The folder's media files and playlists, by name.
    func list() -> JSONValue {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        var files: [JSONValue] = [], playlists: [JSONValue] = []
        for name in names {
            let p = root + "/" + name
            guard let s = stat(p) else { continue }
            let ext = (name as NSString).pathExtension.lowercased()
            if ext == "m3u" || ext == "m3u8" {
                playlists.append(.object([("name", .string(name)), ("items", .array(playlist(name).map { .string($0) }))]))
                continue
            }
            guard ext != "txt", let summary = summary(p) else { continue }
            var fields: [(String, JSONValue)] = [("name", .string(name)), ("kind", .string(summary.kind)), ("size", .int(s.size)),
                                                 ("mtime", .double(s.mtime))]
            if let w = summary.width, let h = summary.height { fields += [("width", .int(Int64(w))), ("height", .int(Int64(h)))] }
            if let d = summary.duration { fields.append(("duration", .double((d * 1000).rounded() / 1000))) }
            fields.append(("caption", caption(name).map { .string($0) } ?? .null))
            files.append(.object(fields))
        }
        return .object([("files", .array(files)), ("playlists", .array(playlists))])
    }

    /// A file for the browser, sent from the file itself by the server (never read into memory here). `name` is
    /// as libmicrohttpd decoded it from the path: it is not decoded again, so a file with `%` in its name is found.
    func file(_ name: String) -> WebResponse {
        guard let p = path(name), inside(p), stat(p) != nil else { return .error(404, "no such file") }
        var r = WebResponse(type: MediaExtensions.mimeType(name) ?? "application/octet-stream", headers: [("Cache-Control", "private, max-age=300")])
        r.file = p
        return r
    }

    /// A file's thumbnail (JPEG, cached a few minutes by the browser); `name` as for `file`. Made one at a time: a
    /// JPEG is decoded scaled, but a PNG whole before it is scaled (64 MP: 256 MiB), so four asked for at once took
    /// RSS from 115 to 700 MiB. A request waits at most `thumbnailWait` seconds for the one being made, then gets
    /// 503 with `Retry-After` (the media page tries again): the wait holds one of the server's threads, whose other
    /// connections wait with it, so it stays well under the 10 s a connection has to send its headers.
    func thumbnail(_ name: String, make: (@Sendable (String) -> [UInt8]?)?) -> WebResponse {
        guard let p = path(name), inside(p), stat(p) != nil else { return .error(404, "no such file") }
        guard thumbnailing.wait(timeout: .now() + Self.thumbnailWait) == .success else {
            var busy = WebResponse.error(503, "busy making other thumbnails; try again")
            busy.headers.append(("Retry-After", "2"))
            return busy
        }
        let made = make?(p)
        thumbnailing.signal()
        guard let jpeg = made else { return .error(404, "no thumbnail for \(name)") }
        return WebResponse(type: "image/jpeg", body: jpeg, headers: [("Cache-Control", "private, max-age=300")])
    }

    /// Whether `path`'s real path lies in the folder (no link leads out).
    func inside(_ path: String) -> Bool {
        guard let real = realpath(path, nil) else { return false }
        defer { free(real) }
        let r = String(cString: real)
        return r.hasPrefix(root + "/") && !r.dropFirst(root.count + 1).contains("/")
    }

    /// Whether `name` is a playlist by its name (`.m3u`, `.m3u8`).
    static func isPlaylist(_ name: String) -> Bool {
        let ext = (name as NSString).pathExtension.lowercased()
        return ext == "m3u" || ext == "m3u8"
    }

    /// Whether `list` shows `name`: a playlist, or a file a probe calls media (a caption is not; nor is anything
    /// else kiosk keeps in the folder, such as a play log or a schedule).
    func listed(_ name: String) -> Bool {
        guard let p = path(name), stat(p) != nil, inside(p) else { return false }
        return Self.isPlaylist(name) || ((name as NSString).pathExtension.lowercased() != "txt" && summary(p) != nil)
    }

    /// Deletes `name` (and its caption), when `list` shows it: the page may remove only what it lists.
    func delete(_ name: String) -> WebResponse {
        guard let p = path(name), listed(name) else { return .error(404, "no media file or playlist '\(name)' in the media folder") }
        guard unlink(p) == 0 else { return .error(500, "cannot delete \(name): \(String(cString: strerror(errno)))") }
        unlink(p + ".txt")
        return .json(200, JSONValue.object([("deleted", .string(name))]).text)
    }

    /// The caption of `name` (its sidecar `NAME.txt`, at most 4 KiB), if it has one.
    func caption(_ name: String) -> String? {
        guard let p = path(name), let data = Self.smallFile(p + ".txt", limit: 4096) else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The bytes of the regular file `path` when it holds at most `limit`; nil for anything else. A link is not
    /// followed and nothing waits (O_NOFOLLOW, O_NONBLOCK), and at most `limit + 1` bytes are read, so a link to a
    /// FIFO or to `/dev/zero` neither hangs the page nor fills its memory.
    static func smallFile(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var s = Glibc.stat()
        guard fstat(fd, &s) == 0, (s.st_mode & S_IFMT) == S_IFREG, s.st_size <= limit else { return nil }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress.map { $0 + count }, $0.count - count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        return count <= limit ? Array(bytes[..<count]) : nil
    }

    /// Writes `text` as the caption of `name` (an empty text removes it), through a temporary file and a rename.
    func setCaption(_ name: String, _ text: String) -> WebResponse {
        guard let p = path(name), stat(p) != nil, inside(p) else { return .error(404, "no file '\(name)' in the media folder") }
        guard text.utf8.count <= 4096 else { return .error(413, "a caption is at most 4096 bytes") }
        if text.isEmpty {
            unlink(p + ".txt")
        } else {
            do { try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: p + ".txt"), options: .atomic) } catch {
                return .error(500, "cannot write the caption of \(name): \(error.localizedDescription)")
            }
        }
        return .json(200, JSONValue.object([("name", .string(name)), ("caption", .string(text))]).text)
    }

    /// The names a playlist in the folder lists (its lines that are not comments).
    func playlist(_ name: String) -> [String] {
        guard let p = path(name), let data = Self.smallFile(p, limit: 1_048_576) else { return [] }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// Writes the playlist `name` (`.m3u`) listing `items`, each a file in the folder, in order.
    func setPlaylist(_ name: String, _ items: [String]) -> WebResponse {
        let ext = (name as NSString).pathExtension.lowercased()
        guard ext == "m3u" || ext == "m3u8", let p = path(name) else { return .error(400, "a playlist's name ends in .m3u") }
        for item in items {
            guard let ip = path(item), stat(ip) != nil, inside(ip) else { return .error(400, "'\(item)' is not a file in the media folder") }
        }
        let text = "#EXTM3U\n" + items.map { $0 + "\n" }.joined()
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: p), options: .atomic) } catch {
            return .error(500, "cannot write \(name): \(error.localizedDescription)")
        }
        return .json(200, JSONValue.object([("name", .string(name)), ("items", .array(items.map { .string($0) }))]).text)
    }

    /// Why the player would not show a file of `summary`'s size (over `--max-pixels`), or nil.
    private func overLimit(_ summary: MediaSummary) -> String? {
        guard let maxPixels, let w = summary.width, let h = summary.height else { return nil }
        let pixels = w.multipliedReportingOverflow(by: h)
        guard pixels.overflow || pixels.partialValue > maxPixels else { return nil }
        return "\(w)x\(h) is over the pixel limit --max-pixels \(DecodeLimits.pixelText(maxPixels)): kiosk would not show it"
    }

    /// An upload's files: each probed, then renamed into place (replacing a file of that name), or removed with
    /// the reason.
    func claim(_ files: [UploadedFile]) -> WebResponse {
        var stored: [JSONValue] = [], refused: [JSONValue] = []
        for f in files {
            defer { unlink(f.temporary) }
            if let why = f.refused {
                refused.append(.object([("name", .string(f.name)), ("reason", .string(why))]))
                continue
            }
            guard let summary = probe(f.temporary) else {
                refused.append(.object([("name", .string(f.name)), ("reason", .string("not a picture, animation or video kiosk can show"))]))
                continue
            }
            if let why = overLimit(summary) {
                refused.append(.object([("name", .string(f.name)), ("reason", .string(why))]))
                continue
            }
            guard let target = path(f.name), rename(f.temporary, target) == 0 else {
                refused.append(.object([("name", .string(f.name)), ("reason", .string("cannot put it in place: \(String(cString: strerror(errno)))"))]))
                continue
            }
            stored.append(.object([("name", .string(f.name)), ("kind", .string(summary.kind)), ("size", .int(f.size))]))
        }
        let status = stored.isEmpty && !refused.isEmpty ? 415 : 200
        return .json(status, JSONValue.object([("stored", .array(stored)), ("refused", .array(refused))]).text)
    }
}
