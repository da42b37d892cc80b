import Foundation
import KioskCore
import XCTest

/// The content fetcher over mpv's IPC and `kiosk ctl`, end to end: a real `kiosk play URL` against nginx. The
/// `kiosk-content` property names the URL, the last check and its result, the cache's use; `check-content` makes a
/// check at once (one more index request in nginx's log); `loadfile` of another URL plays that content, and a
/// kiosk playing local files fetches nothing (no cache folder made) until a remote loads a URL. Bad URLs are one
/// line each.
final class ContentIPCTests: XCTestCase {
    private func kiosk(_ path: String, socket: String, cache: String) throws -> LiveProcess {
        let p = try LiveProcess(["play", path, "--output", "headless", "--size", "64x36", "--content-cache", cache, "--no-state",
                                 "--no-play-log", "--input-ipc-server", socket, "--log-level", "info", "--length", "90",
                                 "--transition", "none", "--duration", "2"])
        XCTAssertTrue(p.waitFor("ipc: listening on \(socket)", timeout: 30), p.stderr)
        return p
    }

    private func stop(_ p: LiveProcess) {
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }

    /// `kiosk ctl --socket SOCKET words…`.
    private func ctl(_ socket: String, _ words: [String]) throws -> CLITests.Run {
        try CLITests.run(["ctl", "--socket", socket] + words, timeout: 30)
    }

