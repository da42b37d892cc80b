import Foundation
import Glibc
import KioskCore

/// `kiosk-bench content KIOSK [FETCHERS]`: content from a server, against nginx from Debian on 127.0.0.1 serving the
/// demo's real photos and its clip (H.264 with B-frames) under a SMIL index. Measured in one run:
/// - `kiosk play URL` from its start to the layout taking the screen, with an empty cache (cold: the index and every
///   medium fetched first) and a full one (warm: played from the cache, the check after), against one curl fetching
///   the same files one after another over one connection (the peer: what the download alone costs);
/// - an unchanged check (`kiosk content sync` a second time): its requests and bytes, and nginx's access log lines;
/// - FETCHERS `kiosk content sync` processes against the one nginx at once, cold then unchanged: the requests nginx
///   answered per round (one check period) and the CPU time nginx spent on each round (from /proc, in clock ticks
///   of 10 ms: a round under a tick reads 0).
enum ContentBench {
    static func run(kiosk: String, fetchers: Int) throws {
        let dir = NSTemporaryDirectory() + "kiosk-bench-content-\(getpid())"
        let www = dir + "/www", home = dir + "/nginx"
        for folder in [www, home] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let demo = try demoFolder(kiosk: kiosk)
        let media = try FileManager.default.contentsOfDirectory(atPath: demo).filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".mp4") }.sorted()
        for m in media { try FileManager.default.copyItem(atPath: demo + "/" + m, toPath: www + "/" + m) }
        let items = media.map { m in m.hasSuffix(".mp4") ? "<video src=\"\(m)\" region=\"main\"/>" : "<img src=\"\(m)\" dur=\"5s\" region=\"main\"/>" }
        try """
        <smil><head><meta http-equiv="Refresh" content="60"/>
        <layout><root-layout width="1920" height="1080"/><region regionName="main" width="1920" height="1080"/></layout></head>
        <body><seq repeatCount="indefinite">\(items.joined())</seq></body></smil>
        """.write(toFile: www + "/index.smil", atomically: true, encoding: .utf8)
        let bytes = media.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: www + "/" + $1)[.size] as? Int) ?? 0) }
        let port = try WebBench.freePort()
        let nginx = try startNginx(home: home, root: www, port: port)
        defer { nginx.terminate(); nginx.waitUntilExit() }
        let url = "http://127.0.0.1:\(port)/index.smil"
        print("content: nginx on 127.0.0.1 serving \(media.count) demo media (\(bytes / 1024) KiB: real photos, a clip with B-frames)")

        // the peer: one curl fetching the index and every medium over one connection, one after another
        let curlStart = MonotonicClock.seconds()
        try quiet("/usr/bin/curl", ["-sf"] + (["index.smil"] + media).flatMap { ["-o", "/dev/null", "http://127.0.0.1:\(port)/\($0)"] })
        let curl = MonotonicClock.seconds() - curlStart
        let cache = dir + "/cache"
        let cold = try timeToLayout(kiosk: kiosk, url: url, cache: cache)
        let warm = try timeToLayout(kiosk: kiosk, url: url, cache: cache)
        print(String(format: "content: kiosk play URL to the layout on screen: cold cache %.0f ms, warm cache %.0f ms; "
                     + "curl fetching the same %d files %.0f ms (cold / curl %.2f)", cold * 1000, warm * 1000, media.count + 1,
                     curl * 1000, cold / curl))

        let logged = lines(home + "/access.log")
        let summary = try sync(kiosk: kiosk, url: url, cache: cache)
        print("content: an unchanged check: \(summary); nginx logged \(lines(home + "/access.log") - logged) request(s)")

        var caches: [String] = []
        for i in 0..<fetchers { caches.append(dir + "/fleet-\(i)") }
        for round in ["cold", "unchanged"] {
            let before = (lines(home + "/access.log"), cpuSeconds(nginx.processIdentifier))
            let start = MonotonicClock.seconds()
            let group = DispatchGroup()
            let failures = Counter()
            for c in caches {
                group.enter()
                Thread {
                    defer { group.leave() }
                    do { _ = try sync(kiosk: kiosk, url: url, cache: c) } catch { failures.add() }
                }.start()
            }
            group.wait()
            let seconds = MonotonicClock.seconds() - start
            let requests = lines(home + "/access.log") - before.0
            let cpu = cpuSeconds(nginx.processIdentifier) - before.1
            print(String(format: "content: %d fetchers at once, %@: %d requests to nginx (%.1f per fetcher) in %.2f s, "
                         + "nginx CPU %.0f ms%@", fetchers, round, requests, Double(requests) / Double(max(1, fetchers)), seconds,
                         cpu * 1000, failures.value > 0 ? ", \(failures.value) failed" : ""))
        }
    }

    /// The demo folder next to the binary's checkout (KIOSK_DEMO's folder when set).
    private static func demoFolder(kiosk: String) throws -> String {
        if let m3u = ProcessInfo.processInfo.environment["KIOSK_DEMO"] { return (m3u as NSString).deletingLastPathComponent }
        var url = URL(fileURLWithPath: kiosk).deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = url.appendingPathComponent("Kiosk/demo").path
            if FileManager.default.fileExists(atPath: candidate + "/demo.m3u") { return candidate }
            url.deleteLastPathComponent()
        }
        throw BenchError("the demo folder (Kiosk/demo) was not found; set KIOSK_DEMO")
    }

    private static func startNginx(home: String, root: String, port: UInt16) throws -> Process {
        let temps = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map { "\($0)_temp_path \(home)/\($0);" }
        try """
        daemon off; master_process off; pid \(home)/nginx.pid; error_log \(home)/error.log;
        events { worker_connections 1024; }
        http { access_log \(home)/access.log; \(temps.joined(separator: " "))
          types { image/jpeg jpg; video/mp4 mp4; application/smil+xml smil; } default_type application/octet-stream;
          server { listen 127.0.0.1:\(port); root \(root); } }
        """.write(toFile: home + "/nginx.conf", atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        p.arguments = ["600", "/usr/sbin/nginx", "-p", home, "-c", home + "/nginx.conf", "-e", home + "/error.log"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        let deadline = MonotonicClock.seconds() + 5
        while !FileManager.default.fileExists(atPath: home + "/nginx.pid") {
            guard MonotonicClock.seconds() < deadline, p.isRunning else { throw BenchError("nginx did not start (see \(home)/error.log)") }
            usleep(20_000)
        }
        usleep(100_000)
        return p
    }

    /// Seconds from starting `kiosk play URL` to its line saying the layout took the screen.
    private static func timeToLayout(kiosk: String, url: String, cache: String) throws -> Double {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: kiosk)
        p.arguments = ["play", url, "--output", "headless", "--size", "640x360", "--content-cache", cache, "--no-state",
                       "--no-play-log", "--log-level", "info", "--length", "60"]
        p.environment = ProcessInfo.processInfo.environment.merging(["LIBGL_ALWAYS_SOFTWARE": "1"]) { _, b in b }
        let pipe = Pipe()
        p.standardError = pipe
        p.standardOutput = FileHandle.nullDevice
        let start = MonotonicClock.seconds()
        try p.run()
        defer { p.terminate(); p.waitUntilExit() }
        var text = ""
        let deadline = start + 60
        while MonotonicClock.seconds() < deadline {
            let data = pipe.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
            if text.contains("layout: \(url): ") { return MonotonicClock.seconds() - start }
        }
        throw BenchError("kiosk play \(url) did not show the layout within 60 s: \(text.suffix(400))")
    }

    /// `kiosk content sync`'s summary line.
    private static func sync(kiosk: String, url: String, cache: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        p.arguments = ["120", kiosk, "content", "sync", url, "--cache", cache]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw BenchError("kiosk content sync \(url) failed (exit \(p.terminationStatus))") }
        return out.split(separator: "\n").last.map(String.init) ?? ""
    }

    private static func quiet(_ tool: String, _ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw BenchError("\(tool) \(args.joined(separator: " ")) failed") }
    }

    private static func lines(_ path: String) -> Int {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    /// User and system CPU seconds of process `pid` and its children (nginx runs under `timeout`: its child).
    private static func cpuSeconds(_ pid: Int32) -> Double {
        var total = 0.0
        let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
        let children = ((try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? "")
            .split(separator: " ").compactMap { Int32($0) }
        for p in [pid] + children {
            guard let stat = try? String(contentsOfFile: "/proc/\(p)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let f = stat[stat.index(after: close)...].split(separator: " ")
            if f.count > 12, let u = Double(f[11]), let s = Double(f[12]) { total += (u + s) / tick }
        }
        return total
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func add() { lock.lock(); n += 1; lock.unlock() }
        var value: Int { lock.lock(); defer { lock.unlock() }; return n }
    }
}
