import Foundation
import KioskCore
import KioskMedia

/// What an index (a SMIL layout or an M3U playlist fetched from a server) needs: its media as absolute http or
/// https URLs with the SHA-256 it gives for each, the check period it asks for, and the problems found (one line
/// each; any problem keeps the index from being published).
struct IndexContent {
    /// SMIL or M3U.
    var kind: IndexKind
    /// The media, in document order, each URL once.
    var references: [ContentReference]
    /// `<meta http-equiv="Refresh" content="N">` in a SMIL `<head>`, in seconds (the index's period).
    var refreshSeconds: Double?
    /// How the index asks to be checked (its Refresh meta's attributes).
    var policy = RefreshPolicy()
    /// Problems, `URL:LINE: reason` each.
    var problems: [String]
}

/// Reads an index file fetched from `url`: decides its kind (Content-Type, else the URL's extension, else the
/// first bytes), then reads its references (SMIL: `ContentReferences`; M3U: each entry resolved against the
/// playlist's URL, as `M3U` reads entries).
enum IndexReader {
    /// The kind of the index body `head` (its first bytes) served as `contentType` from `url`; nil when it is neither.
    static func kind(contentType: String?, url: String, head: [UInt8]) -> IndexKind? {
        if let type = contentType {
            if type.contains("smil") { return .smil }
            if type.contains("mpegurl") { return .m3u }
        }
        switch CacheNames.pathExtension(url) {
        case "smil", "smi", "xml": return .smil
        case "m3u", "m3u8": return .m3u
        default: break
        }
        let text = String(decoding: head.prefix(512), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "\u{FEFF}", with: "")
        if text.hasPrefix("<") { return .smil }
        if text.uppercased().hasPrefix("#EXTM3U") { return .m3u }
        return nil
    }

    /// The content of the index in `file`, of `kind`, fetched from `url`. An index naming more than
    /// `maxReferences` media is refused before it is parsed (its `src` attributes counted in its bytes), so a hostile
    /// one costs neither the tree nor the URL resolution of each of its items.
    static func read(file: String, kind: IndexKind, url: String, maxReferences: Int) -> IndexContent {
        switch kind {
        case .smil:
            let count = FileManager.default.contents(atPath: file).map { sourceAttributes(in: [UInt8]($0)) } ?? 0
            guard count <= maxReferences else {
                return IndexContent(kind: .smil, references: [], refreshSeconds: nil,
                                    problems: ["\(FetchError.quoted(url)): names \(count) media, more than the \(maxReferences) "
                                               + "an index may; refused"])
            }
            do {
                let root = try MarkupReader.read(file: file, name: url)
                let found = ContentReferences.smil(root: root, indexURL: url, name: url)
                let policy = RefreshPolicy.read(root)
                return IndexContent(kind: .smil, references: found.references, refreshSeconds: policy.index,
                                    policy: policy, problems: found.problems)
            } catch {
                return IndexContent(kind: .smil, references: [], refreshSeconds: nil, problems: [error.description])
            }
        case .m3u:
            guard let data = FileManager.default.contents(atPath: file) else {
                return IndexContent(kind: .m3u, references: [], refreshSeconds: nil, problems: ["\(url): cannot read \(file)"])
            }
            let found = m3u(String(decoding: data, as: UTF8.self), url: url)
            guard found.references.count <= maxReferences else {
                return IndexContent(kind: .m3u, references: [], refreshSeconds: nil,
                                    problems: ["\(FetchError.quoted(url)): names \(found.references.count) media, more than the "
                                               + "\(maxReferences) an index may; refused"])
            }
            return IndexContent(kind: .m3u, references: found.references, refreshSeconds: nil, problems: found.problems)
        }
    }

    /// How many `src=` attributes `bytes` hold (`src`, after a space, before an `=`): at least the number of media
    /// a SMIL index names.
    static func sourceAttributes(in bytes: [UInt8]) -> Int {
        var count = 0
        var i = 1
        let s = UInt8(ascii: "s"), r = UInt8(ascii: "r"), c = UInt8(ascii: "c"), equals = UInt8(ascii: "=")
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        while i + 3 < bytes.count {
            if bytes[i] | 0x20 == s, bytes[i + 1] | 0x20 == r, bytes[i + 2] | 0x20 == c, isSpace(bytes[i - 1]) {
                var j = i + 3
                while j < bytes.count, isSpace(bytes[j]) { j += 1 }
                if j < bytes.count, bytes[j] == equals { count += 1 }
                i = j
            } else {
                i += 1
            }
        }
        return count
    }

    /// The entries of M3U `text` from `url` as references: comment and tag lines skipped, each entry resolved
    /// against the playlist's URL; an entry `M3U.localPath` takes for a local file (`file://`) or another scheme
    /// is a problem (a playlist from a server names only what the server serves).
    static func m3u(_ text: String, url: String) -> (references: [ContentReference], problems: [String]) {
        var references: [ContentReference] = [], problems: [String] = [], seen: Set<String> = []
        var number = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("\u{FEFF}") { line.removeFirst() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            let at = "\(url):\(number)"
            let isFile = M3U.localPath(line) != nil && HTTPTransfer.scheme(of: line) == "file"
            guard !isFile, let absolute = ContentMap.absolute(line, base: url) else {
                problems.append("\(at): \"\(ErrorQuote.cut(line))\": not an http or https URL; left out")
                continue
            }
            guard seen.insert(absolute).inserted else { continue }
            references.append(ContentReference(url: absolute, sha256: nil, source: at))
        }
        return (references, problems)
    }

    /// The check period a SMIL `<head>` asks for (`RefreshPolicy`'s index period).
    static func refresh(in root: MarkupElement) -> Double? { RefreshPolicy.read(root).index }
}
