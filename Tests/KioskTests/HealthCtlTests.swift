import Foundation
import KioskCore
import XCTest

/// The health readings end to end: a real `kiosk play --output headless` with an IPC socket, read by
/// `kiosk ctl health` (a table: each reading with its value, unit and time; headless says it has no display) and as
/// the `kiosk-health` property (JSON). A picture that cannot be decoded counts as a decode failure by the next round.
final class HealthCtlTests: XCTestCase {
    func testCtlHealthShowsTheReadingsOfARunningPlayer() throws {
        let dir = try TempDir()
        let good = dir.file("a.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x36", "-frames:v", "1", good])
        let bad = dir.file("broken.jpg")
        try Data("not a JPEG at all".utf8).write(to: URL(fileURLWithPath: bad))
        let sock = dir.file("ipc.sock"), cache = dir.file("cache"), logFolder = dir.file("log")
        try FileManager.default.createDirectory(atPath: logFolder, withIntermediateDirectories: true)
        let p = try LiveProcess(["play", good, bad, "--output", "headless", "--size", "64x36", "--no-state", "--play-log",
                                 logFolder + "/play.db", "--content-cache", cache, "--input-ipc-server", sock,
                                 "--log-level", "info", "--length", "90", "--transition", "none", "--duration", "1"])
        defer {
            p.send(SIGTERM)
            XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
        }
        XCTAssertTrue(p.waitFor("ipc: listening on \(sock)", timeout: 30), p.stderr)

        var table = CLITests.Run(status: -1, stdout: "", stderr: "", seconds: 0)
        XCTAssertTrue(try eventually(15, every: 0.2) {
            table = try CLITests.run(["ctl", "--socket", sock, "health"], timeout: 30)
            return table.status == 0
        }, table.stderr)
        let out = table.stdout
        for line in ["READING", "OF", "VALUE", "READ AT"] { XCTAssertTrue(out.contains(line), out) }
        XCTAssertTrue(out.contains("version"), out)
        XCTAssertTrue(out.contains(KioskVersion.number), out)
        XCTAssertTrue(out.contains("free-space        cache \(cache)"), out)
        XCTAssertTrue(out.contains("free-space        play-log \(logFolder)"), out)
        XCTAssertTrue(out.contains("memory-process"), out)
        XCTAssertTrue(out.contains("not counted: headless has no page flips"), out)
        XCTAssertTrue(out.contains("DISPLAYS\n  main  headless  none  (no display: the headless output draws into memory)\n"), out)
        let rows = out.split(separator: "\n").filter { $0.hasPrefix("free-space ") || $0.hasPrefix("memory-") || $0.hasPrefix("uptime-") }
        XCTAssertFalse(rows.isEmpty, out)
        for row in rows {
            XCTAssertNotNil(row.range(of: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression), "each reading says when: \(row)")
            XCTAssertNotNil(row.range(of: #" (bytes|[KMGT]iB|s|s \(\d+ h \d+ min\)) "#, options: .regularExpression), "each number its unit: \(row)")
        }

        // the property: JSON, every reading with a unit and a time; the broken picture counted by a later round
        let c = try IPCConnection(path: sock)
        var health: JSONValue?
        XCTAssertTrue(try eventually(25, every: 0.25) {
            health = try c.get("kiosk-health")
            return Self.reading(health, "decode-failures")?["value"] == .int(1)
        }, "\(String(describing: health))")
        guard case .array(let readings)? = health?["readings"] else { return XCTFail("\(String(describing: health))") }
        for r in readings {
            XCTAssertNotNil(r["unit"]?.string, "\(r)")
            XCTAssertNotNil(r["time"]?.string.flatMap(PlayReportQuery.instant), "\(r)")
            XCTAssertNotNil(r["value"], "\(r)")
        }
        XCTAssertEqual(Self.reading(health, "free-space", subject: "cache \(cache)")?["unit"], .string("bytes"))
        XCTAssertEqual(health?["displays"], .array([.object([("screen", .string("main")), ("connector", .string("headless")),
                                                             ("state", .string("none")),
                                                             ("note", .string("no display: the headless output draws into memory")),
                                                             ("time", health?["displays"].flatMap { if case .array(let a) = $0 { return a.first?["time"] } else { return nil } } ?? .null)])]))
        let json = try CLITests.run(["ctl", "--socket", sock, "--json", "health"], timeout: 30)
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertTrue(json.stdout.hasPrefix(#"{"data":{"time":""#), json.stdout)
    }

    func testTheContentSourcesLastGoodCheckAndItsAge() throws {
        let dir = try TempDir()
        let nginx = try NginxServer(dir)
        defer { nginx.stop() }
        try ContentRemoteFixtures.serve(nginx)
        let url = nginx.url("index.smil"), sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", url, "--output", "headless", "--size", "64x36", "--content-cache", dir.file("cache"),
                                 "--no-state", "--no-play-log", "--input-ipc-server", sock, "--log-level", "info",
                                 "--length", "90", "--transition", "none", "--duration", "2"])
        defer {
            p.send(SIGTERM)
            XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
        }
        XCTAssertTrue(p.waitFor("content: \(url) fetched; playing it", timeout: 30), p.stderr)
        let c = try IPCConnection(path: sock)
        var checked: String?
        XCTAssertTrue(try eventually(15, every: 0.1) {
            checked = try c.get("kiosk-content")?["last-check"]?.string
            return checked != nil
        })
        // the fetch may end after the first round: the next (every 10 s) sees it
        var table = ""
        XCTAssertTrue(try eventually(25, every: 0.25) {
            table = try CLITests.run(["ctl", "--socket", sock, "health"], timeout: 30).stdout
            return table.contains("content-last-good")
        }, table)
        XCTAssertNotNil(table.range(of: #"\ncontent-result +main +changed +\d{4}-"#, options: .regularExpression), table)
        XCTAssertNotNil(table.range(of: #"\ncontent-last-good +main +"# + (checked ?? "?") + " ", options: .regularExpression), table)
        let age = try XCTUnwrap(table.split(separator: "\n").first { $0.hasPrefix("content-age") }, table)
        let seconds = try XCTUnwrap(age.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).first.flatMap { Int($0) }, String(age))
        XCTAssertTrue((0...40).contains(seconds), "the check was seconds ago: \(age)")
    }

    func testCtlHealthTakesNoArguments() throws {
        let r = try CLITests.run(["ctl", "--socket", "/nonexistent/sock", "health", "now"], timeout: 30)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("ctl health: usage is 'kiosk ctl health' (got 1 argument)"), r.stderr)
    }

    /// The reading `name` (with `subject`) of a `kiosk-health` value.
    static func reading(_ health: JSONValue?, _ name: String, subject: String? = nil) -> JSONValue? {
        guard case .array(let readings)? = health?["readings"] else { return nil }
        return readings.first { $0["name"] == .string(name) && (subject == nil || $0["subject"] == .string(subject ?? "")) }
    }
}
