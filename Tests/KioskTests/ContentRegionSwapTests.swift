import Foundation
import KioskCore
import XCTest

/// A new index for a layout of two regions whose items differ in length (`kiosk play URL` against nginx): each
/// region takes the new content at the end of its own item, so no showing in either region is cut short (the play
/// log's durations, read with sqlite3), and the slow region's item outlasts the quick one's swap by seconds.
final class ContentRegionSwapTests: XCTestCase {
    /// Seconds of each item in the quick region (`left`) and the slow one (`right`).
    private let quick = 2.0, slow = 9.0

    /// `index.smil`: left shows a then b, right c then d, each sequence over and over; `refresh` seconds a check.
    private func serve(_ nginx: NginxServer, refresh: Int) throws {
        for (name, colour) in [("a", "red"), ("b", "blue"), ("c", "green"), ("d", "yellow"), ("e", "white"), ("f", "purple")] {
            try FFmpegCLI.ffmpeg(["-y", "-f", "lavfi", "-i", "color=\(colour):s=64x48", "-frames:v", "1", nginx.file(name + ".png")])
        }
        let smil = """
        <smil><head><meta http-equiv="Refresh" content="\(refresh)"/>
        <layout><root-layout width="640" height="360"/>
        <region regionName="left" width="320" height="360" fit="fill"/><region regionName="right" left="320" width="320" height="360" fit="fill"/></layout></head>
        <body><par>
        <seq repeatCount="indefinite"><img src="a.png" dur="\(Int(quick))s" region="left"/><img src="b.png" dur="\(Int(quick))s" region="left"/></seq>
        <seq repeatCount="indefinite"><img src="c.png" dur="\(Int(slow))s" region="right"/><img src="d.png" dur="\(Int(slow))s" region="right"/></seq>
        </par></body></smil>
        """
        try smil.write(toFile: nginx.file("index.smil"), atomically: true, encoding: .utf8)
    }

    /// The play log's rows in order: region, the file's first byte-equal served name (or the path), seconds on
    /// screen, and the start in seconds (UTC, from sqlite3's julianday).
    private func rows(_ db: String, nginx: NginxServer) throws -> [(region: String, name: String, seconds: Double, start: Double)] {
        let served = ["a", "b", "c", "d", "e", "f"].map { ($0, ContentFixtures.bytes(nginx.file($0 + ".png"))) }
        return try PlayLogTests.sqlite3(db, "SELECT region, path, duration, julianday(start_utc) * 86400.0 FROM showings ORDER BY id").map { row in
            let f = row.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            XCTAssertEqual(f.count, 4, row)
            let bytes = ContentFixtures.bytes(f.count > 1 ? f[1] : "")
            let name = served.first { $0.1 == bytes }?.0 ?? (f.count > 1 ? f[1] : "")
            return (f[0], name, Double(f.count > 2 ? f[2] : "") ?? -1, Double(f.count > 3 ? f[3] : "") ?? -1)
        }
    }

