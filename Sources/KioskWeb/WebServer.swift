internal import CMicroHTTPD
import Foundation
import Glibc
import KioskCore

/// What the server does with a request whose head has come (its headers read, its body not yet).
public enum WebAdmission: Sendable {
    /// Answer now (a refusal, or a request with no body to wait for).
    case respond(WebResponse)
    /// Read a body of at most `limit` bytes into `WebRequest.body`, then `respond` (over it: 413).
    case body(limit: Int)
    /// Stream a multipart upload's files into `folder`, at most `limit` bytes in all (over it: 413, nothing left).
    case upload(folder: String, limit: Int64)
}

/// Kiosk's side of the web server: thread-safe, since libmicrohttpd's threads call it at once.
public protocol WebHandler: AnyObject, Sendable {
    /// The request's head (method, path, query, headers; no body yet).
    func admit(_ head: WebRequest) -> WebAdmission
    /// The whole request: the response.
    func respond(_ request: WebRequest) -> WebResponse
}

/// The server's limits: connections in all and per address, the seconds a connection may sit idle, the seconds a
/// client has to send a request's headers and a form's or JSON's body (a slow-loris client is cut off, and one that
/// trickles its body), and the memory for one connection's headers.
public struct WebLimits: Sendable {
    public var connections: UInt32 = 64
    public var perAddress: UInt32 = 16
    public var idleSeconds: UInt32 = 30
    public var headerSeconds: Double = 10
    /// Seconds from a request's headers to the end of its form or JSON body (at most `smallBody` bytes). Uploads,
    /// which need a login, are not timed.
    public var bodySeconds: Double = 20
    public var connectionMemory = 64 * 1024
    public var threads: UInt32 = 4
    /// The most connections that may wait for a request's headers at once (below `connections`): past it a new one
    /// cuts the oldest waiting connection of the address holding the most, so a fresh client is always accepted.
    public var waiting = 48
    /// The largest form or JSON body.
    public static let smallBody = 256 * 1024
    public init() {}
}

/// kiosk's web server: libmicrohttpd (Debian's libmicrohttpd), an epoll thread pool of its own, HTTPS through its
/// GnuTLS when given a certificate. Every response carries the security headers (CSP `default-src 'self'`,
/// `X-Frame-Options: DENY`, `nosniff`, no referrer to other sites).
public final class WebServer: @unchecked Sendable {
    private var daemon: OpaquePointer?
    let handler: WebHandler
    let limits: WebLimits
    let secure: Bool
    let log: Log
    let watch: WebConnectionWatch

    /// Starts serving `handler` on `address`:`port` (IPv4 or IPv6 text); `tls` the PEM key and certificate.
    public init(address: String, port: UInt16, tls: (key: String, cert: String)?, limits: WebLimits = WebLimits(),
                handler: WebHandler, log: Log) throws(WebSetupError) {
        self.handler = handler
        self.limits = limits
        self.secure = tls != nil
        self.log = log
        watch = WebConnectionWatch(waiting: limits.waiting)
        var v4 = sockaddr_in(), v6 = sockaddr_in6()
        let isV6 = address.contains(":")
        if isV6 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, address, &v6.sin6_addr) == 1 else { throw WebSetupError("--http: '\(address)' is not an IP address") }
        } else {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            guard inet_pton(AF_INET, address, &v4.sin_addr) == 1 else { throw WebSetupError("--http: '\(address)' is not an IP address") }
        }
        let c = kiosk_http_limits(connections: limits.connections, per_address: limits.perAddress, idle_seconds: limits.idleSeconds,
                                  connection_memory: limits.connectionMemory, threads: limits.threads)
        let me = Unmanaged.passUnretained(self).toOpaque()
        func start(_ address: UnsafePointer<sockaddr>) -> OpaquePointer? {
            kiosk_http_start(address, port, c, webAccess, me, webCompleted, webNotify, tls?.key, tls?.cert)
        }
        daemon = isV6 ? withUnsafePointer(to: &v6) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, start) }
                      : withUnsafePointer(to: &v4) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, start) }
        guard daemon != nil else {
            throw WebSetupError("--http: cannot serve on \(isV6 ? "[\(address)]" : address):\(port)"
                                + (tls != nil ? " (is the TLS key or certificate bad, or the port taken?)" : " (is the port taken?)"))
        }
        watch.start(headerSeconds: limits.headerSeconds)
    }

    /// Stops serving: open connections are closed.
    public func stop() {
        watch.stop()
        if let d = daemon { MHD_stop_daemon(d) }
        daemon = nil
    }

    deinit { stop() }

    /// The security headers every response carries.
    static let securityHeaders = [
        ("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"),
        ("X-Frame-Options", "DENY"),
        ("X-Content-Type-Options", "nosniff"),
        // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` with the page's own form
        // posts, which WebOriginGuard could not tell from another site's
        ("Referrer-Policy", "same-origin"),
    ]

    /// Whether a request's head announces a body (a length above 0, or chunks).
    static func carriesBody(_ head: WebRequest) -> Bool {
        head.headers["transfer-encoding"] != nil || (Int64(head.headers["content-length"] ?? "") ?? 0) > 0
    }

    /// Queues `response` on `connection`.
    func queue(_ response: WebResponse, on connection: OpaquePointer) -> MHD_Result {
        let r: OpaquePointer?
        if let path = response.file {
            guard let (fd, size) = Self.openFile(path) else { return queue(.error(404, "no such file"), on: connection) }
            r = MHD_create_response_from_fd64(UInt64(size), fd)  // libmicrohttpd closes fd with the response
            if r == nil { close(fd) }
        } else {
            r = response.body.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            }
        }
        guard let r else { return MHD_Result.NO }
        defer { MHD_destroy_response(r) }
        for (name, value) in response.headers + Self.securityHeaders { MHD_add_response_header(r, name, value) }
        return MHD_queue_response(connection, UInt32(response.status), r)
    }
}

