import Foundation
import KioskCore
import KioskFetch
import XCTest

/// A URL on every screen (issue 40), end to end against nginx from Debian: two headless screens of one `kiosk play`,
/// each with its own SMIL index (different pictures) from the same server. Each screen shows its own index's media
/// from its own cache folder (the first screen's `--content-cache DIR`, screen b's `DIR/screens/b`); a check asked of
/// screen b (its IPC socket, `kiosk ctl --screen b`) brings b's changed index, which b swaps in while a neither
/// checks nor changes; with the server gone both play on from their caches, one line each, in that run and in the
/// next. Two screens on one cache folder, and a screen's bad URL, are one line each.
final class ContentScreensTests: XCTestCase {
    /// Serves `a.smil` (a red picture) and `b.smil` (a blue one), each shown 1 s at a time and checked hourly (so
    /// only a remote's "check now" checks again), and `c.png` (green), which b's index names later.
    private func serve(_ nginx: NginxServer) throws {
        for (name, colour) in [("a", "red"), ("b", "blue"), ("c", "green")] {
            try FFmpegCLI.ffmpeg(["-y", "-f", "lavfi", "-i", "color=\(colour):s=64x48", "-frames:v", "1", nginx.file("\(name).png")])
        }
        try index(nginx, "a.smil", picture: "a.png")
        try index(nginx, "b.smil", picture: "b.png")
    }

    /// Writes the index `name` showing `picture` in one region, 1 s a showing.
    private func index(_ nginx: NginxServer, _ name: String, picture: String) throws {
        let smil = """
        <smil><head><meta http-equiv="Refresh" content="3600"/>
        <layout><root-layout width="640" height="360"/><region regionName="main" width="640" height="360"/></layout></head>
        <body><seq repeatCount="indefinite"><img src="\(picture)" dur="1s" region="main"/></seq></body></smil>
        """
        try ContentFixtures.write(smil, to: nginx.file(name))
    }

    private func play(_ a: String, _ b: String, cache: String, db: String, socket: String, length: Double) throws -> LiveProcess {
        try LiveProcess(["play", "--screen", "a:HDMI-A-1:\(a)", "--screen", "b:HDMI-A-2:\(b)", "--output", "headless", "--size", "64x36",
                         "--content-cache", cache, "--no-state", "--play-log", db, "--play-log-batch", "0", "--input-ipc-server", socket,
                         "--log-level", "info", "--length", String(length), "--transition", "none"])  // the log is read as it plays
    }

    /// The play log's showings of `screen`, by start: each one's path.
    private func showings(_ db: String, screen: String) throws -> [String] {
        try PlayLogTests.sqlite3(db, "SELECT path FROM showings WHERE screen = '\(screen)' ORDER BY start_utc, id")
    }

    /// How many times nginx was asked for `name`.
    private func requests(_ nginx: NginxServer, _ name: String) -> Int {
        nginx.requests().filter { $0.hasPrefix("GET /\(name) ") }.count
    }

    /// How many lines of `log` say that `screen`'s index was not updated.
    private func notUpdated(_ log: String, screen: String) -> Int {
        log.split(separator: "\n").filter { $0.contains("screen \(screen): content: ") && $0.contains(" not updated: ") }.count
    }

    /// `kiosk ctl --socket SOCKET [--screen NAME] words…`.
    private func ctl(_ socket: String, screen: String?, _ words: [String]) throws -> CLITests.Run {
        try CLITests.run(["ctl", "--socket", socket] + (screen.map { ["--screen", $0] } ?? []) + words, timeout: 30)
    }

