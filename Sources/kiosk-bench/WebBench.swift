import Foundation
import Glibc
import KioskCore

/// `kiosk-bench web KIOSK [COUNT] [CLIENTS] [SECONDS]`: the web page's cost on a playing kiosk. COUNT round trips of
/// `GET /api/status` and of `POST /api/command ["playlist-next"]` over one keep-alive connection (bearer token),
/// against the same requests over the same kiosk's IPC socket in the same run (the page's overhead over the
/// socket); then CLIENTS keep-alive clients asking for the status for SECONDS: answers per second, their p50 and
/// p99, what was refused, and kiosk's RSS before and after.
enum WebBench {
    static func run(kiosk: String, count: Int, clients: Int, seconds: Double) throws {
        let dir = NSTemporaryDirectory() + "kiosk-bench-web-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try IPCBench.stills(in: URL(fileURLWithPath: dir))
        let token = "kiosk-bench-web-token-0123456789"
        try token.write(toFile: dir + "/token", atomically: true, encoding: .utf8)
        let port = try freePort()
        let sock = dir + "/ipc.sock"
        let k = Process()
        k.executableURL = URL(fileURLWithPath: kiosk)
        k.arguments = ["play", "--output", "headless", "--size", "640x360", "--duration", "30", "--no-state", "--no-play-log",
                       "--input-ipc-server", sock, "--http", "127.0.0.1:\(port)", "--http-token-file", dir + "/token"] + files
        k.environment = ProcessInfo.processInfo.environment.merging(["LIBGL_ALWAYS_SOFTWARE": "1"]) { _, b in b }
        k.standardOutput = FileHandle.nullDevice
        k.standardError = FileHandle.nullDevice
        try k.run()
        defer { k.terminate(); k.waitUntilExit() }

        let web = try HTTPClient(port: port, timeout: 30)
        // warm, and wait until it plays: a command sent before that is refused
        let ready = MonotonicClock.seconds() + 30
        while try web.request("GET", "/api/status", token: token) != 200 || !String(decoding: web.body, as: UTF8.self).contains(#""path":"/"#) {
            guard MonotonicClock.seconds() < ready else { throw BenchError("nothing played within 30 s") }
            usleep(100_000)
        }
        var status: [Double] = [], next: [Double] = [], refusedNext = 0, why = ""
        for _ in 0..<count {
            let (code, ms) = try web.timed("GET", "/api/status", token: token)
            guard code == 200 else { throw BenchError("GET /api/status: HTTP \(code)") }
            status.append(ms)
        }
        // the player may refuse a command (400 with its reason, as the socket would): counted, not timed
        for _ in 0..<count {
            let (code, ms) = try web.timed("POST", "/api/command", token: token, json: #"["playlist-next","force"]"#)
            if code == 200 { next.append(ms) } else { refusedNext += 1; why = String(decoding: web.body, as: UTF8.self) }
        }
        web.close()
        guard !next.isEmpty else { throw BenchError("the player refused every playlist-next: \(why)") }
        if refusedNext > 0 { print("web command playlist-next: \(refusedNext) of \(count) refused by the player (not timed), the last with \(why)") }
        let ipc = try IPCBench.measure(sock, count: count)
        for (label, page, socket) in [("status (IPC: get_property playlist-pos)", status, ipc.get),
                                      ("command playlist-next while playing", next, ipc.next)] {
            print(String(format: "web %@, %d round trips: page p50 %.3f ms, p99 %.3f ms; IPC socket p50 %.3f ms; p50 ratio %.2f",
                         label, page.count, IPCBench.percentile(page, 50), IPCBench.percentile(page, 99),
                         IPCBench.percentile(socket, 50), IPCBench.percentile(page, 50) / IPCBench.percentile(socket, 50)))
        }

        let before = rssMiB(k.processIdentifier)
        let load = Load()
        let stop = MonotonicClock.seconds() + seconds
        let group = DispatchGroup()
        for _ in 0..<clients {
            group.enter()
            Thread {
                defer { group.leave() }
                var c: HTTPClient?
                while MonotonicClock.seconds() < stop {
                    do {
                        if c == nil { c = try HTTPClient(port: port, timeout: 10, retry: false) }
                        guard let client = c else { continue }
                        let start = MonotonicClock.seconds()
                        let code = try client.request("GET", "/api/status", token: token)
                        load.add(code, ms: (MonotonicClock.seconds() - start) * 1000)
                        if client.closed { client.close(); c = nil }
                    } catch {
                        load.refused()
                        c?.close()
                        c = nil
                        usleep(10_000)
                    }
                }
                c?.close()
            }.start()
        }
        guard group.wait(timeout: .now() + seconds + 30) == .success else { throw BenchError("the load's clients did not finish") }
        let after = rssMiB(k.processIdentifier)
        let (ok, other, refused, times) = load.totals
        print(String(format: "web load, %d keep-alive clients for %.0f s: %.0f status answers/s (p50 %.2f ms, p99 %.2f ms), %d other statuses, %d connections refused or dropped; RSS %.1f -> %.1f MiB",
                     clients, seconds, Double(ok) / seconds, IPCBench.percentile(times, 50), IPCBench.percentile(times, 99),
                     other, refused, before, after))
    }

    /// The answers the load's clients got.
    private final class Load: @unchecked Sendable {
        private let lock = NSLock()
        private var ok = 0, other = 0, refusals = 0
        private var times: [Double] = []
        func add(_ code: Int, ms: Double) {
            lock.lock()
            if code == 200 { ok += 1; times.append(ms) } else { other += 1 }
            lock.unlock()
        }
        func refused() { lock.lock(); refusals += 1; lock.unlock() }
        var totals: (Int, Int, Int, [Double]) { lock.lock(); defer { lock.unlock() }; return (ok, other, refusals, times) }
    }

    /// A loopback port nobody listens on now.
    static func freePort() throws -> UInt16 {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard s >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        defer { Glibc.close(s) }
        var addr = BenchSocket.loopback(0)
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, size) == 0 && getsockname(s, $0, &size) == 0 }
        }
        guard bound else { throw BenchError("bind: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: addr.sin_port)
    }

    /// A process's resident memory in MiB (0 when it cannot be read).
    static func rssMiB(_ pid: Int32) -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return 0 }
        return kb / 1024
    }
}
