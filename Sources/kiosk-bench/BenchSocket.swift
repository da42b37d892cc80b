import Foundation
import Glibc

/// The benchmark's client sockets: a stream socket connected to loopback TCP or a Unix socket, tried again while the
/// server under test is starting.
enum BenchSocket {
    /// A socket connected to `address` (a `sockaddr_in` or `sockaddr_un` of `family`), named `name` in errors; with
    /// `retry`, tried every 50 ms until `timeout` has passed.
    static func connected<Address>(_ address: Address, family: Int32, name: String, timeout: Double, retry: Bool = true) throws -> Int32 {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var address = address
        while true {
            let s = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard s >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
            let rc = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(s, $0, socklen_t(MemoryLayout<Address>.size)) }
            }
            if rc == 0 { return s }
            let why = String(cString: strerror(errno))
            close(s)
            guard retry, Date() < deadline else { throw BenchError("connect \(name): \(why)") }
            usleep(50_000)
        }
    }

    /// 127.0.0.1:`port`.
    static func loopback(_ port: UInt16) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        return addr
    }

    /// The Unix socket at `path` (cut to what `sun_path` holds).
    static func unix(_ path: String) -> sockaddr_un {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        return addr
    }
}
