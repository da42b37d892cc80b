import Foundation
import KioskCore
import XCTest

/// `kiosk play URL` against nginx from Debian: the index and its media fetched, then played from the cache (the play
/// log names the cache's files, each byte for byte what nginx serves); the cache plays on with the server gone; with
/// neither, the idle picture and backoff until the server comes back; a changed medium swapped in only at the end of
/// the showing on screen (no showing cut short), noticed through the index's `contentRefresh`.
final class ContentPlayTests: XCTestCase {
    /// A served SMIL index of two pictures of `seconds` each, refreshed every `refresh` seconds.
    private func layout(_ www: String, seconds: Int = 2, refresh: Int = 5) throws {
        try Self.picture(www + "/a.png", "red")
        try Self.picture(www + "/b.png", "blue")
        let smil = """
        <smil><head><meta http-equiv="Refresh" content="\(refresh)" contentRefresh="5"/>
        <layout><root-layout width="640" height="360"/><region regionName="main" width="640" height="360"/></layout></head>
        <body><seq repeatCount="indefinite"><img src="a.png" dur="\(seconds)s" region="main"/><img src="b.png?v=1" dur="\(seconds)s" region="main"/></seq></body></smil>
        """
        try smil.write(toFile: www + "/index.smil", atomically: true, encoding: .utf8)
    }

    /// A 64x48 picture of one colour, made by ffmpeg at `path`.
    private static func picture(_ path: String, _ colour: String) throws {
        try FFmpegCLI.ffmpeg(["-y", "-f", "lavfi", "-i", "color=\(colour):s=64x48", "-frames:v", "1", path])
    }

    private func play(_ url: String, cache: String, db: String, length: Double) throws -> LiveProcess {
        try LiveProcess(["play", url, "--output", "headless", "--size", "64x36", "--content-cache", cache, "--no-state",
                         "--play-log", db, "--log-level", "info", "--length", String(length), "--transition", "none"])
    }

    /// Rows of the play log: path and duration.
    private func showings(_ db: String) throws -> [(path: String, seconds: Double)] {
        try PlayLogTests.sqlite3(db, "SELECT path, duration FROM showings ORDER BY start_utc").map { row in
            let f = row.split(separator: "|").map(String.init)
            return (f.first ?? "", Double(f.last ?? "") ?? -1)
        }
    }

    func testAURLIsFetchedPlayedFromTheCacheAndPlaysOnWithoutTheServer() throws {
        let dir = try TempDir()
        let nginx = try NginxServer(dir)
        defer { nginx.stop() }
        try layout(nginx.root)
        let cache = dir.file("cache"), db = dir.file("plays.sqlite")
        let p = try play(nginx.url("index.smil"), cache: cache, db: db, length: 5)
        XCTAssertTrue(p.waitFor("content: \(nginx.url("index.smil")) fetched; playing it", timeout: 30), p.stderr)
        XCTAssertEqual(p.finish(timeout: 30).status, 0, p.stderr)
        let first = try showings(db)
        XCTAssertGreaterThanOrEqual(first.count, 2, "\(first)")
        for s in first {
            XCTAssertTrue(s.path.hasPrefix(cache + "/"), "played from the cache: \(s.path)")
            let served = s.path.hasSuffix(".png") && ContentFixtures.bytes(s.path) == ContentFixtures.bytes(nginx.file("a.png"))
                || ContentFixtures.bytes(s.path) == ContentFixtures.bytes(nginx.file("b.png"))
            XCTAssertTrue(served, "\(s.path) is byte for byte one of nginx's files")
        }
        XCTAssertEqual(Set(first.map(\.path)).count, 2, "both pictures showed: \(first)")

        nginx.stop()
        let again = try play(nginx.url("index.smil"), cache: cache, db: db, length: 4)
        XCTAssertTrue(again.waitFor("content: playing \(nginx.url("index.smil")) from the cache", timeout: 30), again.stderr)
        XCTAssertTrue(again.waitFor("not updated: ", timeout: 30), again.stderr)
        XCTAssertEqual(again.finish(timeout: 30).status, 0, again.stderr)
        XCTAssertEqual(again.stderr.components(separatedBy: "not updated: ").count - 1, 1, "one line for the unreachable server: \(again.stderr)")
        XCTAssertGreaterThan(try showings(db).count, first.count, "the cached layout played with the server gone")
    }

    func testWithNothingCachedAndNoServerTheIdlePictureShowsUntilTheServerComesBack() throws {
        let dir = try TempDir()
        let www = dir.file("www")
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        try layout(www)
        let port = MQTTTools.freePort()
        let url = "http://127.0.0.1:\(port)/index.smil"
        let db = dir.file("plays.sqlite")
        let p = try play(url, cache: dir.file("cache"), db: db, length: 40)
        XCTAssertTrue(p.waitFor("content: nothing to play from \(url) yet: ", timeout: 30), p.stderr)
        XCTAssertTrue(p.stderr.contains("showing the idle picture, trying again with backoff"), p.stderr)
        Thread.sleep(forTimeInterval: 3)  // a retry or two, said once
        XCTAssertEqual(p.stderr.components(separatedBy: "nothing to play from").count - 1, 1, p.stderr)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        server.arguments = ["60", "python3", "-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", www]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        XCTAssertTrue(p.waitFor("content: \(url) fetched; playing it", timeout: 30), p.stderr)
        XCTAssertTrue(p.waitFor("layout: \(url): 1 regions", timeout: 10), p.stderr)
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
        XCTAssertFalse(try showings(db).isEmpty, "the layout played once the server came back")
    }

    func testAChangedMediumIsSwappedInAtTheEndOfTheShowingOnScreen() throws {
        let dir = try TempDir()
        let nginx = try NginxServer(dir)
        defer { nginx.stop() }
        try layout(nginx.root, seconds: 2, refresh: 5)
        let cache = dir.file("cache"), db = dir.file("plays.sqlite")
        let p = try play(nginx.url("index.smil"), cache: cache, db: db, length: 60)
        XCTAssertTrue(p.waitFor("fetched; playing it", timeout: 30), p.stderr)
        try Self.picture(nginx.file("b.png"), "green")
        try ContentFixtures.touch(nginx.file("b.png"), later: 5)
        XCTAssertTrue(p.waitFor("changed; the new content plays from the end of the item on screen", timeout: 30), p.stderr)
        XCTAssertTrue(p.waitFor("content: swapped in at the end of the item on screen", timeout: 10), p.stderr)
        Thread.sleep(forTimeInterval: 2.5)
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
        let rows = try showings(db)
        let green = ContentFixtures.bytes(nginx.file("b.png"))
        let firstNew = try XCTUnwrap(rows.firstIndex { ContentFixtures.bytes($0.path) == green }, "the new picture showed: \(rows)")
        XCTAssertGreaterThan(firstNew, 0)
        for (i, row) in rows.enumerated() where i < rows.count - 1 {
            XCTAssertEqual(row.seconds, 2, accuracy: 0.35, "showing \(i) of \(rows) was not cut short by the swap")
        }
        let oldB = try XCTUnwrap(rows.first { $0.path.hasSuffix(".png") && ContentFixtures.bytes($0.path) != green
                                                && ContentFixtures.bytes($0.path) != ContentFixtures.bytes(nginx.file("a.png")) })
        XCTAssertTrue(FileManager.default.fileExists(atPath: oldB.path), "the file shown before the change was not replaced in place")
        XCTAssertNotEqual(oldB.path, rows[firstNew].path, "the changed medium is a new cache file")
    }
}
