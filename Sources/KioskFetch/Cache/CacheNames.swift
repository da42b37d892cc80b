import Foundation
import KioskCore
import KioskTrust

/// The names of files in the content cache, made from a hash of the URL and never from the URL itself (no path
/// from a server ever reaches the file system): `STEM-vN.EXT`, where STEM is the first 32 hex digits of the URL's
/// SHA-256, N the version (a changed body at the same URL is a new file, so the file on screen is never
/// rewritten) and EXT the URL path's extension when it is short and alphanumeric (else one the Content-Type
/// names, else none). A download in progress is `STEM.part`.
enum CacheNames {
    /// The hash stem of `url`.
    static func stem(_ url: String) -> String { String(SHA256Sum.hex(Array(url.utf8)).prefix(32)) }

    /// The `.part` file of `url`.
    static func part(_ url: String) -> String { stem(url) + ".part" }

    /// The file name of version `version` of `url`'s body, of type `contentType` (for a URL without an extension).
    static func file(_ url: String, version: Int, contentType: String?) -> String {
        let ext = pathExtension(url) ?? contentType.flatMap(typeExtension)
        return stem(url) + "-v\(version)" + (ext.map { "." + $0 } ?? "")
    }

    /// The version in a name `file` made (`…-v7.png` → 7).
    static func version(of file: String) -> Int? {
        guard let dash = file.range(of: "-v", options: .backwards) else { return nil }
        return Int(file[dash.upperBound...].prefix { $0.isNumber })
    }

    /// The lower-case extension of `url`'s path when it is 1 to 5 ASCII letters and digits.
    static func pathExtension(_ url: String) -> String? {
        guard let path = URLComponents(string: url)?.path, let dot = path.lastIndex(of: "."),
              !path[dot...].contains("/") else { return nil }
        let ext = path[path.index(after: dot)...].lowercased()
        guard (1...5).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        return ext
    }

    /// An extension for a media type a server names (`image/png` → `png`), for a URL whose path has none.
    static func typeExtension(_ contentType: String) -> String? {
        if contentType.contains("smil") { return "smil" }
        if contentType.contains("mpegurl") { return "m3u" }
        return MediaExtensions.all.sorted().first { MediaExtensions.mimeType("x." + $0) == contentType }
    }
}
