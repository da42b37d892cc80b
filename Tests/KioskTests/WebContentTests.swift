import Foundation
import KioskCore
import XCTest

/// The content fetcher on the web page, through the real HTTP server and nginx: `GET /api/status` carries `content`
/// (the URL, the last check and its result, the cache's use), the dashboard offers "Check now" (the IPC command
/// `check-content` through `/api/command`), which makes a check at once (one more index request in nginx's log),
/// and `/api/command`'s `loadfile` of another URL plays that content.
final class WebContentTests: WebServerTestCase {
    private func status() throws -> JSONValue {
        let r = try curl(["-H", "Authorization: Bearer \(token)", base + "/api/status"])
        XCTAssertEqual(r.status, 200, r.body)
        return try JSONValue.parse(Array(r.body.utf8))
    }

    private func command(_ json: String) throws -> (status: Int, reply: JSONValue?) {
        let r = try curl(["-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json", "-d", json, base + "/api/command"])
        return (r.status, try? JSONValue.parse(Array(r.body.utf8)))
    }

    func testTheStatusCheckNowAndAnotherURL() throws {
        let nginx = try NginxServer(dir)
        defer { nginx.stop() }
        try ContentRemoteFixtures.serve(nginx)
        let url = nginx.url("index.smil"), other = nginx.url("other.smil")
        let p = try start(["--content-cache", dir.file("cache")], play: url)
        XCTAssertTrue(p.waitFor("content: \(url) fetched; playing it", timeout: 30), p.stderr)
        var content: JSONValue?
        XCTAssertTrue(try eventually(15, every: 0.2) {
            content = try status()["content"]
            return content?["result"] == .string("changed") && content?["media"] == .int(2)
        }, "\(String(describing: content))")
        XCTAssertEqual(content?["url"], .string(url))
        XCTAssertGreaterThan(content?["cache_bytes"]?.number ?? 0, 0)
        XCTAssertNotNil(content?["last_check"]?.string.flatMap(PlayReportQuery.instant), "\(String(describing: content))")

        _ = try logIn()
        let page = try curl([base + "/"])
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.contains(#"<button id="check-content" data-command='["check-content"]'>Check now</button>"#), page.body)
        let script = try curl([base + "/app.js"])
        XCTAssertTrue(script.body.contains("content(s.content)"), "the dashboard shows the status's content")

        let before = ContentRemoteFixtures.indexRequests(nginx)
        let checked = try command(#"["check-content"]"#)
        XCTAssertEqual(checked.status, 200)
        XCTAssertEqual(checked.reply?["data"], .string("checking \(url)"))
        XCTAssertTrue(eventually(10, every: 0.05) { ContentRemoteFixtures.indexRequests(nginx) == before + 1 },
                      nginx.requests().joined(separator: "\n"))
        XCTAssertTrue(try eventually(10, every: 0.2) { try status()["content"]?["result"] == .string("unchanged") })

        let bad = try command(#"["loadfile","https://"]"#)
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(bad.reply?["error"], .string("loading failed"))
        XCTAssertEqual(try command(#"["loadfile","\#(other)"]"#).status, 200)
        XCTAssertTrue(try eventually(30, every: 0.2) {
            let s = try status()
            return s["content"]?["url"] == .string(other) && ContentRemoteFixtures.shows(s["regions"], oneOf: ContentRemoteFixtures.second)
        }, p.stderr)
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }
}
