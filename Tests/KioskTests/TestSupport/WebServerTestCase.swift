import Foundation
import KioskCore
import XCTest

/// What the web server's tests share: a password file made by `kiosk passwd`, a token file, a media folder with a
/// picture, kiosk playing it with `--http` on a free loopback port (bounded in time, killed in tearDown), and curl
/// (a client no one here wrote) with a cookie jar.
class WebServerTestCase: XCTestCase {
    var dir: TempDir!
    var port = 0
    var kiosk: LiveProcess?
    let password = "correct horse battery"
    let token = "kiosk-test-token-0123456789"
    var media: String { dir.file("media") }
    /// The guards' script (Python's own sockets and HTTP client): Fixtures/web/web-guards.py.
    static let guards = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/web/web-guards.py").path
    var base: String { "http://127.0.0.1:\(port)" }

    override func setUpWithError() throws {
        setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1)
        dir = try TempDir()
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        _ = try ColourPictures.make(dir, "media/a.png", "red")
        let made = try BoundedProcess.run("/bin/sh", ["-c", "printf '%s\\n' \"$1\" | \"$2\" passwd \"$3\"", "sh", password, CLITests.kiosk,
                                                      dir.file("password")], timeout: 30)
        XCTAssertEqual(made.status, 0, String(decoding: made.stderr, as: UTF8.self))
        try (token + "\n").write(toFile: dir.file("token"), atomically: true, encoding: .utf8)
    }

    override func tearDown() {
        if let k = kiosk, k.isRunning {
            k.send(SIGKILL)
            _ = k.finish(timeout: 10)
        }
    }

    /// Starts kiosk on the media folder (or on `play`) with the page on a free port, and waits until it serves.
    /// `password`: with the password file (without it, loopback only).
    @discardableResult
    func start(_ extra: [String] = [], password: Bool = true, play: String? = nil) throws -> LiveProcess {
        port = MQTTTools.freePort()
        let login = password ? ["--http-password-file", dir.file("password")] : []
        let p = try LiveProcess(["play", "--output", "headless", "--size", "320x180", "--no-state", "--duration", "1", "--transition", "none",
                                 "--http", "127.0.0.1:\(port)"] + login + ["--http-token-file", dir.file("token"),
                                 "--media-root", media, "--settle", "0.5", "--log-level", "info"] + extra + [play ?? media])
        kiosk = p
        XCTAssertTrue(p.waitFor("http: serving the web page on", timeout: 30), p.stderr)
        XCTAssertTrue(p.waitFor("first frame presented", timeout: 30), p.stderr)
        return p
    }

    /// curl with the test's cookie jar: (HTTP status, headers, body).
    func curl(_ args: [String], timeout: Double = 30) throws -> (status: Int, headers: String, body: String) {
        let head = dir.file("head-\(UUID().uuidString)")
        let r = try BoundedProcess.run("/usr/bin/curl", ["-s", "-S", "-b", dir.file("cookies"), "-c", dir.file("cookies"), "-D", head,
                                                        "-o", "-", "-w", "\n%{http_code}"] + args, timeout: timeout)
        let out = String(decoding: r.stdout, as: UTF8.self)
        let status = Int(out.split(separator: "\n").last ?? "") ?? -1
        let body = out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().joined(separator: "\n")
        let headers = (try? String(contentsOfFile: head, encoding: .utf8)) ?? ""
        unlink(head)
        return (status, headers, body)
    }

    /// Logs in through the form and returns the session's CSRF token.
    func logIn() throws -> String {
        XCTAssertEqual(try curl(["--data-urlencode", "password=\(password)", base + "/login"]).status, 303)
        let session = try curl([base + "/api/session"])
        return try XCTUnwrap(try JSONValue.parse(Array(session.body.utf8))["csrf"]?.string, session.body)
    }

    /// Runs `web-probe.py` with `arguments` (bounded by `timeout`) and parses the JSON line it prints.
    func probe(_ arguments: [String], timeout: Double = 60) throws -> JSONValue {
        let r = try BoundedProcess.run("/usr/bin/python3", [Self.webProbe] + arguments, timeout: timeout)
        return try JSONValue.parse([UInt8](r.stdout))
    }

    /// The hostile clients' script: Fixtures/web/web-probe.py.
    static let webProbe = URL(fileURLWithPath: guards).deletingLastPathComponent().appendingPathComponent("web-probe.py").path

    /// The process's resident memory (VmRSS) in MiB.
    func rss(_ p: LiveProcess) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(p.pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? -1024) / 1024
    }
}