    func testEachScreenPlaysItsOwnURLFromItsOwnCacheSwapsAloneAndPlaysOnWithoutTheServer() throws {
        let dir = try TempDir()
        let nginx = try NginxServer(dir)
        defer { nginx.stop() }
        try serve(nginx)
        let a = nginx.url("a.smil"), b = nginx.url("b.smil")
        let red = ContentFixtures.bytes(nginx.file("a.png")), blue = ContentFixtures.bytes(nginx.file("b.png"))
        let green = ContentFixtures.bytes(nginx.file("c.png"))
        let cache = dir.file("cache"), bCache = cache + "/screens/b", db = dir.file("plays.sqlite"), sock = dir.file("ipc.sock")
        let p = try play(a, b, cache: cache, db: db, socket: sock, length: 90)
        XCTAssertTrue(p.waitFor("screen a: content: \(a) fetched; playing it", timeout: 30), p.stderr)
        XCTAssertTrue(p.waitFor("screen b: content: \(b) fetched; playing it", timeout: 30), p.stderr)
        XCTAssertTrue(try eventually(15, every: 0.2) { try showings(db, screen: "a").count >= 2 && showings(db, screen: "b").count >= 2 },
                      p.stderr)

        // each cache folder holds its own screen's index and media, and only those
        XCTAssertEqual(try ContentCache(directory: cache).current?.url, a)
        XCTAssertEqual(try ContentCache(directory: bCache).current?.url, b)
        let aFiles = ContentFixtures.cachedNames(cache).map { ContentFixtures.bytes(cache + "/files/" + $0) }
        let bFiles = ContentFixtures.cachedNames(bCache).map { ContentFixtures.bytes(bCache + "/files/" + $0) }
        XCTAssertTrue(aFiles.contains(red) && !aFiles.contains(blue), "screen a's cache: \(ContentFixtures.cachedNames(cache))")
        XCTAssertTrue(bFiles.contains(blue) && !bFiles.contains(red), "screen b's cache: \(ContentFixtures.cachedNames(bCache))")

        // each screen's status on its own socket names its own URL
        let aStatus = try ctl(sock, screen: nil, ["content"]), bStatus = try ctl(sock, screen: "b", ["content"])
        XCTAssertTrue(aStatus.stdout.contains("url      \(a)\n"), aStatus.stdout + aStatus.stderr)
        XCTAssertTrue(bStatus.stdout.contains("url      \(b)\n"), bStatus.stdout + bStatus.stderr)

        // b's index changes on the server; a check asked of screen b brings it to b alone
        let aAsked = requests(nginx, "a.smil")
        try index(nginx, "b.smil", picture: "c.png")
        try ContentFixtures.touch(nginx.file("b.smil"), later: 5)
        let checked = try ctl(sock, screen: "b", ["check-content"])
        XCTAssertEqual(checked.status, 0, checked.stderr)
        XCTAssertEqual(checked.stdout, "checking \(b)\n")
        XCTAssertTrue(p.waitFor("screen b: content: \(b) changed; the new content plays from the end of the item on screen", timeout: 30), p.stderr)
        XCTAssertTrue(p.waitFor("screen b: content: swapped in at the end of the item on screen", timeout: 15), p.stderr)
        XCTAssertTrue(try eventually(10, every: 0.2) { try showings(db, screen: "b").contains { ContentFixtures.bytes($0) == green } }, p.stderr)
        XCTAssertEqual(requests(nginx, "a.smil"), aAsked, "screen a did not check: \(nginx.requests())")
        XCTAssertFalse(p.stderr.contains("screen a: content: \(a) changed"), p.stderr)

        // the server goes: a check of each screen fails, one line each, and both play on from their caches
        nginx.stop()
        let before = (a: try showings(db, screen: "a").count, b: try showings(db, screen: "b").count)
        XCTAssertEqual(try ctl(sock, screen: nil, ["check-content"]).status, 0)
        XCTAssertEqual(try ctl(sock, screen: "b", ["check-content"]).status, 0)
        XCTAssertTrue(p.waitFor("screen a: content: \(a) not updated: ", timeout: 30), p.stderr)
        XCTAssertTrue(p.waitFor("screen b: content: \(b) not updated: ", timeout: 30), p.stderr)
        XCTAssertTrue(try eventually(15, every: 0.2) {
            try showings(db, screen: "a").count >= before.a + 2 && showings(db, screen: "b").count >= before.b + 2
        }, "both screens play on: \(p.stderr)")
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
        for screen in ["a", "b"] {
            XCTAssertEqual(notUpdated(p.stderr, screen: screen), 1, "one line for screen \(screen)'s unreachable server: \(p.stderr)")
        }

        // every showing came from its own screen's cache: a's red picture only, b's blue then green
        let aShown = try showings(db, screen: "a"), bShown = try showings(db, screen: "b")
        for path in aShown {
            XCTAssertTrue(path.hasPrefix(cache + "/files/"), "screen a played from its cache: \(path)")
            XCTAssertEqual(ContentFixtures.bytes(path), red, "screen a showed its own index's picture: \(path)")
        }
        for path in bShown { XCTAssertTrue(path.hasPrefix(bCache + "/files/"), "screen b played from its cache: \(path)") }
        XCTAssertEqual(bShown.first.map(ContentFixtures.bytes), blue)
        XCTAssertEqual(bShown.last.map(ContentFixtures.bytes), green, "b swapped to its new index")
        XCTAssertEqual(Set(bShown.map(ContentFixtures.bytes)), [blue, green])

        // a restart with the server still gone: each screen plays its last good index from its own cache at once
        let again = try play(a, b, cache: cache, db: db, socket: dir.file("ipc2.sock"), length: 5)
        XCTAssertTrue(again.waitFor("screen a: content: playing \(a) from the cache", timeout: 30), again.stderr)
        XCTAssertTrue(again.waitFor("screen b: content: playing \(b) from the cache", timeout: 30), again.stderr)
        XCTAssertEqual(again.finish(timeout: 30).status, 0, again.stderr)
        for screen in ["a", "b"] {
            XCTAssertEqual(notUpdated(again.stderr, screen: screen), 1, "one line for screen \(screen): \(again.stderr)")
        }
        let aLater = try showings(db, screen: "a").dropFirst(aShown.count), bLater = try showings(db, screen: "b").dropFirst(bShown.count)
        XCTAssertFalse(aLater.isEmpty || bLater.isEmpty, "both played after the restart: \(again.stderr)")
        XCTAssertTrue(aLater.allSatisfy { ContentFixtures.bytes($0) == red }, "\(aLater)")
        XCTAssertTrue(bLater.allSatisfy { ContentFixtures.bytes($0) == green }, "b's last good index: \(bLater)")
    }