    func testEachRegionTakesANewIndexAtTheEndOfItsOwnItem() throws {
        let dir = try TempDir()
        let nginx = try NginxServer(dir)
        defer { nginx.stop() }
        try serve(nginx, refresh: 1)
        let url = nginx.url("index.smil"), sock = dir.file("ipc.sock"), db = dir.file("plays.sqlite")
        let p = try LiveProcess(["play", url, "--output", "headless", "--size", "320x180", "--content-cache", dir.file("cache"),
                                 "--no-state", "--play-log", db, "--input-ipc-server", sock, "--log-level", "info",
                                 "--length", "60", "--transition", "none"])
        XCTAssertTrue(p.waitFor("content: \(url) fetched; playing it", timeout: 30), p.stderr)
        XCTAssertTrue(p.waitFor("ipc: listening on \(sock)", timeout: 10), p.stderr)
        let c = try IPCConnection(path: sock)
        // the slow region has just begun its second item: it has about 9 s to go, the quick one at most 2
        XCTAssertTrue(try eventually(30, every: 0.05) { ContentRemoteFixtures.shows(try c.get("kiosk-regions"), oneOf: ["d.png"]) },
                      p.stderr)
        try String(contentsOfFile: nginx.file("index.smil"), encoding: .utf8)
            .replacingOccurrences(of: "src=\"a.png\"", with: "src=\"e.png\"")
            .replacingOccurrences(of: "src=\"d.png\"", with: "src=\"f.png\"")
            .write(toFile: nginx.file("index.smil"), atomically: true, encoding: .utf8)
        try ContentFixtures.touch(nginx.file("index.smil"), later: 5)
        XCTAssertTrue(p.waitFor("content: swapping in region by region, each at the end of its item on screen", timeout: 20), p.stderr)
        XCTAssertTrue(p.stderr.contains("held: left, right)"), p.stderr)
        XCTAssertTrue(p.waitFor("layout: region left takes the new content", timeout: 5), p.stderr)
        XCTAssertFalse(p.stderr.contains("layout: region right takes the new content"), "the slow item plays on: \(p.stderr)")
        // the screen now: the new index on the left (e, white, or b, blue), the old item held on the right (d, yellow,
        // drawn over the new index's c, green)
        let shot = dir.file("shot.png")
        XCTAssertEqual(try c.request(#"["screenshot-to-file","\#(shot)"]"#)["error"], .string("success"))
        XCTAssertFalse(p.stderr.contains("layout: region right takes the new content"), "still held at the screenshot: \(p.stderr)")
        let pixels = [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", shot, "-pix_fmt", "rgb24", "-f", "rawvideo", "-"]))
        func colour(x: Int, y: Int) -> [Int] { (0..<3).map { Int(pixels[min(pixels.count - 1, (y * 320 + x) * 3 + $0)]) } }
        let leftColour = colour(x: 80, y: 90), rightColour = colour(x: 240, y: 90)
        XCTAssertEqual(pixels.count, 320 * 180 * 3)
        XCTAssertTrue(leftColour.elementsEqual([255, 255, 255], by: { abs($0 - $1) < 24 })
                      || leftColour.elementsEqual([0, 0, 255], by: { abs($0 - $1) < 24 }), "left: the new index: \(leftColour)")
        XCTAssertTrue(rightColour.elementsEqual([255, 255, 0], by: { abs($0 - $1) < 24 }), "right: the old item held: \(rightColour)")
        XCTAssertTrue(p.waitFor("content: swapped in at the end of the item on screen in every region", timeout: 15), p.stderr)
        XCTAssertTrue(p.stderr.contains("layout: region right takes the new content"), p.stderr)
        Thread.sleep(forTimeInterval: 1)
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)

        let all = try rows(db, nginx: nginx)
        let left = all.filter { $0.region == "left" }, right = all.filter { $0.region == "right" }
        // every showing but the last of each region (ended by the quit) lasted its item's length: none was cut
        for (list, length) in [(left, quick), (right, slow)] {
            for row in list.dropLast() {
                XCTAssertEqual(row.seconds, length, accuracy: 0.4, "\(row) was not cut short by the swap: \(all)")
            }
        }
        let newLeft = try XCTUnwrap(left.first { $0.name == "e" }, "the new index's left item showed: \(all)")
        let newRight = try XCTUnwrap(right.first { $0.name == "c" && $0.start > newLeft.start }, "right began the new index: \(all)")
        let heldRight = try XCTUnwrap(right.last { $0.name == "d" && $0.start < newLeft.start }, "\(all)")
        XCTAssertGreaterThan(newRight.start - newLeft.start, 3, "the slow region took the new index seconds after the quick one")
        XCTAssertEqual(newRight.start - heldRight.start, slow, accuracy: 0.4, "at the end of its own item: \(all)")
        XCTAssertFalse(right.contains { $0.name == "d" && $0.start > newRight.start }, "d is gone from the new index: \(all)")
        XCTAssertFalse(left.contains { $0.name == "a" && $0.start > newLeft.start }, "a is gone from the new index: \(all)")
    }
}
