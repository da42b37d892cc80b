import Foundation
import KioskCore
import KioskFetch
import KioskMedia
@_spi(Bench) import KioskPlayLog
import XCTest

/// Reports back to the server, against a real collector on 127.0.0.1 (Fixtures/content/report_server.py): the
/// showings a real play log holds arrive exactly as sqlite3 reads them; an outage (the server down, then answering
/// 500, then losing a reply) and its recovery deliver every showing once among the acknowledged reports, with no gap;
/// a restart (a new upload on the same cursor file) sends nothing already acknowledged, and a new play log is sent
/// from its start; PUT and POST go where the subscription says (A-SMIL's file per batch, signageOS's endpoint, the
/// status object), a redirect delivers nothing; a file: or ftp: subscription is refused with one line.
final class ContentReportTests: XCTestCase {
    private var dir: TempDir?
    private var server: ReportServer?

    override func setUpWithError() throws {
        let dir = try TempDir()
        self.dir = dir
        server = try ReportServer(dir)
    }

    override func tearDown() {
        server?.stop()
        server = nil
        dir = nil
    }

    /// 2026-12-24T10:00:00Z plus `seconds`.
    private static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_798_106_400 + seconds) }

    /// A showing of `item` from `start` for `length` seconds (nil: still on screen); its row id.
    @discardableResult
    private static func show(_ store: PlayLog, _ item: ShowingItem, start: Double, length: Double?, reason: String = "eof",
                             off: Double = 0) throws -> Int64 {
        let id = try XCTUnwrap(store.begin(item, at: at(start)))
        if let length { store.end(id, at: at(start + length), reason: reason, length: length, screenOff: off) }
        return id
    }

    /// `count` closed showings of `/m/N.png`, 5 s each, from `from` on.
    private static func showMany(_ store: PlayLog, _ count: Int, from: Double = 0) throws {
        for i in 0..<count { try show(store, ShowingItem(path: "/m/\(i).png", kind: "image"), start: from + Double(i) * 5, length: 5) }
    }

    /// The closed showings as sqlite3 reads them, one `id|start|end|duration|path|kind|region|layout|element|reason|screen_on`
    /// line each (NULL empty, the duration to the millisecond).
    private static func reference(_ db: String) throws -> [String] {
        try PlayLogTests.sqlite3(db, """
            SELECT id, start_utc, end_utc, printf('%.3f', duration), path, kind, region, layout, element, reason, screen_on
            FROM showings WHERE end_utc IS NOT NULL ORDER BY id
            """)
    }

    /// A report body's showings, as JSON objects.
    private static func showings(_ body: String) throws -> [[String: Any]] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]], "not a JSON array: \(body)")
    }

    /// A showing as `reference` writes its row.
    private static func line(_ s: [String: Any]) -> String {
        func text(_ key: String) -> String { s[key] as? String ?? "" }
        let duration = (s["duration"] as? Double).map { String(format: "%.3f", $0) } ?? ""
        let on = (s["screen_on"] as? Bool).map { $0 ? "1" : "0" } ?? "?"
        return ["\(s["id"] as? Int ?? -1)", text("start"), text("end"), duration, text("path"), text("kind"), text("region"),
                text("layout"), text("element"), text("reason"), on].joined(separator: "|")
    }

    /// The ids of the showings in `requests`.
    private static func ids(_ requests: [ReportServer.Request]) throws -> [Int] {
        try requests.flatMap { try showings($0.body).map { $0["id"] as? Int ?? -1 } }
    }

    private func upload(_ db: String, cursor: String, _ subscription: ReportSubscription, log: Log,
                        mediaURL: (@Sendable (String) -> String?)? = nil) throws -> PlayReportUpload {
        try PlayReportUpload(source: PlayLogShowings(path: db), cursorFile: cursor, subscription: subscription, settings: FetchSettings(),
                             log: log, mediaURL: mediaURL, retry: (0.05, 0.2))
    }

    func testTheServerReceivesEveryClosedShowingAsThePlayLogHasIt() throws {
        let dir = try XCTUnwrap(self.dir), server = try XCTUnwrap(self.server)
        try server.start()
        let db = dir.file("plays.sqlite"), lines = LogLines()
        let store = try PlayLog(path: db, log: lines.log)
        try Self.show(store, ShowingItem(path: "/m/a.png", kind: "image"), start: 0, length: 4)
        // a layout's logo region: on screen the whole time, its row still open while the others close
        let logo = try Self.show(store, ShowingItem(path: "/m/logo.png", kind: "image", region: "logo", layout: "/m/shop.smil", element: "logo"),
                                 start: 0, length: nil)
        try Self.show(store, ShowingItem(path: "/cache/files/0a1b-v1.mp4", kind: "video"), start: 4, length: 9.998, reason: "next", off: 1.5)
        try Self.show(store, ShowingItem(path: "/m/c.png", kind: "image", region: "main", layout: "/m/shop.smil", element: "c1"), start: 14, length: 4)
        try Self.show(store, ShowingItem(alert: "Fire drill\nnow"), start: 18, length: 30, reason: "cancelled")
        let subscription = ReportSubscription(kind: .playback, url: server.url("/pop"), method: .post)
        let up = try upload(db, cursor: dir.file("reports/pop.json"), subscription, log: lines.log,
                            mediaURL: { $0 == "/cache/files/0a1b-v1.mp4" ? "https://cdn.example/b.mp4" : nil })

        XCTAssertEqual(up.sendPending(), PlayReportPass(sent: 4, reports: 1, failure: nil))
        var requests = server.requests()
        XCTAssertEqual(requests.map(\.method), ["POST"])
        XCTAssertEqual(requests.map(\.path), ["/pop"])
        XCTAssertEqual(requests.first?.contentType, "application/json")
        let first = try Self.showings(requests[0].body)
        XCTAssertEqual(first.map(Self.line), try Self.reference(db), "the report is the play log's closed rows, field for field")
        XCTAssertEqual(first.map { $0["url"] as? String }, [nil, "https://cdn.example/b.mp4", nil, nil])
        XCTAssertEqual(first.map { $0["screen_on"] as? Bool }, [true, false, true, true])
        // the cursor: 1 done, the logo (2) still on screen, 3 to 5 done above it
        var cursor = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.file("reports/pop.json")))) as? [String: Any])
        XCTAssertEqual(cursor["through"] as? Int, 1)
        XCTAssertEqual(cursor["acknowledged"] as? [[Int]], [[3, 5]])

        // the logo's showing ends, another begins and ends: the next report is those two, and then nothing is left
        store.end(logo, at: Self.at(60), reason: "eof", length: 60, screenOff: 0)
        try Self.show(store, ShowingItem(path: "/m/d.png", kind: "image"), start: 48, length: 5)
        XCTAssertEqual(up.sendPending(), PlayReportPass(sent: 2, reports: 1, failure: nil))
        XCTAssertEqual(up.sendPending(), PlayReportPass(sent: 0, reports: 0, failure: nil))
        requests = server.requests()
        XCTAssertEqual(requests.count, 2)
        XCTAssertEqual(try Self.ids(Array(requests.suffix(1))), [2, 6])
        XCTAssertEqual(try requests.flatMap { try Self.showings($0.body) }.map(Self.line).sorted(), try Self.reference(db).sorted(),
                       "every closed row arrived once")
        cursor = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.file("reports/pop.json")))) as? [String: Any])
        XCTAssertEqual(cursor["through"] as? Int, 6)
        XCTAssertEqual((cursor["acknowledged"] as? [Any])?.count, 0)
        XCTAssertEqual(lines.matching("warn").count, 0, "\(lines.matching(""))")
    }

    func testAnOutageThenRecoveryDeliversEverythingOnceWithNoGap() throws {
        let dir = try XCTUnwrap(self.dir), server = try XCTUnwrap(self.server)
        let db = dir.file("plays.sqlite"), lines = LogLines()
        let store = try PlayLog(path: db, log: Log(level: .error, sink: { _ in }))
        try Self.showMany(store, 12)
        var subscription = ReportSubscription(kind: .playback, url: server.url("/pop"), method: .post, period: 0.2)
        subscription.batchLimit = 5
        let up = try upload(db, cursor: dir.file("cursor.json"), subscription, log: lines.log)
        up.start()
        defer { up.stop() }
        // the server is down: passes fail, said once
        XCTAssertTrue(eventually(10) { lines.matching("not delivered").count == 1 })
        Thread.sleep(forTimeInterval: 0.6)
        XCTAssertEqual(lines.matching("not delivered").count, 1, "one line per change, not per retry: \(lines.matching("reports"))")
        // it comes back answering 500: one more line; more showings close meanwhile
        try server.answer("fail")
        try server.start()
        XCTAssertTrue(eventually(10) { server.requests().count >= 3 })
        XCTAssertEqual(lines.matching("not delivered").count, 2, "\(lines.matching("reports"))")
        XCTAssertTrue(lines.matching("not delivered").last?.contains("HTTP 500") ?? false)
        try Self.showMany(store, 5, from: 100)
        // it takes a report but its reply is lost (a 500), then works
        try server.answer("take-and-fail 1")
        XCTAssertTrue(eventually(20) { (try? Self.ids(server.requests().filter { $0.status / 100 == 2 })).map { Set($0).count } == 17 },
                      "\(server.requests().map { "\($0.status) \($0.body.prefix(60))" })")
        let all = try Self.reference(db).count
        XCTAssertEqual(all, 17)
        let acknowledged = try Self.ids(server.requests().filter { $0.status / 100 == 2 })
        XCTAssertEqual(acknowledged, Array(1...17), "every showing once among the acknowledged reports, in order, no gap")
        let taken = try Self.ids(server.requests().filter(\.taken))
        XCTAssertEqual(Set(taken), Set(1...17))
        XCTAssertEqual(taken.count, 22, "the report whose reply was lost came again: a server deduplicates by id")
        XCTAssertEqual(server.requests().filter { $0.status / 100 == 2 }.map { try? Self.showings($0.body).count }, [5, 5, 5, 2])
        XCTAssertEqual(lines.matching("not delivered").count, 2)
        XCTAssertTrue(eventually(5) { lines.matching("delivered again").count == 1 })
    }

    func testARestartSendsNothingAlreadyAcknowledged() throws {
        let dir = try XCTUnwrap(self.dir), server = try XCTUnwrap(self.server)
        try server.start()
        let db = dir.file("plays.sqlite"), cursor = dir.file("state/reports/cursor.json"), lines = LogLines()
        var store: PlayLog? = try PlayLog(path: db, log: Log(level: .error, sink: { _ in }))
        try Self.showMany(try XCTUnwrap(store), 7)
        let subscription = ReportSubscription(kind: .playback, url: server.url("/logs"), method: .put, filePerBatch: true)
        XCTAssertEqual(try upload(db, cursor: cursor, subscription, log: lines.log).sendPending().sent, 7)
        // kiosk stops; two more showings were logged; a new upload on the same cursor sends only those
        try Self.showMany(try XCTUnwrap(store), 2, from: 100)
        var again: PlayReportUpload? = try upload(db, cursor: cursor, subscription, log: lines.log)
        XCTAssertEqual(again?.sendPending(), PlayReportPass(sent: 2, reports: 1, failure: nil))
        XCTAssertEqual(server.requests().map(\.path), ["/logs/playlog-1-7.json", "/logs/playlog-8-9.json"])
        XCTAssertEqual(server.requests().map(\.method), ["PUT", "PUT"])
        XCTAssertEqual(try Self.ids(server.requests()), Array(1...9))

        // its thread sends at once, then a showing that closes is sent on `sendNow` (the period is a minute)
        var slow = subscription
        slow.period = 60
        let live = try upload(db, cursor: cursor, slow, log: lines.log)
        live.start()
        defer { live.stop() }
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(server.requests().count, 2, "nothing new to send")
        try Self.show(try XCTUnwrap(store), ShowingItem(path: "/m/late.png", kind: "image"), start: 200, length: 1)
        live.sendNow()
        XCTAssertTrue(eventually(10) { server.requests().count == 3 })
        XCTAssertEqual(server.requests().last?.path, "/logs/playlog-10-10.json")
        live.stop()

        // the play log is replaced (moved aside as damaged, say): a new log's ids begin again and are all sent
        store = nil
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        let fresh = try PlayLog(path: db, log: Log(level: .error, sink: { _ in }))
        try Self.showMany(fresh, 3, from: 1000)
        again = try upload(db, cursor: cursor, subscription, log: lines.log)
        XCTAssertEqual(again?.sendPending().sent, 3)
        XCTAssertEqual(server.requests().last?.path, "/logs/playlog-1-3.json")
        XCTAssertEqual(try Self.showings(server.requests().last?.body ?? "").map(Self.line), try Self.reference(db))
        XCTAssertEqual(lines.matching("is not the one").count, 1, "\(lines.matching("reports"))")

        // a cursor file that is not one: one line, and the log is sent again from its start (deduplicated by id)
        try "{not json".write(toFile: cursor, atomically: true, encoding: .utf8)
        again = try upload(db, cursor: cursor, subscription, log: lines.log)
        XCTAssertEqual(lines.matching("not a report cursor").count, 1)
        XCTAssertEqual(again?.sendPending().sent, 3)
    }

    func testPutAndPostGoWhereTheSubscriptionSaysAndARedirectDeliversNothing() throws {
        let dir = try XCTUnwrap(self.dir), server = try XCTUnwrap(self.server)
        try server.start()
        let db = dir.file("plays.sqlite"), lines = LogLines()
        let store = try PlayLog(path: db, log: Log(level: .error, sink: { _ in }))
        try Self.showMany(store, 3)
        let index = server.url("/content/index.smil")
        let aSMIL = ReportSubscriptions.read(root: try MarkupReader.parse(Array("""
            <smil><head><metadata><x-server xmlns="http://schemas.adfotain.org/adapi-1.0"><subscriptionList>
              <subscription><type>PlaylogCollection</type><action>reports</action><method>put</method></subscription>
              <subscription><type>SystemReport</type><action>/status/player1.json</action><method>put</method></subscription>
            </subscriptionList></x-server></metadata></head><body/></smil>
            """.utf8), file: index), indexURL: index, name: index)
        XCTAssertEqual(aSMIL.warnings, [])
        let signageOS = ReportSubscriptions.read(root: try MarkupReader.parse(Array("""
            <smil><head><meta log="true" type="manual" endpoint="/api/pop?screen=1"/></head><body/></smil>
            """.utf8), file: index), indexURL: index, name: index)
        let put = try XCTUnwrap(aSMIL.subscriptions.first { $0.kind == .playback })
        let post = try XCTUnwrap(signageOS.subscriptions.first)
        XCTAssertEqual(try upload(db, cursor: dir.file("put.json"), put, log: lines.log).sendPending().sent, 3)
        XCTAssertEqual(try upload(db, cursor: dir.file("post.json"), post, log: lines.log).sendPending().sent, 3)
        let status = try XCTUnwrap(aSMIL.subscriptions.first { $0.kind == .status })
        var playing = PlayerStatus()
        playing.layout = "/var/lib/kiosk/content/files/f-v1.smil"
        playing.regions = [RegionStatus(name: "main", src: "b.mp4", path: "/var/lib/kiosk/content/files/b-v1.mp4")]
        var content = ContentStatus()
        content.url = index
        content.result = .unchanged
        content.lastCheck = WallInstant(clamping: Self.at(0))
        content.cacheBytes = 1234
        playing.content = content
        let report = PlayerStatusReport(player: "shop-1", time: Self.at(5), status: playing)
        XCTAssertNil(try StatusReportUpload(subscription: status, settings: FetchSettings(), log: lines.log) { report.json }.sendOnce())
        let requests = server.requests()
        XCTAssertEqual(requests.map { "\($0.method) \($0.path) \($0.status)" },
                       ["PUT /content/reports/playlog-1-3.json 201", "POST /api/pop?screen=1 200", "PUT /status/player1.json 201"])
        XCTAssertEqual(try Self.showings(requests[0].body).map(Self.line), try Self.reference(db))
        XCTAssertEqual(try Self.showings(requests[1].body).map(Self.line), try Self.reference(db))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(requests[2].body.utf8)) as? [String: Any])
        XCTAssertEqual(object["player"] as? String, "shop-1")
        XCTAssertEqual(object["time"] as? String, "2026-12-24T10:00:05.000Z")
        let shown = try XCTUnwrap(object["playing"] as? [String: Any])
        XCTAssertEqual(shown["layout"] as? String, "/var/lib/kiosk/content/files/f-v1.smil")
        XCTAssertEqual((shown["regions"] as? [[String: Any]])?.map { $0["src"] as? String }, ["b.mp4"])
        let fetcher = try XCTUnwrap(object["content"] as? [String: Any])
        XCTAssertEqual(fetcher["url"] as? String, index)
        XCTAssertEqual(fetcher["result"] as? String, "unchanged")
        XCTAssertEqual(fetcher["last_check"] as? String, "2026-12-24T10:00:00Z")
        XCTAssertEqual(fetcher["cache_bytes"] as? Int, 1234)

        // a server that redirects the report took nothing: the showings wait, one line names the redirect
        try server.answer("redirect")
        try Self.showMany(store, 1, from: 100)
        let redirected = try upload(db, cursor: dir.file("post.json"), post, log: lines.log)
        let pass = redirected.sendPending()
        XCTAssertEqual(pass.sent, 0)
        XCTAssertTrue(pass.failure?.contains("redirects reports to /elsewhere") ?? false, pass.failure ?? "")
        XCTAssertEqual(redirected.backlog(), 1)
        XCTAssertEqual(lines.matching("not delivered").count, 1)
        XCTAssertEqual(server.requests().count, 4, "the redirect was not followed")
    }

    func testAFileOrFTPSubscriptionIsRefusedWithOneLine() throws {
        let dir = try XCTUnwrap(self.dir)
        for url in ["file:///var/log/pop.json", "ftp://127.0.0.1/pop"] {
            let playback = ReportSubscription(kind: .playback, url: url, method: .put)
            XCTAssertThrowsError(try PlayReportUpload(source: PlayLogShowings(path: dir.file("plays.sqlite")), cursorFile: dir.file("c.json"),
                                                      subscription: playback, settings: FetchSettings(), log: Log(level: .error))) { error in
                let text = "\(error)"
                XCTAssertEqual(text, "\(url): not an http or https URL; no proof of play is sent to it")
                XCTAssertFalse(text.contains("\n"))
            }
            let status = ReportSubscription(kind: .status, url: url, method: .post)
            XCTAssertThrowsError(try StatusReportUpload(subscription: status, settings: FetchSettings(), log: Log(level: .error)) { .null }) { error in
                XCTAssertEqual("\(error)", "\(url): not an http or https URL; no status is sent to it")
            }
            XCTAssertThrowsError(try ReportSender(settings: FetchSettings()).send([], to: url, method: .post))
            let index = "https://cms.example/screens/1/index.smil"
            let read = ReportSubscriptions.read(root: try MarkupReader.parse(Array("""
                <smil>
                  <head>
                    <metadata><x-server><subscriptionList>
                      <subscription><type>PlaylogCollection</type><action>\(url)</action></subscription>
                    </subscriptionList></x-server></metadata>
                  </head>
                  <body/>
                </smil>
                """.utf8), file: index), indexURL: index, name: index)
            XCTAssertEqual(read.subscriptions, [])
            XCTAssertEqual(read.warnings, ["\(index):4: PlaylogCollection action \"\(url)\": not an http or https URL; no reports are sent to it"])
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("c.json")))
    }
}
