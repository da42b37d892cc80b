/// One HTTP request the content fetcher sends: GET or HEAD for content, PUT or POST for reports.
public struct HTTPRequest: Sendable {
    /// The method.
    public enum Method: String, Sendable {
        /// Fetch a body.
        case get = "GET"
        /// Only the headers (is it still the same?).
        case head = "HEAD"
        /// Send `body` to be stored at the URL.
        case put = "PUT"
        /// Send `body` to be handled at the URL.
        case post = "POST"
    }

    /// The method.
    public var method: Method
    /// The http or https URL.
    public var url: String
    /// Validators of the copy already held: sent as `If-None-Match` / `If-Modified-Since`, so an unchanged body
    /// costs a 304 and no bytes.
    public var validators: HTTPValidators
    /// The body of a PUT or POST.
    public var body: [UInt8]
    /// The body's `Content-Type`.
    public var contentType: String?

    /// A request; `validators` make it conditional.
    public init(_ method: Method = .get, url: String, validators: HTTPValidators = HTTPValidators(), body: [UInt8] = [],
                contentType: String? = nil) {
        self.method = method
        self.url = url
        self.validators = validators
        self.body = body
        self.contentType = contentType
    }
}

/// Where a response's body goes.
public enum HTTPBodyTarget: Sendable {
    /// Kept in memory, refused past `limit` bytes (an index, a signature, a report's answer).
    case memory(limit: Int64)
    /// Written into the file at `path` (a `.part` file), refused past `limit` bytes. With `resume`, the bytes
    /// already in the file are continued with a `Range` request when the server still has the body those
    /// validators name (`If-Range`); otherwise, or when the server sends the whole body, it is written from the start.
    case file(path: String, limit: Int64, resume: HTTPValidators?)
}

/// What the server answered.
public struct HTTPResponse: Sendable {
    /// The status code of the last response (after redirects): 2xx, or 304 to a conditional request.
    public var status: Int
    /// The body's `ETag` and `Last-Modified`.
    public var validators: HTTPValidators
    /// `Content-Type`, without parameters, lower-case.
    public var contentType: String?
    /// The body (memory target only).
    public var body: [UInt8]
    /// Body bytes received over the wire in this transfer.
    public var receivedBytes: Int64
    /// The size of the file written (file target): the resumed part plus what arrived.
    public var fileBytes: Int64
    /// Where a resumed transfer continued the file (0: written from the start).
    public var resumedFrom: Int64
    /// HTTP requests it took (1 plus each redirect followed).
    public var requests: Int
    /// The URL that answered (after redirects).
    public var finalURL: String

    /// Whether the server said the held copy is still current (304).
    public var notModified: Bool { status == 304 }
}