extension WebServer {
    /// A regular file opened for sending (no link followed) and its size.
    static func openFile(_ path: String) -> (Int32, Int64)? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var s = stat()
        guard fstat(fd, &s) == 0, (s.st_mode & S_IFMT) == S_IFREG else { close(fd); return nil }
        return (fd, Int64(s.st_size))
    }
}

/// A request between libmicrohttpd's calls: its head, the body read so far, an upload's receiver.
final class WebExchange {
    var request: WebRequest
    var admission: WebAdmission?
    var receiver: WebUploadReceiver?
    var tooLarge = false
    var answered = false
    /// The answer to a request without a body, queued on libmicrohttpd's second call.
    var pending: WebResponse?

    init(_ request: WebRequest) { self.request = request }
}

/// The access handler: the head, then the body in pieces, then (`*uploadSize == 0` after the body) the response.
private let webAccess: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, context in
    guard let cls, let connection, let context, let uploadSize else { return MHD_Result.NO }
    let server = Unmanaged<WebServer>.fromOpaque(cls).takeUnretainedValue()
    // a query of too many arguments was cut off before libmicrohttpd parsed it (kiosk_http_uri_check): answered 414
    let overlong = context.pointee == kiosk_http_too_many_arguments()
    guard let raw = context.pointee, !overlong else {
        let head = WebServer.head(connection, url: url.map { String(cString: $0) } ?? "/", method: method.map { String(cString: $0) } ?? "GET",
                                  secure: server.secure)
        let exchange = WebExchange(head)
        server.watch.busy(connection)
        context.pointee = Unmanaged.passRetained(exchange).toOpaque()
        let admission = overlong ? .respond(.error(414, "the query has more than \(KIOSK_HTTP_MAX_ARGUMENTS) arguments"))
                                 : server.handler.admit(head)
        exchange.admission = admission
        switch admission {
        case .respond(let response) where WebServer.carriesBody(head):
            // refused at its head: answered now, which makes libmicrohttpd drop the body and close the connection
            exchange.answered = true
            return server.queue(response, on: connection)
        case .respond(let response):
            // answered on the next call: a response queued in this first one makes libmicrohttpd close the
            // connection, so keep-alive (the page's live view, each request over TLS) would be lost
            exchange.pending = response
        case .upload(let folder, let limit):
            let length = Int64(head.headers["content-length"] ?? "") ?? 0
            if length > limit {
                exchange.answered = true
                return server.queue(.error(413, "the upload is over \(limit / 1_048_576) MiB"), on: connection)
            }
            exchange.receiver = WebUploadReceiver(connection: connection, folder: folder, limit: limit)
            if exchange.receiver?.ready != true {
                exchange.answered = true
                return server.queue(.error(400, "not a multipart/form-data upload"), on: connection)
            }
        case .body(let limit):
            if let length = Int(head.headers["content-length"] ?? ""), length > limit {
                exchange.answered = true
                return server.queue(.error(413, "the body is over \(limit / 1024) KiB"), on: connection)
            }
            server.watch.reading(connection, seconds: server.limits.bodySeconds)
        }
        return MHD_Result.YES
    }
    let exchange = Unmanaged<WebExchange>.fromOpaque(raw).takeUnretainedValue()
    if let pending = exchange.pending {
        exchange.pending = nil
        exchange.answered = true
        return server.queue(pending, on: connection)
    }
    if exchange.answered {  // refused at its head: what still comes is dropped
        uploadSize.pointee = 0
        return MHD_Result.YES
    }
    if uploadSize.pointee > 0, let upload {
        let n = uploadSize.pointee
        uploadSize.pointee = 0
        if let receiver = exchange.receiver {
            if !receiver.take(upload, n) { exchange.tooLarge = receiver.overLimit }
        } else if case .body(let limit) = exchange.admission {
            if exchange.request.body.count + n > limit {
                exchange.tooLarge = true
            } else {
                exchange.request.body += UnsafeRawBufferPointer(start: upload, count: n)
            }
        }
        if exchange.tooLarge {
            exchange.receiver?.discard()
            exchange.answered = true
            return server.queue(.error(413, "the request's body is over its limit"), on: connection)
        }
        return MHD_Result.YES
    }
    exchange.answered = true
    server.watch.busy(connection)  // the body is in: its deadline is over
    if let receiver = exchange.receiver {
        exchange.request.files = receiver.finish()
        exchange.request.form = receiver.fields
    }
    return server.queue(server.handler.respond(exchange.request), on: connection)
}

