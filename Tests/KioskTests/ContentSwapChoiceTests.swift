import Foundation
import KioskCore
import XCTest

/// Who decides what plays while kiosk fetches a URL, end to end against nginx: an index that asks for it
/// (`<meta name="kiosk-swap" content="now">`) is swapped in at once, not at the end of the item on screen; a
/// remote that loads local files stops the fetcher (no index swaps back over its choice, "check now" is refused)
/// until it loads a URL again.
final class ContentSwapChoiceTests: XCTestCase {
    private func kiosk(_ url: String, socket: String, cache: String) throws -> LiveProcess {
        let p = try LiveProcess(["play", url, "--output", "headless", "--size", "64x36", "--content-cache", cache, "--no-state",
                                 "--no-play-log", "--input-ipc-server", socket, "--log-level", "info", "--length", "90",
                                 "--transition", "none"])
        XCTAssertTrue(p.waitFor("ipc: listening on \(socket)", timeout: 30), p.stderr)
        return p
    }

    private func stop(_ p: LiveProcess) {
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }

    func testAnIndexThatAsksIsSwappedInAtOnce() throws {
        let dir = try TempDir()
        let nginx = try NginxServer(dir)
        defer { nginx.stop() }
        try ContentRemoteFixtures.serve(nginx, seconds: 30, refresh: 3)
        let url = nginx.url("index.smil")
        try String(contentsOfFile: nginx.file("index.smil"), encoding: .utf8)
            .replacingOccurrences(of: "</head>", with: "<meta name=\"kiosk-swap\" content=\"now\"/></head>")
            .write(toFile: nginx.file("index.smil"), atomically: true, encoding: .utf8)
        let p = try kiosk(url, socket: dir.file("ipc.sock"), cache: dir.file("cache"))
        defer { stop(p) }
        XCTAssertTrue(p.waitFor("content: \(url) fetched; playing it", timeout: 30), p.stderr)
        let c = try IPCConnection(path: dir.file("ipc.sock"))
        XCTAssertTrue(try eventually(15, every: 0.1) { ContentRemoteFixtures.shows(try c.get("kiosk-regions"), oneOf: ["a.png"]) }, p.stderr)
        try String(contentsOfFile: nginx.file("index.smil"), encoding: .utf8)  // a new index: c.png first
            .replacingOccurrences(of: "src=\"a.png\"", with: "src=\"c.png\"")
            .write(toFile: nginx.file("index.smil"), atomically: true, encoding: .utf8)
        try ContentFixtures.touch(nginx.file("index.smil"), later: 5)
        XCTAssertTrue(p.waitFor("content: \(url) changed; swapped in at once, as the index asks", timeout: 20), p.stderr)
        XCTAssertTrue(try eventually(5, every: 0.05) { ContentRemoteFixtures.shows(try c.get("kiosk-regions"), oneOf: ["c.png"]) },
                      "the new index shows within seconds, long before the 30 s picture on screen ended: \(p.stderr)")
    }

    func testARemotesLocalLoadStopsTheFetcherUntilAURLIsLoadedAgain() throws {
        let dir = try TempDir()
        let nginx = try NginxServer(dir)
        defer { nginx.stop() }
        try ContentRemoteFixtures.serve(nginx, seconds: 2, refresh: 2)
        let url = nginx.url("index.smil")
        let sock = dir.file("ipc.sock")
        let picture = try ColourPictures.make(dir, "local.png", "white")
        let p = try kiosk(url, socket: sock, cache: dir.file("cache"))
        defer { stop(p) }
        XCTAssertTrue(p.waitFor("content: \(url) fetched; playing it", timeout: 30), p.stderr)
        let c = try IPCConnection(path: sock)
        XCTAssertTrue(try eventually(15, every: 0.1) {  // the layout on screen (its file read off the loop first)
            ContentRemoteFixtures.shows(try c.get("kiosk-regions"), oneOf: ContentRemoteFixtures.first)
        }, p.stderr)
        XCTAssertEqual(try c.request(#"["loadfile","\#(picture)"]"#)["error"], .string("success"))
        XCTAssertTrue(p.waitFor("content: a remote loaded local media; checks of \(url) stop until a URL is loaded again", timeout: 10),
                      p.stderr)
        let before = ContentRemoteFixtures.indexRequests(nginx)
        Thread.sleep(forTimeInterval: 5)  // two periods of the index's 2 s
        XCTAssertEqual(ContentRemoteFixtures.indexRequests(nginx), before, "no check after the remote's choice")
        XCTAssertEqual(try c.get("path"), .string(picture), "the remote's file plays on: \(p.stderr)")
        XCTAssertEqual(try c.request(#"["check-content"]"#)["error"], .string("error running command"))
        XCTAssertEqual(try c.get("kiosk-content")?["url"], .null)

        XCTAssertEqual(try c.request(#"["loadfile","\#(url)"]"#)["error"], .string("success"))
        XCTAssertTrue(p.waitFor("content: \(url) fetched; playing it", count: 2, timeout: 30), p.stderr)
        XCTAssertTrue(try eventually(15, every: 0.1) {
            ContentRemoteFixtures.shows(try c.get("kiosk-regions"), oneOf: ContentRemoteFixtures.first)
        }, p.stderr)
    }
}
