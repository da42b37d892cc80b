import Foundation
import KioskCore

/// One HTTP request as kiosk's handlers see it: what libmicrohttpd parsed, and the body (a form or JSON, at most
/// `WebLimits.smallBody`) or the files an upload streamed to disk.
public struct WebRequest: Sendable {
    public var method: String
    /// The path, without the query (`/api/media/a.jpg`), percent-decoded by libmicrohttpd.
    public var path: String
    /// The query's arguments (`?since=…&by=day`).
    public var query: [String: String]
    /// The headers kiosk reads, by lowercase name.
    public var headers: [String: String]
    /// The client's address (`127.0.0.1`).
    public var client: String
    /// The body, when it was read whole.
    public var body: [UInt8]
    /// A multipart upload's fields (its files are in `files`).
    public var form: [String: String]
    /// Files an upload wrote (in the media folder, not yet in place).
    public var files: [UploadedFile]
    /// Whether it came over TLS.
    public var secure: Bool

    /// A request.
    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                client: String = "127.0.0.1", body: [UInt8] = [], form: [String: String] = [:], files: [UploadedFile] = [],
                secure: Bool = false) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.client = client
        self.body = body
        self.form = form
        self.files = files
        self.secure = secure
    }

    /// The cookies of the `Cookie` header.
    public var cookies: [String: String] {
        var out: [String: String] = [:]
        for part in (headers["cookie"] ?? "").split(separator: ";") {
            let kv = part.split(separator: "=", maxSplits: 1)
            guard kv.count == 2 else { continue }
            out[kv[0].trimmingCharacters(in: .whitespaces)] = kv[1].trimmingCharacters(in: .whitespaces)
        }
        return out
    }

    /// An `application/x-www-form-urlencoded` body's fields (the login form); empty for anything else.
    public var urlEncodedForm: [String: String] {
        guard (headers["content-type"] ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded") else { return [:] }
        return WebRequest.decodeForm(String(decoding: body, as: UTF8.self))
    }

    /// `a=1&b=x%20y` as fields (`+` a space); a name given twice keeps its first value.
    public static func decodeForm(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ s: Substring) -> String? { s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = kv.first.flatMap(decode), !name.isEmpty else { continue }
            let value = kv.count > 1 ? decode(kv[1]) ?? "" : ""
            if out[name] == nil { out[name] = value }
        }
        return out
    }
}

/// A file an upload streamed to disk: its cleaned name, where it lies now (a hidden temporary file beside its
/// place), and its size.
public struct UploadedFile: Sendable, Equatable {
    public var name: String
    public var temporary: String
    public var size: Int64
    /// Why it was refused while it came (too large, a bad name); nil when it arrived whole.
    public var refused: String?
}

/// An HTTP response: status, headers and body.
public struct WebResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// A file to send instead of `body`, straight from disk by the server (a media file may be large). It is opened
    /// when the answer is queued, without following a link; gone by then, the answer is 404.
    public var file: String?

    /// A response of `status` with `body` of `type`.
    public init(status: Int = 200, type: String = "text/plain; charset=utf-8", body: [UInt8] = [], headers: [(String, String)] = []) {
        self.status = status
        self.body = body
        self.headers = [("Content-Type", type)] + headers
    }

    /// Plain text.
    public static func text(_ status: Int, _ text: String) -> WebResponse {
        WebResponse(status: status, body: Array((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// JSON (`{"error": …}` for errors, by convention).
    public static func json(_ status: Int = 200, _ json: String) -> WebResponse {
        WebResponse(status: status, type: "application/json", body: Array(json.utf8))
    }

    /// An error as JSON: `{"error": "why"}`.
    public static func error(_ status: Int, _ why: String) -> WebResponse {
        json(status, JSONValue.object([("error", .string(why))]).text)
    }

    /// A redirect (303: the browser then GETs `location`).
    public static func redirect(_ location: String, headers: [(String, String)] = []) -> WebResponse {
        WebResponse(status: 303, body: [], headers: [("Location", location)] + headers)
    }

    /// A header's value (the first of that name, any case).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}
