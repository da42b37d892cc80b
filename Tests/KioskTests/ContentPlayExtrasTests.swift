import Foundation
import KioskCore
import XCTest

/// `kiosk play URL` end to end with what comes beside the fetcher: a signed bundle on a stand-in USB stick plays
/// with no server at all (a forged one first is refused with one line and nothing plays), and the proof of play the
/// index's A-SMIL subscription asks for reaches the report server as the play log holds it (read with sqlite3).
final class ContentPlayExtrasTests: XCTestCase {
    func testASignedBundlePlaysWithNoServerAndAForgedOneIsRefused() throws {
        let dir = try TempDir()
        let url = "http://127.0.0.1:\(MQTTTools.freePort())/lobby/index.smil"  // nothing listens: the server is gone
        let good = try MinisignTool.generate(in: dir, name: "content")
        let other = try MinisignTool.generate(in: dir, name: "other")
        let stick = dir.file("stick")
        let bundle = try StickBundle(stick)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=red:s=64x48", "-frames:v", "1", bundle.file("media/a.png")])
        try bundle.writeIndex([StickBundle.Entry(src: "media/a.png")], url: url)
        try bundle.sign(with: other)  // a forged bundle: signed, but not by the content key
        let p = try LiveProcess(["play", url, "--output", "headless", "--size", "64x36", "--content-cache", dir.file("cache"),
                                 "--no-state", "--no-play-log", "--content-key", good.publicKey, "--content-bundle", stick,
                                 "--log-level", "info", "--length", "40"])
        XCTAssertTrue(p.waitFor("content: nothing to play from \(url) yet: ", timeout: 30), p.stderr)
        XCTAssertTrue(p.waitFor("not by the configured key", timeout: 20), p.stderr)
        XCTAssertFalse(p.stderr.contains("layout: \(url)"), "a forged bundle plays nothing: \(p.stderr)")
        try bundle.sign(with: good)
        XCTAssertTrue(p.waitFor("content: bundle ", timeout: 20), p.stderr)
        XCTAssertTrue(p.waitFor("layout: \(url): ", timeout: 20), "the bundle's layout plays: \(p.stderr)")
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
        XCTAssertEqual(p.stderr.components(separatedBy: "not by the configured key").count - 1, 1, "the forged bundle said once: \(p.stderr)")
    }

    func testProofOfPlayReachesTheServerTheIndexSubscribesTo() throws {
        let dir = try TempDir()
        let nginx = try NginxServer(dir)
        defer { nginx.stop() }
        let reports = try ReportServer(dir)
        try reports.start(lifetime: 120)
        defer { reports.stop() }
        for (name, colour) in [("a.png", "red"), ("b.png", "blue")] {
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=\(colour):s=64x48", "-frames:v", "1", nginx.file(name)])
        }
        try """
        <smil><head><meta http-equiv="Refresh" content="60"/>
        <metadata><x-server xmlns="http://schemas.adfotain.org/adapi-1.0"><subscriptionList><subscription>
          <type>PlaylogCollection</type><action>\(reports.url("/pop"))</action><method>POST</method><refreshInterval>10</refreshInterval>
        </subscription></subscriptionList></x-server></metadata>
        <layout><root-layout width="640" height="360"/><region regionName="main" width="640" height="360"/></layout></head>
        <body><seq repeatCount="indefinite"><img src="a.png" dur="1s" region="main"/><img src="b.png" dur="1s" region="main"/></seq></body></smil>
        """.write(toFile: nginx.file("index.smil"), atomically: true, encoding: .utf8)
        let db = dir.file("plays.sqlite")
        let p = try LiveProcess(["play", nginx.url("index.smil"), "--output", "headless", "--size", "64x36", "--transition", "none",
                                 "--content-cache", dir.file("cache"), "--no-state", "--play-log", db, "--log-level", "info",
                                 "--length", "60", "--play-log-batch", "2"])  // rows reach the log, and so the server, within seconds
        XCTAssertTrue(p.waitFor("fetched; playing it", timeout: 30), p.stderr)
        let delivered = eventually(40, every: 0.2) { reports.requests().contains { $0.status == 200 && $0.body.contains("\"id\"") } }
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
        XCTAssertTrue(delivered, "a report arrived: \(reports.requests()) \(p.stderr)")
        var sent: [Int: String] = [:]
        for request in reports.requests() where request.status == 200 {
            XCTAssertEqual(request.method, "POST")
            let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [[String: Any]], request.body)
            for row in rows {
                let id = try XCTUnwrap(row["id"] as? Int, "\(row)")
                XCTAssertNil(sent[id], "row \(id) sent once")
                sent[id] = "\(row["path"] as? String ?? "")|\(row["reason"] as? String ?? "")"
            }
        }
        XCTAssertFalse(sent.isEmpty)
        let logged = try PlayLogTests.sqlite3(db, "SELECT id, path, reason FROM showings WHERE end_utc IS NOT NULL ORDER BY id")
        var byID: [Int: String] = [:]
        for line in logged {
            let f = line.split(separator: "|", maxSplits: 1).map(String.init)
            if let id = Int(f[0]) { byID[id] = f.count > 1 ? f[1] : "" }
        }
        for (id, row) in sent {
            XCTAssertEqual(byID[id], row, "row \(id) as the play log holds it")
        }
        let sentIDs = sent.keys.sorted()
        XCTAssertEqual(sentIDs, Array(1...(sentIDs.last ?? 0)), "no gap in what was sent")
    }
}
