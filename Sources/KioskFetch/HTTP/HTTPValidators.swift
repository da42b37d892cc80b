import Foundation

/// A server's validators for a body: its `ETag` and `Last-Modified`, exactly as the server sent them, sent back
/// as `If-None-Match` and `If-Modified-Since` (a conditional request) or `If-Range` (a resume).
public struct HTTPValidators: Sendable, Equatable, Codable {
    /// The `ETag` header's value (quotes and `W/` kept).
    public var etag: String?
    /// The `Last-Modified` header's value.
    public var lastModified: String?

    /// Validators as given.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether there is anything to send.
    public var isEmpty: Bool { etag == nil && lastModified == nil }

    /// The request headers of a conditional GET.
    var conditionalHeaders: [String] {
        (etag.map { ["If-None-Match: \($0)"] } ?? []) + (lastModified.map { ["If-Modified-Since: \($0)"] } ?? [])
    }

    /// The `If-Range` value of a resume: the ETag when it is strong (a weak one may not be used), else the date.
    var ifRange: String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        return lastModified
    }

    /// Whether `text` can go into a request header as is: printable, no line break, not absurdly long (a
    /// server's value is sent back only when it is).
    static func isSendable(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 1024 && text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
    }
}

/// What the response headers of the last response of a transfer said (a redirect's headers are replaced by the
/// next response's), read line by line as libcurl hands them over.
struct HTTPResponseHead: Sendable {
    /// The status code of the status line.
    var status = 0
    /// `ETag` and `Last-Modified`.
    var validators = HTTPValidators()
    /// `Content-Length`.
    var contentLength: Int64?
    /// `Content-Type`, without parameters, lower-case.
    var contentType: String?
    /// `Content-Range: bytes FIRST-LAST/TOTAL` read into numbers (TOTAL nil for `*`).
    var contentRange: (first: Int64, last: Int64, total: Int64?)?
    /// `Location` of a redirect.
    var location: String?

    /// Reads one header line (`Name: value\r\n` or a status line, which starts a new response).
    mutating func read(line raw: String) {
        let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            let parts = line.split(separator: " ", maxSplits: 2)
            let keepLocation = location
            self = HTTPResponseHead()
            location = keepLocation  // where the previous response sent us, for a refused redirect's reason
            status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        switch name {
        case "etag": validators.etag = HTTPValidators.isSendable(value) ? value : nil
        case "last-modified": validators.lastModified = HTTPValidators.isSendable(value) ? value : nil
        case "content-length": contentLength = Int64(value)
        case "content-type":
            contentType = value.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        case "content-range": contentRange = Self.range(value)
        case "location": location = value
        default: break
        }
    }

    /// `bytes FIRST-LAST/TOTAL` (TOTAL may be `*`); nil for anything else.
    static func range(_ value: String) -> (first: Int64, last: Int64, total: Int64?)? {
        let lower = value.lowercased()
        guard lower.hasPrefix("bytes ") else { return nil }
        let spec = lower.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "/", maxSplits: 1)
        guard halves.count == 2 else { return nil }
        let ends = halves[0].split(separator: "-", maxSplits: 1)
        guard ends.count == 2, let first = Int64(ends[0]), let last = Int64(ends[1]), first >= 0, last >= first else { return nil }
        let total = halves[1] == "*" ? nil : Int64(halves[1])
        if halves[1] != "*" && total == nil { return nil }
        return (first, last, total)
    }
}
