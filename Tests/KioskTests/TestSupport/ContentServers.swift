import Foundation
import XCTest

/// nginx from Debian serving a folder on 127.0.0.1 for one test: its own config in a temp folder (pid, logs and temp
/// paths inside it, one process, no daemon), a free port, and an access log that names each request with its
/// conditional and range headers, so a test counts what the fetcher asked for. It runs under `timeout`, so it
/// ends even if the test process dies; `stop` (the test's tearDown) ends it.
final class NginxServer {
    /// The folder it serves.
    let root: String
    /// Its port on 127.0.0.1.
    let port: Int
    /// The access log: `METHOD URI STATUS range=[…] ifrange=[…] inm=[…] ims=[…]` per request.
    let accessLog: String
    private let process = Process()

    /// Whether it speaks TLS (https).
    let tls: Bool

    /// Starts nginx serving `dir/www` (made here), waiting up to 5 s for it to listen; with `certificate` (PEM
    /// certificate and key files), over TLS only.
    init(_ dir: TempDir, lifetime: Int = 300, certificate: (chain: String, key: String)? = nil) throws {
        tls = certificate != nil
        let nginx = try IPCTools.require(FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") ? "/usr/sbin/nginx" : nil,
                                         "nginx is not installed (Kiosk/setup.sh installs nginx-light)")
        let home = dir.file("nginx")
        root = dir.file("www")
        for folder in [home, root] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        port = MQTTTools.freePort()
        accessLog = home + "/access.log"
        let temps = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map { "\($0)_temp_path \(home)/\($0);" }
        let config = """
        daemon off;
        master_process off;
        pid \(home)/nginx.pid;
        error_log \(home)/error.log;
        events { worker_connections 256; }
        http {
          log_format fetch '$request_method $uri $status range=[$http_range] ifrange=[$http_if_range] inm=[$http_if_none_match] ims=[$http_if_modified_since]';
          access_log \(accessLog) fetch;
          \(temps.joined(separator: " "))
          types { image/png png; video/mp4 mp4; application/smil+xml smil; audio/x-mpegurl m3u; text/plain txt; }
          default_type application/octet-stream;
          server { listen 127.0.0.1:\(port)\(certificate == nil ? "" : " ssl"); root \(root); \(certificate.map { "ssl_certificate \($0.chain); ssl_certificate_key \($0.key);" } ?? "") }
        }
        """
        try config.write(toFile: home + "/nginx.conf", atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = [String(lifetime), nginx, "-p", home, "-c", home + "/nginx.conf", "-e", home + "/error.log"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date(timeIntervalSinceNow: 5)
        while !MQTTTools.listening(port) {
            guard Date() < deadline, process.isRunning else {
                let log = (try? String(contentsOfFile: home + "/error.log", encoding: .utf8)) ?? ""
                stop()
                throw IPCTools.Missing(description: "nginx did not listen on \(port): \(log)")
            }
            usleep(20_000)
        }
    }

    /// The URL of `name` in the served folder.
    func url(_ name: String) -> String { "\(tls ? "https" : "http")://127.0.0.1:\(port)/\(name)" }

    /// The path of `name` in the served folder.
    func file(_ name: String) -> String { root + "/" + name }

    /// The access log's lines so far.
    func requests() -> [String] {
        ((try? String(contentsOfFile: accessLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Ends nginx (SIGTERM to `timeout`, which passes it on), waiting up to 5 s.
    func stop() {
        ServerProcess.end(process)
    }

    deinit { stop() }
}

/// The fault server (Fixtures/content/fault_server.py) on 127.0.0.1 for one test: cut connections, wrong lengths,
/// error statuses, slow bodies, bodies changed mid-transfer, redirects to other schemes. It serves files from
/// `root` and logs every request (with its Range and conditional headers) as JSON lines; it exits by itself after
/// `lifetime` seconds, and `stop` (the test's tearDown) ends it sooner.
final class FaultServer {
    /// The folder its files come from.
    let root: String
    /// Its port on 127.0.0.1.
    let port: Int
    private let log: String
    private let process = Process()

    /// The script.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/content/fault_server.py").path

    /// Starts the server serving `dir/faults` (made here), waiting up to 10 s for its port.
    init(_ dir: TempDir, lifetime: Int = 180) throws {
        let python = try IPCTools.python3()
        root = dir.file("faults")
        log = dir.file("faults.log")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-u", Self.script, "--root", root, "--log", log, "--lifetime", String(lifetime)]
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        try? out.fileHandleForWriting.close()
        let reader = out.fileHandleForReading
        let found = DispatchSemaphore(value: 0)
        let box = PortBox()
        Thread {
            var text = ""
            while !text.contains("\n") {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            box.set(text.split(separator: " ").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
            found.signal()
        }.start()
        guard found.wait(timeout: .now() + 10) == .success, let port = box.get() else {
            process.terminate()
            throw IPCTools.Missing(description: "the fault server did not say its port")
        }
        self.port = port
    }

    /// The URL of `path` (`/cut/a.png`).
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The requests it saw so far.
    func requests() -> [[String: String]] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.map { $0.compactMapValues { $0 as? String } }
    }

    /// Ends the server, waiting up to 5 s.
    func stop() {
        ServerProcess.end(process)
    }

    deinit { stop() }

    private final class PortBox: @unchecked Sendable {
        private let lock = NSLock()
        private var port: Int?
        func set(_ value: Int?) { lock.lock(); port = value; lock.unlock() }
        func get() -> Int? { lock.lock(); defer { lock.unlock() }; return port }
    }
}

/// How the test servers end: SIGTERM (to `timeout`, which passes it on), up to 5 s, then SIGKILL.
enum ServerProcess {
    /// Ends `process` and waits for it.
    static func end(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date(timeIntervalSinceNow: 5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
