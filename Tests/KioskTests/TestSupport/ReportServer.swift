import Foundation
import XCTest

/// The report collector (Fixtures/content/report_server.py) on 127.0.0.1 for one test: it records every PUT and
/// POST (method, path, Content-Type, the status answered, whether it took the body, the body) and answers as its
/// mode file says (`ok`, `fail`, `take-and-fail N`, `redirect`). Its port is chosen before it starts, so a test can
/// point reports at it while it is down, start it later, stop it and start it again on the same port. Each run is
/// under `timeout` (`lifetime` seconds), so it ends even if the test process dies.
final class ReportServer {
    /// One request it recorded.
    struct Request: Equatable {
        var method: String
        var path: String
        var contentType: String
        var status: Int
        var taken: Bool
        var body: String
    }

    /// Its port on 127.0.0.1.
    let port: Int
    /// Where its records and mode file are.
    let folder: String
    private var process: Process?

    /// The script.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/content/report_server.py").path

    /// A server (not started) keeping its records in `dir/reports-server`, on a free port.
    init(_ dir: TempDir) throws {
        folder = dir.file("reports-server")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        port = MQTTTools.freePort()
    }

    /// The URL of `path` (`/pop`).
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Starts it, waiting up to 10 s for its port.
    func start(lifetime: Int = 120) throws {
        let python = try IPCTools.python3()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = [String(lifetime), python, "-u", Self.script, "--port", String(port), "--dir", folder]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        guard eventually(10, every: 0.02, { MQTTTools.listening(port) }) else {
            stop()
            throw IPCTools.Missing(description: "the report server did not listen on \(port)")
        }
    }

    /// Ends it (SIGTERM to `timeout`, which passes it on), waiting up to 5 s, so nothing listens on its port.
    func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        if !eventually(5, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        self.process = nil
    }

    /// Sets how it answers from the next request on.
    func answer(_ mode: String) throws {
        try (mode + "\n").write(toFile: folder + "/mode.tmp", atomically: false, encoding: .utf8)
        guard rename(folder + "/mode.tmp", folder + "/mode") == 0 else { throw IPCTools.Missing(description: "rename of the mode file failed") }
    }

    /// The requests it recorded so far.
    func requests() -> [Request] {
        let text = (try? String(contentsOfFile: folder + "/requests.jsonl", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let o = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { return nil }
            return Request(method: o["method"] as? String ?? "", path: o["path"] as? String ?? "", contentType: o["type"] as? String ?? "",
                           status: o["status"] as? Int ?? 0, taken: o["taken"] as? Bool ?? false, body: o["body"] as? String ?? "")
        }
    }

    deinit { stop() }
}