    func testTheStatusCheckNowAndAnotherURLOverIPCAndCtl() throws {
        let dir = try TempDir()
        let nginx = try NginxServer(dir)
        defer { nginx.stop() }
        try ContentRemoteFixtures.serve(nginx)
        let url = nginx.url("index.smil"), other = nginx.url("other.smil")
        let sock = dir.file("ipc.sock")
        let p = try kiosk(url, socket: sock, cache: dir.file("cache"))
        defer { stop(p) }
        XCTAssertTrue(p.waitFor("content: \(url) fetched; playing it", timeout: 30), p.stderr)
        let c = try IPCConnection(path: sock)

        var content: JSONValue?
        XCTAssertTrue(try eventually(15, every: 0.1) {
            content = try c.get("kiosk-content")
            return content?["result"] == .string("changed") && content?["media"] == .int(2)
        }, "\(String(describing: content))")
        XCTAssertEqual(content?["url"], .string(url))
        XCTAssertEqual(content?["signed"], .bool(false))
        XCTAssertEqual(content?["problem"], .null)
        XCTAssertEqual(content?["cache-budget"], .null)
        XCTAssertGreaterThan(content?["cache-bytes"]?.number ?? 0, 0, "the cache holds the index and two pictures")
        let checked = try XCTUnwrap(content?["last-check"]?.string, "\(String(describing: content))")
        XCTAssertNotNil(PlayReportQuery.instant(checked), "the last check is an ISO 8601 time: \(checked)")
        XCTAssertNotNil(content?["fetched"]?.string.flatMap(PlayReportQuery.instant), "\(String(describing: content))")

        // check now: one more index request (a 304: unchanged) right after, not at the end of the hour's period
        let before = ContentRemoteFixtures.indexRequests(nginx)
        let asked = try c.request(#"["check-content"]"#)
        XCTAssertEqual(asked["error"], .string("success"), asked.text)
        XCTAssertEqual(asked["data"], .string("checking \(url)"))
        XCTAssertTrue(eventually(10, every: 0.05) { ContentRemoteFixtures.indexRequests(nginx) == before + 1 }, nginx.requests().joined(separator: "\n"))
        XCTAssertTrue(nginx.requests().last?.hasPrefix("GET /index.smil 304") ?? false, nginx.requests().joined(separator: "\n"))
        XCTAssertTrue(try eventually(10, every: 0.1) { try c.get("kiosk-content")?["result"] == .string("unchanged") })

        // kiosk ctl: the status as lines, and check now again
        let shown = try ctl(sock, ["content"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("url      \(url)\n"), shown.stdout)
        XCTAssertTrue(shown.stdout.range(of: #"checked  \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ unchanged\n"#, options: .regularExpression) != nil, shown.stdout)
        XCTAssertTrue(shown.stdout.contains(", 2 media\n"), shown.stdout)
        XCTAssertTrue(shown.stdout.range(of: #"cache    \d+\.\d MiB\n"#, options: .regularExpression) != nil, shown.stdout)
        let again = try ctl(sock, ["check-content"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, "checking \(url)\n")
        XCTAssertTrue(eventually(10, every: 0.05) { ContentRemoteFixtures.indexRequests(nginx) == before + 2 }, nginx.requests().joined(separator: "\n"))

        // bad loads: one line each, nothing fetched
        XCTAssertEqual(try c.request(#"["loadfile","http://"]"#)["error"], .string("loading failed"))
        XCTAssertTrue(p.waitFor("ipc: loadfile http://: refused: not an http or https URL kiosk can fetch", timeout: 10), p.stderr)
        XCTAssertEqual(try c.request(#"["loadfile","\#(other)","append"]"#)["error"], .string("invalid parameter"))
        XCTAssertTrue(p.waitFor("refused: a URL replaces what plays", timeout: 10), p.stderr)
        let appended = try ctl(sock, ["load", other, "append"])
        XCTAssertEqual(appended.status, 2, appended.stderr)
        XCTAssertEqual(appended.stderr.split(separator: "\n").count, 1, appended.stderr)
        XCTAssertEqual(ContentRemoteFixtures.indexRequests(nginx, "other.smil"), 0)

        // another URL: its content swaps in at the end of the picture on screen
        let loaded = try c.request(#"["loadfile","\#(other)"]"#)
        XCTAssertEqual(loaded["error"], .string("success"), loaded.text)
        XCTAssertTrue(p.waitFor("content: switching to \(other)", timeout: 10), p.stderr)
        XCTAssertTrue(p.waitFor("content: \(other) changed; the new content plays from the end of the item on screen", timeout: 30), p.stderr)
        XCTAssertTrue(try eventually(30, every: 0.1) {
            ContentRemoteFixtures.shows(try c.get("kiosk-regions"), oneOf: ContentRemoteFixtures.second)
        }, p.stderr)
        XCTAssertEqual(try c.get("kiosk-content")?["url"], .string(other))
        XCTAssertEqual(p.stderr.components(separatedBy: "refused").count - 1, 2, "one line per bad load: \(p.stderr)")
    }

    func testAKioskPlayingFilesFetchesNothingUntilARemoteLoadsAURL() throws {
        let dir = try TempDir()
        let nginx = try NginxServer(dir)
        defer { nginx.stop() }
        try ContentRemoteFixtures.serve(nginx)
        let url = nginx.url("index.smil")
        let picture = try ColourPictures.make(dir, "local.png", "white")
        let sock = dir.file("ipc.sock"), cache = dir.file("cache")
        let p = try kiosk(picture, socket: sock, cache: cache)
        defer { stop(p) }
        let c = try IPCConnection(path: sock)
        XCTAssertTrue(eventually(10, every: 0.1) { (try? c.get("path")) == .string(picture) }, p.stderr)

        let content = try c.get("kiosk-content")  // posted with the first frame
        XCTAssertEqual(content?["url"], .null, "\(String(describing: content))")
        XCTAssertEqual(content?["result"], .string("none"))
        XCTAssertEqual(content?["last-check"], .null)
        let shown = try ctl(sock, ["content"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.hasPrefix("url      none: kiosk plays local files"), shown.stdout)
        XCTAssertEqual(try c.request(#"["check-content"]"#)["error"], .string("error running command"))
        XCTAssertTrue(p.waitFor("ipc: check-content: refused: kiosk is not playing content from a server", timeout: 10), p.stderr)
        let refused = try ctl(sock, ["check-content"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("kiosk is not playing content from a server"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache), "a link waiting for a URL makes no cache folder")

        let loaded = try ctl(sock, ["load", url])
        XCTAssertEqual(loaded.status, 0, loaded.stderr)
        XCTAssertTrue(p.waitFor("content: \(url) fetched; playing it", timeout: 30), p.stderr)
        XCTAssertTrue(try eventually(30, every: 0.1) {
            ContentRemoteFixtures.shows(try c.get("kiosk-regions"), oneOf: ContentRemoteFixtures.first)
        }, p.stderr)
        var content2: JSONValue?
        XCTAssertTrue(try eventually(10, every: 0.1) {
            content2 = try c.get("kiosk-content")
            return content2?["result"] == .string("changed")
        }, "\(String(describing: content2))")
        XCTAssertEqual(content2?["url"], .string(url))
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache + "/" + "state.json"), "the cache was made for the URL")
    }
}
