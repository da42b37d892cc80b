import Foundation
import Glibc
import KioskCore

/// A blocking HTTP/1.1 client of one loopback keep-alive connection, for the web benchmark: requests with a bearer
/// token, answers read by their Content-Length (every read bounded by `timeout`).
final class HTTPClient {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private let timeout: Double
    /// Whether the server said it closes the connection after its last answer.
    private(set) var closed = false
    /// The last answer's body.
    private(set) var body: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; with `retry`, until `timeout` while the server is starting.
    init(port: UInt16, timeout: Double, retry: Bool = true) throws {
        self.timeout = timeout
        fd = try BenchSocket.connected(BenchSocket.loopback(port), family: AF_INET, name: "127.0.0.1:\(port)", timeout: timeout, retry: retry)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    func close() { Glibc.close(fd) }

    /// One request's status code and round trip in milliseconds.
    func timed(_ method: String, _ path: String, token: String, json: String? = nil) throws -> (code: Int, ms: Double) {
        let start = MonotonicClock.seconds()
        let code = try request(method, path, token: token, json: json)
        return (code, (MonotonicClock.seconds() - start) * 1000)
    }

    /// Sends one request and reads its whole answer; its status code.
    func request(_ method: String, _ path: String, token: String, json: String? = nil) throws -> Int {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
        let body = Array((json ?? "").utf8)
        if json != nil { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        let bytes = Array((head + "\r\n").utf8) + body
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw BenchError("send: \(String(cString: strerror(errno)))") }
            sent += n
        }
        let end: [UInt8] = [13, 10, 13, 10]
        var headEnd = buffer.firstRange(of: end)
        while headEnd == nil {
            try fill()
            headEnd = buffer.firstRange(of: end)
        }
        guard let headRange = headEnd else { throw BenchError("no answer") }
        let lines = String(decoding: buffer[..<headRange.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let words = lines.first?.split(separator: " ") ?? []
        guard words.count >= 2, let code = Int(words[1]) else { throw BenchError("not an HTTP answer: \(lines.first ?? "")") }
        var length = 0
        for line in lines.dropFirst() {
            let kv = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard kv.count == 2 else { continue }
            if kv[0] == "content-length" { length = Int(kv[1]) ?? 0 }
            if kv[0] == "transfer-encoding" { throw BenchError("\(path): a chunked answer (the benchmark reads lengths only)") }
            if kv[0] == "connection", kv[1] == "close" { closed = true }
        }
        buffer.removeFirst(headRange.upperBound)
        while buffer.count < length { try fill() }
        self.body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return code
    }

    private func fill() throws {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(clamping: Int(saturating: timeout * 1000, rounding: .towardZero))) > 0 else { throw BenchError("no answer in \(timeout) s") }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw BenchError("the server closed the connection") }
        buffer += chunk[..<n]
    }
}