    /// Two screens on one cache folder (each section naming it), a screen's URL given with other paths, one kiosk
    /// cannot fetch, and a section's unreadable CA: one line each, exit 2, nothing played.
    func testTwoScreensOnOneCacheFolderAndBadScreenURLsAreOneLineEach() throws {
        let dir = try TempDir()
        let picture = try ColourPictures.make(dir, "a.png", "red")
        let url = "http://127.0.0.1:9/b.smil", shared = dir.file("shared")
        let cases: [(conf: String, screens: [String], line: String)] = [
            ("[screen a]\ncontent-cache = \(shared)\n[screen b]\ncontent-cache = \(shared)/\n", ["a:HDMI-A-1:\(picture)", "b:HDMI-A-2:\(url)"],
             "kiosk: \(dir.file("k.conf")):4: [screen b] content cache \(shared)/ is screen a's too: give each screen a folder of its own"),
            ("[screen b]\npath = \(url)\npath = \(picture)\n", ["a:HDMI-A-1:\(picture)", "b:HDMI-A-2:"],
             "kiosk: --screen b: '\(url)' is a URL: give it alone"),
            ("", ["a:HDMI-A-1:\(picture)", "b:HDMI-A-2:http://"], "kiosk: --screen b: 'http://' is not an http or https URL kiosk can fetch"),
            ("[screen b]\ncontent-ca = \(dir.file("none.pem"))\n", ["a:HDMI-A-1:\(picture)", "b:HDMI-A-2:\(url)"],
             "kiosk: \(dir.file("k.conf")):2: --content-ca: cannot read '\(dir.file("none.pem"))'"),
        ]
        for c in cases {
            let conf = dir.file("k.conf")
            try c.conf.write(toFile: conf, atomically: true, encoding: .utf8)
            let p = try LiveProcess(["play", "--config", conf, "--output", "headless", "--length", "5", "--no-state",
                                     "--content-cache", dir.file("cache")] + c.screens.flatMap { ["--screen", $0] })
            let end = p.finish(timeout: 30)
            XCTAssertEqual(end.status, 2, "\(c.screens): \(p.stderr)")
            XCTAssertTrue(p.stderr.hasPrefix(c.line), "\(c.screens): \(p.stderr)")
            XCTAssertEqual(p.stderr.filter { $0 == "\n" }.count, 1, "one line: \(p.stderr)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: shared), "no folder made for a refused screen")
    }
}