/// The request is over (answered, or its connection gone): its exchange is released, an upload's leftovers removed.
private let webCompleted: MHD_RequestCompletedCallback = { cls, connection, context, _ in
    guard let cls, let context, let raw = context.pointee, raw != kiosk_http_too_many_arguments() else { return }
    let server = Unmanaged<WebServer>.fromOpaque(cls).takeUnretainedValue()
    let exchange = Unmanaged<WebExchange>.fromOpaque(raw).takeRetainedValue()
    exchange.receiver?.discard()
    context.pointee = nil
    if let connection { server.watch.idle(connection) }
}

/// Connections come and go: the watch times their headers.
private let webNotify: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    guard let cls, let connection else { return }
    let server = Unmanaged<WebServer>.fromOpaque(cls).takeUnretainedValue()
    if code == MHD_ConnectionNotificationCode.CONNECTION_NOTIFY_STARTED {
        server.watch.opened(connection, socket: kiosk_http_socket(connection), address: WebServer.client(connection))
    } else {
        server.watch.closed(connection)
    }
}

extension WebServer {
    /// The request's head: its path, query arguments, the headers kiosk reads, and the client's address.
    static func head(_ c: OpaquePointer, url: String, method: String, secure: Bool) -> WebRequest {
        var headers: [String: String] = [:]
        for name in ["cookie", "content-type", "content-length", "transfer-encoding", "authorization", "x-csrf-token", "host", "origin", "accept"] {
            if let v = MHD_lookup_connection_value(c, MHD_ValueKind.HEADER_KIND, name) { headers[name] = String(cString: v) }
        }
        let query = QueryBox()
        MHD_get_connection_values(c, MHD_ValueKind.GET_ARGUMENT_KIND, { cls, _, key, value in
            guard let cls, let key else { return MHD_Result.YES }
            let box = Unmanaged<QueryBox>.fromOpaque(cls).takeUnretainedValue()
            if box.values.count < 64 { box.values[String(cString: key)] = value.map { String(cString: $0) } ?? "" }
            return MHD_Result.YES
        }, Unmanaged.passUnretained(query).toOpaque())
        return WebRequest(method: method, path: url, query: query.values, headers: headers, client: client(c), secure: secure)
    }

    /// The client's address as text (`127.0.0.1`, `::1`); `?` when unknown.
    static func client(_ c: OpaquePointer) -> String {
        var address = [CChar](repeating: 0, count: 64)
        return kiosk_http_client(c, &address, socklen_t(address.count)) == 0
            ? address.withUnsafeBufferPointer { String(decoding: $0.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) } : "?"
    }
}

/// The query's arguments while libmicrohttpd hands them over.
private final class QueryBox { var values: [String: String] = [:] }
