import Foundation
import KioskCore

/// What a signed content bundle on a USB stick (or any folder) looks like, in one place:
///
///     STICK/                      the folder given (a mount point, or --content-bundle DIR)
///       kiosk/                    optional: when STICK/kiosk/index.smil exists, the bundle is this folder
///         index.smil              the SMIL index; its <head> holds <meta name="kiosk-url" content="https://…">
///         index.smil.minisig      minisign's signature of index.smil, made with the content key
///         media/lobby.mp4 …       each medium at its src, a path relative to the index
///
/// The index names the server URL it stands for (`kiosk-url`, the URL `kiosk play URL` plays): the bundle's index
/// becomes that URL's content in the cache, its srcs resolve against that URL as a fetched index's do, and each
/// medium's file is the one at the same path relative to `index.smil` (`media/a.png`, or the absolute URL
/// `https://host/screens/media/a.png` under `https://host/screens/index.smil`). A medium elsewhere (another host,
/// `..` above the index's folder, an absolute path) is not in the bundle. The URL is inside the signed index, so only
/// the key's holder decides which URL a bundle replaces. Only SMIL: a signed index must give each medium's
/// `sha256`, which an M3U playlist has no place for.
public enum BundleLayout {
    /// The subfolder a stick may keep its bundle in (beside other files).
    public static let subfolder = "kiosk"
    /// The index's file name.
    public static let indexName = "index.smil"
    /// The signature's file name.
    public static let signatureName = indexName + ".minisig"
    /// The `<meta name>` in the index's `<head>` whose `content` is the URL the bundle stands for.
    public static let urlMetaName = "kiosk-url"
    /// The largest signature file read.
    static let maxSignatureBytes = 64 * 1024

    /// The folder holding the bundle's index in `folder` (`folder/kiosk` when it holds `index.smil`, else `folder`),
    /// or nil when neither holds one. Symlinks are followed here; the import opens every file beneath the folder.
    public static func indexFolder(in folder: String) -> String? {
        let inner = folder + "/" + subfolder
        if isFile(inner + "/" + indexName) { return inner }
        return isFile(folder + "/" + indexName) ? folder : nil
    }

    /// Whether `path` is a regular file (after symlinks).
    static func isFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The URL the index `root` says it stands for (`<meta name="kiosk-url" content="URL">` in its `<head>`), as an
    /// absolute http or https URL; nil when it names none. A value that is not such a URL is returned as written,
    /// for the error.
    static func standsFor(_ root: MarkupElement) -> (url: String?, written: String?) {
        guard let head = root.children.first(where: { $0.name == "head" }) else { return (nil, nil) }
        for meta in head.children where meta.name == "meta" && meta.attribute("name")?.lowercased() == urlMetaName {
            let written = meta.attribute("content") ?? ""
            return (ContentMap.absolute(written, base: written).flatMap { ContentMap.isRemote(written) ? $0 : nil }, written)
        }
        return (nil, nil)
    }

    /// The path, relative to the index's folder, of the bundle's file for the medium at `url` when the index stands
    /// for `indexURL`: `url`'s path below `indexURL`'s folder (same scheme, host and port), percent-decoded, its query
    /// left off. Nil when `url` is not under that folder, or a component is empty, `.`, `..` or holds a `/` or NUL
    /// once decoded.
    static func relativePath(of url: String, indexURL: String) -> String? {
        guard let medium = URLComponents(string: url), let index = URLComponents(string: indexURL),
              medium.scheme?.lowercased() == index.scheme?.lowercased(), medium.host?.lowercased() == index.host?.lowercased(),
              medium.port == index.port else { return nil }
        let indexPath = index.percentEncodedPath
        let folder = indexPath.hasSuffix("/") ? indexPath : String(indexPath[..<(indexPath.lastIndex(of: "/") ?? indexPath.startIndex)]) + "/"
        let path = medium.percentEncodedPath
        guard path.hasPrefix(folder), path.count > folder.count else { return nil }
        var parts: [String] = []
        for encoded in path.dropFirst(folder.count).split(separator: "/", omittingEmptySubsequences: false) {
            guard let part = String(encoded).removingPercentEncoding, !part.isEmpty, part != ".", part != "..",
                  !part.contains("/"), !part.utf8.contains(0) else { return nil }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }

    /// The folder of `indexURL` (what a medium's URL must lie under), for messages.
    static func folderURL(of indexURL: String) -> String {
        guard let slash = indexURL.lastIndex(of: "/") else { return indexURL }
        return String(indexURL[...slash])
    }
}
