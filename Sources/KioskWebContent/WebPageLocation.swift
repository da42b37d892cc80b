import Glibc

/// A local page as the web helper loads it: its real path, its `file://` URI and the URI prefix of its folder, the
/// only place its navigations may go.
public struct WebPageLocation: Equatable, Sendable {
    /// The page's absolute path with links resolved.
    public let path: String
    /// `file://` and the path, percent-encoded.
    public let uri: String
    /// The URI of the page's folder, ending in `/`.
    public let folderPrefix: String

    /// Finds the page at `path` (relative to the working folder); it must be a regular file kiosk can read.
    public init(path: String) throws(WebContentError) {
        guard let resolved = realpath(path, nil) else {
            throw .pageUnreadable(page: path, reason: String(cString: strerror(errno)))
        }
        let absolute = String(cString: resolved)
        free(resolved)
        var status = stat()
        guard stat(absolute, &status) == 0 else { throw .pageUnreadable(page: path, reason: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .pageUnreadable(page: path, reason: "not a regular file") }
        guard access(absolute, R_OK) == 0 else { throw .pageUnreadable(page: path, reason: String(cString: strerror(errno))) }
        self.path = absolute
        uri = "file://" + Self.percentEncoded(absolute)
        let folder = absolute.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        folderPrefix = "file://" + Self.percentEncoded(folder) + "/"
    }

    /// `path` with every byte but unreserved characters and `/` written `%XX`, as a `file://` URI needs.
    static func percentEncoded(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return out
    }
}
