import Foundation
import Glibc
import KioskCore

/// Remote-control latency: round trips of mpv's JSON IPC against a playing kiosk, and the same requests against
/// mpv itself (`mpv --idle --vo=null`), measured in the same run. A round trip is from writing the request to
/// reading its reply; a `playlist-next` is answered once the player has run it (in the next frame).
struct IPCBench {
    let kiosk: String
    let dir: URL

    /// Runs both and prints one line per measure.
    func run(count: Int = 1000) throws {
        let files = try Self.stills(in: dir)
        let kSock = dir.appendingPathComponent("kiosk-ipc.sock").path
        let k = try Self.start(kiosk, ["play", "--output", "headless", "--size", "640x360", "--duration", "30",
                                       "--input-ipc-server", kSock, "--no-state"] + files, env: ["LIBGL_ALWAYS_SOFTWARE": "1"])
        defer { k.terminate(); k.waitUntilExit() }
        let kiosk = try Self.measure(kSock, count: count)
        var peer: (get: [Double], next: [Double])?
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/mpv") {
            let mSock = dir.appendingPathComponent("mpv-ipc.sock").path
            let m = try Self.start("/usr/bin/mpv", ["--idle", "--vo=null", "--ao=null", "--image-display-duration=30",
                                                    "--loop-playlist=inf", "--input-ipc-server=\(mSock)"] + files, env: [:])
            defer { m.terminate(); m.waitUntilExit() }
            peer = try Self.measure(mSock, count: count)
        }
        for (label, mine, theirs) in [("get_property playlist-pos", kiosk.get, peer?.get),
                                      ("playlist-next while playing", kiosk.next, peer?.next)] {
            var line = String(format: "IPC %@, %d round trips: kiosk p50 %.3f ms, p99 %.3f ms", label, mine.count,
                              Self.percentile(mine, 50), Self.percentile(mine, 99))
            if let theirs {
                line += String(format: "; mpv p50 %.3f ms, p99 %.3f ms; p50 ratio %.2f", Self.percentile(theirs, 50),
                               Self.percentile(theirs, 99), Self.percentile(mine, 50) / Self.percentile(theirs, 50))
            }
            print(line)
        }
    }

    /// Eight 640×360 stills made by ffmpeg in DIR/ipc-stills, for a kiosk to play while it is asked.
    static func stills(in dir: URL) throws -> [String] {
        let stills = dir.appendingPathComponent("ipc-stills").path
        try FileManager.default.createDirectory(atPath: stills, withIntermediateDirectories: true)
        var files: [String] = []
        for i in 0..<8 {
            let f = stills + "/s\(i).jpg"
            try quiet("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x360", "-vf",
                                          "hue=h=\(i * 40)", "-frames:v", "1", f])
            files.append(f)
        }
        return files
    }

    private static func quiet(_ exe: String, _ args: [String]) throws {
        let p = try start(exe, args, env: [:])
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw BenchError("\(exe) \(args.joined(separator: " ")) failed") }
    }

    private static func start(_ exe: String, _ args: [String], env: [String: String]) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(env) { _, b in b }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    /// `count` get_property round trips, then `count` playlist-next round trips, in milliseconds.
    static func measure(_ socket: String, count: Int) throws -> (get: [Double], next: [Double]) {
        let c = try LineClient(path: socket, timeout: 30)
        defer { c.close() }
        // warm, and wait until it plays (a command sent before that is refused, and would be timed as an answer)
        let ready = MonotonicClock.seconds() + 30
        while true {
            let reply = try c.roundTrip(#"{"command":["get_property","playlist-pos"],"request_id":0}"#, id: 0).line
            if reply.contains(#""error":"success""#), !reply.contains(#""data":-1"#), !reply.contains(#""data":null"#) { break }
            guard MonotonicClock.seconds() < ready else { throw BenchError("\(socket): nothing played within 30 s") }
            usleep(100_000)
        }
        var get: [Double] = [], next: [Double] = []
        for i in 1...count {
            get.append(try c.roundTrip(#"{"command":["get_property","playlist-pos"],"request_id":\#(i)}"#, id: i).ms)
        }
        for i in 1...count {
            let id = count + i
            let (ms, line) = try c.roundTrip(#"{"command":["playlist-next","force"],"request_id":\#(id)}"#, id: id)
            guard line.contains(#""error":"success""#) else { throw BenchError("\(socket): playlist-next refused: \(line)") }
            next.append(ms)
        }
        return (get, next)
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let s = values.sorted()
        return s[min(s.count - 1, Int(saturating: Double(s.count - 1) * p / 100))]
    }
}

/// A blocking line client of a Unix socket, for the benchmark (every read bounded by `timeout`).
private final class LineClient {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private let timeout: Double

    init(path: String, timeout: Double) throws {
        self.timeout = timeout
        fd = try BenchSocket.connected(BenchSocket.unix(path), family: AF_UNIX, name: path, timeout: timeout)
    }

    func close() { Glibc.close(fd) }

    /// Writes `request` and reads until the reply with `id`: milliseconds, and the reply.
    func roundTrip(_ request: String, id: Int) throws -> (ms: Double, line: String) {
        let start = MonotonicClock.seconds()
        let bytes = Array((request + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw BenchError("send: \(String(cString: strerror(errno)))") }
            sent += n
        }
        let needle = "\"request_id\":\(id),"
        while true {
            let line = try readLine()
            if line.contains(needle) { return ((MonotonicClock.seconds() - start) * 1000, line) }
        }
    }

    private func readLine() throws -> String {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            if let nl = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeFirst(nl + 1)
                return line
            }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(clamping: Int(saturating: max(0, deadline.timeIntervalSinceNow) * 1000, rounding: .towardZero))) > 0 else { throw BenchError("no reply in \(timeout) s") }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw BenchError("the server closed the connection") }
            buffer += chunk[..<n]
        }
    }
}
