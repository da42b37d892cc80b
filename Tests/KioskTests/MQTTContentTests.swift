import Foundation
import KioskCore
import XCTest

/// The content fetcher over MQTT, with a real mosquitto broker and nginx: the retained state's `content` names the
/// URL, the last check and its result, the cache's use; `cmd/check-content` makes a check at once (one more index
/// request in nginx's log); `cmd/load` with another URL plays that content (no `--media-root` needed: a URL is no
/// path); a `file://` URL and garbage are refused with one line each.
final class MQTTContentTests: MQTTFleetTestCase {
    func testTheStateCheckNowAndLoadingAnotherURL() throws {
        let nginx = try NginxServer(dir)
        defer { nginx.stop() }
        try ContentRemoteFixtures.serve(nginx)
        let url = nginx.url("index.smil"), other = nginx.url("other.smil")
        let p = try start("signage", [url], extra: ["--content-cache", dir.file("cache"), "--no-state"])
        let fetched = try state("signage", seconds: 30) { s in
            s["content"]?["url"] == .string(url) && s["content"]?["result"] == .string("changed") && s["content"]?["media"] == .int(2)
        }
        XCTAssertNotNil(fetched, p.stderr)
        let content = fetched?["content"]
        XCTAssertGreaterThan(content?["cache_bytes"]?.number ?? 0, 0, "\(String(describing: content))")
        XCTAssertEqual(content?["cache_budget"], .null)
        XCTAssertEqual(content?["signed"], .bool(false))
        XCTAssertNotNil(content?["last_check"]?.string.flatMap(PlayReportQuery.instant), "\(String(describing: content))")
        XCTAssertNotNil(content?["fetched"]?.string.flatMap(PlayReportQuery.instant), "\(String(describing: content))")

        let before = ContentRemoteFixtures.indexRequests(nginx)
        try clients.publish("kiosk/signage/cmd/check-content", "")
        XCTAssertTrue(eventually(10, every: 0.05) { ContentRemoteFixtures.indexRequests(nginx) == before + 1 },
                      nginx.requests().joined(separator: "\n"))
        XCTAssertNotNil(try state("signage") { $0["content"]?["result"] == .string("unchanged") }, p.stderr)

        for bad in ["file:///etc/passwd", "https://"] { try clients.publish("kiosk/signage/cmd/load", bad) }
        XCTAssertTrue(p.waitFor("mqtt: kiosk/signage/cmd/load: refused: 'https://' is not an http or https URL kiosk can fetch",
                                timeout: 10), p.stderr)
        XCTAssertTrue(p.waitFor("mqtt: kiosk/signage/cmd/load: refused: load needs --media-root", timeout: 10), p.stderr)

        try clients.publish("kiosk/signage/cmd/load", other)
        XCTAssertNotNil(try state("signage", seconds: 30) { s in
            s["content"]?["url"] == .string(other) && ContentRemoteFixtures.shows(s["regions"], oneOf: ContentRemoteFixtures.second)
        }, p.stderr)
        XCTAssertEqual(ContentRemoteFixtures.indexRequests(nginx, "other.smil"), 1, nginx.requests().joined(separator: "\n"))
        let refusals = p.stderr.split(separator: "\n").filter { $0.contains("cmd/load: refused") }
        XCTAssertEqual(refusals.count, 2, refusals.joined(separator: "\n"))
        stop(p)
    }
}
