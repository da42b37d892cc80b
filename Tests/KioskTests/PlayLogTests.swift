import Foundation
import KioskCore
import KioskMedia
import KioskOutput
@testable import KioskPlayer
@_spi(Bench) @testable import KioskPlayLog
import XCTest

/// The proof-of-play log: a slideshow on the simulated clock gives exactly the hand-computed rows (a screen-off
/// span and a removed item among them); a damaged file is moved aside; `kiosk report`'s figures equal `sqlite3`'s
/// own queries over the same file; and (PlayLogKillTests) kill -9 never loses a closed row.
final class PlayLogTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    /// sqlite3 (the reference client) on `db`: its output lines.
    static func sqlite3(_ db: String, _ sql: String) throws -> [String] {
        let r = try BoundedProcess.run("/usr/bin/sqlite3", [db, sql], timeout: 30)
        XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self))
        return String(decoding: r.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// A slideshow of a, b and c (red, green and blue stills of 4 s, no transition), logged as `loggedPlayer` does,
    /// with `commands` (given the stills' paths): the player (to run), the log's path and the stills'.
    static func slideshow(in dir: TempDir, commands: ([String]) -> [(Double, PlayerCommand)]) throws -> (Player, String, [String]) {
        let paths = try ["a", "b", "c"].map { try ColourPictures.make(dir, "\($0).png", $0 == "a" ? "red" : $0 == "b" ? "green" : "blue") }
        let (p, db) = try loggedPlayer(in: dir, items: paths.map { PlaylistItem(path: $0) }, timed: commands(paths)) {
            $0.slideshow.duration = 4
            $0.slideshow.transition = .none
        }
        return (p, db, paths)
    }

    /// The SMIL layout `smil` (its body; green, blue, red and white stills are beside it) as DIR/layout.smil in a
    /// 160×90 root with region main (120 px wide) and region side (40 px), logged as `loggedPlayer` does, with
    /// `commands`: the player, the log's path and the SMIL file's.
    static func layout(in dir: TempDir, body smil: String, commands: [(Double, PlayerCommand)]) throws -> (Player, String, String) {
        for c in ["green", "blue", "red", "white"] { _ = try ColourPictures.make(dir, "\(c).png", c) }
        let file = dir.file("layout.smil")
        try """
            <smil><head><layout><root-layout width="160" height="90"/>
            <region regionName="main" left="0" width="120" fit="fill"/><region regionName="side" left="120" width="40" fit="fill"/></layout></head>
            <body>\(smil)</body></smil>
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let (p, db) = try loggedPlayer(in: dir, items: [], layout: try SMILFile.load(file), timed: commands)
        return (p, db, file)
    }

    /// A player of `items` (or `layout`) at 160×90 and 10 fps on the simulated clock from 2026-12-24 09:00:00 UTC,
    /// logging into DIR/plays.sqlite, that sends each of `timed` once the clock reaches its time: the player and the
    /// log's path.
    static func loggedPlayer(in dir: TempDir, items: [PlaylistItem], layout: SMILFile? = nil, timed: [(Double, PlayerCommand)],
                             configure: (inout PlayerConfig) -> Void = { _ in }) throws -> (Player, String) {
        let db = dir.file("plays.sqlite")
        let clock = VirtualClock()
        var config = PlayerConfig()
        config.size = PixelSize(width: 160, height: 90)
        configure(&config)
        let output = try VirtualTimeOutput(size: config.size, fps: 10, clock: clock, sink: nil)
        let p = try Player(items: items, config: config, output: output, clock: clock, log: Log(level: .error), waitForDecodes: true)
        p.wallClock = ({ Date(timeIntervalSince1970: 1_798_102_800 + $0) }, TimeZone(identifier: "UTC") ?? .current)
        if let layout { try p.play(layout: layout) }
        _ = PlayerPlayLog(store: try PlayLog(path: db, log: Log(level: .error)), player: p, keepDays: 400)
        var sent = 0
        p.onLoopTurn = { [unowned p] in
            while sent < timed.count, clock.now >= timed[sent].0 {
                p.inbox.queueFromLoop(timed[sent].1)
                sent += 1
            }
        }
        return (p, db)
    }

    /// a, b, c stills of 4 s, no transition, from 2026-12-24 09:00:00 UTC on the virtual clock. The screen goes off
    /// at 5 s and on at 7 s (during b: 2 s off); at 9.5 s c (on screen since 8 s) is removed; at 14 s the run ends.
    /// Hand-computed: a 0-4 eof; b 4-8 eof, 2000 ms off, 2 s on screen; c 8-9.5 removed; a 9.5-13.5 eof;
    /// b 13.5-14 quit.
    func testASlideshowOnTheSimulatedClockGivesTheHandComputedRows() throws {
        let dir = try TempDir()
        let (p, db, paths) = try Self.slideshow(in: dir) { paths in
            [(5.0, PlayerCommand.screen(on: false)), (7.0, .screen(on: true)), (9.5, .remove(.path(paths[2])))]
        }
        _ = try p.run(length: 14)
        let rows = try Self.sqlite3(db, "SELECT substr(path, -5), start_utc, end_utc, duration, reason, screen_on, screen_off_ms, region FROM showings ORDER BY id")
        XCTAssertEqual(rows, [
            "a.png|2026-12-24T09:00:00.000Z|2026-12-24T09:00:04.000Z|4.0|eof|1|0|main",
            "b.png|2026-12-24T09:00:04.000Z|2026-12-24T09:00:08.000Z|2.0|eof|0|2000|main",
            "c.png|2026-12-24T09:00:08.000Z|2026-12-24T09:00:09.500Z|1.5|removed|1|0|main",
            "a.png|2026-12-24T09:00:09.500Z|2026-12-24T09:00:13.500Z|4.0|eof|1|0|main",
            "b.png|2026-12-24T09:00:13.500Z|2026-12-24T09:00:14.000Z|0.5|quit|1|0|main",
        ])
        XCTAssertEqual(try Self.sqlite3(db, "PRAGMA journal_mode; PRAGMA user_version; PRAGMA integrity_check"), ["wal", "5", "ok"])
        XCTAssertEqual(try Self.sqlite3(db, "SELECT DISTINCT screen FROM showings"), ["main"], "a player of one screen: its rows are on main")
        // today's figures for the status (IPC play-stats, MQTT showings_today): the five showings, 12 s on screen; the
        // board had them as of its last post, before the run's end closed the fifth
        XCTAssertEqual(p.services.playStats, PlayStats(day: "2026-12-24", showings: 5, seconds: 12))
        XCTAssertEqual(p.board.status.playStats, PlayStats(day: "2026-12-24", showings: 4, seconds: 11.5))
        let sizes = try Self.sqlite3(db, "SELECT DISTINCT size FROM showings WHERE path LIKE '%a.png'")
        XCTAssertEqual(sizes, [String((try FileManager.default.attributesOfItem(atPath: paths[0])[.size] as? NSNumber)?.intValue ?? -1)])
    }

    /// A layout on the simulated clock: green (5 s) and blue (5 s) loop in region main, a logo (id `logo`) stays in
    /// region side; `notify(fire)` at 3 s shows red for 2 s in a higher class. Hand-computed rows: green 0-3
    /// interrupted, red 3-5 eof, green again 5-7 (its 2 s left) eof, blue 7-10 quit; the logo 0-10 quit, with its
    /// element id; each with the SMIL file and its region.
    func testALayoutsRegionsAndAnInterruptGiveTheHandComputedRows() throws {
        let dir = try TempDir()
        let (p, db, smil) = try Self.layout(in: dir, body: """
            <par><img xml:id="logo" src="white.png" region="side" dur="indefinite"/>
            <excl><priorityClass><img xml:id="alarm" src="red.png" region="main" begin="notify(fire)" dur="2s"/></priorityClass>
            <priorityClass><seq begin="0s" repeatCount="indefinite"><img src="green.png" region="main" dur="5s"/>
            <img src="blue.png" region="main" dur="5s"/></seq></priorityClass></excl></par>
            """, commands: [(3, .trigger(.notify("fire")))])
        _ = try p.run(length: 10)
        let rows = try Self.sqlite3(db, """
            SELECT region, replace(path, '\(dir.path)/', ''), substr(start_utc, 18, 6), substr(end_utc, 18, 6), duration, reason,
              element, layout = '\(smil)', kind FROM showings ORDER BY region, id
            """)
        XCTAssertEqual(rows, [
            "main|green.png|00.000|03.000|3.0|interrupted||1|image",
            "main|red.png|03.000|05.000|2.0|eof|alarm|1|image",
            "main|green.png|05.000|07.000|2.0|eof||1|image",
            "main|blue.png|07.000|10.000|3.0|quit||1|image",
            "side|white.png|00.000|10.000|10.0|quit|logo|1|image",
        ])
    }

    /// A log whose folder cannot be written (here: a file stands where the folder should be, which stops root too)
    /// is one warn line; the showings meanwhile are counted, and once the folder is there logging resumes and says
    /// how many were missed.
    func testAnUnwritableFolderIsOneLineAndLoggingResumes() throws {
        let dir = try TempDir()
        let folder = dir.file("logs")
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: folder))
        let lines = LogLines()
        let store = try PlayLog(path: folder + "/plays.sqlite", log: lines.log)
        let item = ShowingItem(path: "/m/a.png", kind: "image")
        for i in 0..<3 { XCTAssertNil(store.begin(item, at: Date(timeIntervalSince1970: Double(i)))) }
        XCTAssertEqual(lines.matching("play log: cannot write").count, 1)
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let row = try XCTUnwrap(store.begin(item, at: Date(timeIntervalSince1970: 10)))
        store.end(row, at: Date(timeIntervalSince1970: 12), reason: "eof", length: 2, screenOff: 0)
        XCTAssertEqual(lines.matching("writing to \(folder)/plays.sqlite again; 3 showings missed meanwhile").count, 1,
                       "\(lines.matching("play log"))")
        XCTAssertEqual(try Self.sqlite3(folder + "/plays.sqlite", "SELECT count(*), sum(duration) FROM showings"), ["1|2.0"])
    }

    func testADamagedFileIsMovedAsideAndANewOneBegun() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: db))
        let lines = LogLines()
        let store = try PlayLog(path: db, log: lines.log)
        XCTAssertNotNil(store.begin(ShowingItem(path: "/m/a.png", kind: "image"), at: Date(timeIntervalSince1970: 0)))
        let warned = lines.matching("play log: ")
        XCTAssertEqual(warned.count, 1, "\(warned)")
        XCTAssertTrue(warned.first?.contains("is damaged") ?? false, "\(warned)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("plays.sqlite.corrupt-") }
        XCTAssertEqual(aside.count, 1, "the damaged file is kept beside it")
        XCTAssertEqual(try Self.sqlite3(db, "SELECT count(*) FROM showings; PRAGMA integrity_check"), ["1", "ok"])
    }

    /// A log of schema 1 (a file an older kiosk wrote, made here by sqlite3 from that schema) is migrated to 4 in
    /// place: its rows kept, the day index added, and the report by day reads that index alone (EXPLAIN QUERY PLAN of
    /// the report's own query); its rows were on the one screen there was, `main`. Before a player opens it, a
    /// report by screen reads it as `main` too. A log from a newer kiosk is refused, one line, and left as it is.
    func testAnOlderLogIsMigratedAndANewerOneRefused() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        _ = try Self.sqlite3(db, PlayLog.migrations[0] + """
            PRAGMA user_version = 1;
            INSERT INTO showings (start_utc, end_utc, duration, path, kind, reason) VALUES
              ('2026-12-24T09:00:00.000Z', '2026-12-24T09:00:10.000Z', 10, '/m/a.png', 'image', 'eof');
            """)
        let unopened = try CLITests.run(["report", "--play-log", db, "--by", "screen", "--format", "csv"], timeout: 30)
        XCTAssertEqual(unopened.status, 0, unopened.stderr)
        XCTAssertEqual(unopened.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").prefix(3).joined(separator: ",") },
                       ["main,1,10.000"])
        XCTAssertEqual(try Self.sqlite3(db, "PRAGMA user_version"), ["1"], "a report only reads")
        _ = try PlayLog(path: db, log: Log(level: .error))
        XCTAssertEqual(try Self.sqlite3(db, "PRAGMA user_version; SELECT count(*) FROM showings; SELECT name FROM sqlite_master WHERE name = 'showings_by_day'"),
                       ["5", "1", "showings_by_day"])
        XCTAssertEqual(try Self.sqlite3(db, "SELECT screen, path FROM showings"), ["main|/m/a.png"])
        let explained = try BoundedProcess.run("/usr/bin/sqlite3", ["-cmd", ".parameter set ?1 '2026-01-01'", "-cmd", ".parameter set ?2 '2027-01-01'",
                                                                   db, "EXPLAIN QUERY PLAN " + PlayLogReport.query(by: .day, perItem: false)], timeout: 30)
        let plan = String(decoding: explained.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertTrue(plan.contains { $0.contains("COVERING INDEX showings_by_day") }, "\(plan)")
        XCTAssertFalse(plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        let days = try PlayLogReport.rows(path: db, since: nil, until: nil, by: .day)
        XCTAssertEqual(days.map { "\($0.group) \($0.count) \($0.seconds)" }, ["2026-12-24 1 10.0"])
        let newer = dir.file("newer.sqlite")
        _ = try Self.sqlite3(newer, "CREATE TABLE showings (id INTEGER); PRAGMA user_version = 9")
        XCTAssertThrowsError(try PlayLog(path: newer, log: Log(level: .error))) { error in
            XCTAssertTrue("\(error)".contains("schema version 9 is newer than this kiosk's 5"), "\(error)")
        }
        XCTAssertEqual(try Self.sqlite3(newer, "PRAGMA user_version"), ["9"])
    }

    /// 2,000 showings of 7 items in 3 regions of 2 screens over 3 days (seeded), then `kiosk report` by item, hour, day,
    /// region and screen against the same sums from sqlite3 run by hand.
    func testTheReportsFiguresAreSQLite3s() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        let store = try PlayLog(path: db, log: Log(level: .error))
        var rng = SeededGenerator(seed: 27)
        var t = Date(timeIntervalSince1970: 1_798_070_400)  // 2026-12-24T00:00:00Z
        for _ in 0..<2000 {
            let item = ShowingItem(path: "/srv/ads/ad-\(Int.random(in: 1...7, using: &rng)).mp4", kind: "video",
                                   region: ["main", "side", "ticker"][Int.random(in: 0...2, using: &rng)],
                                   screen: ["main", "lobby"][Int.random(in: 0...1, using: &rng)])
            let length = Double(Int.random(in: 1_000...60_000, using: &rng)) / 1000
            let off = Bool.random(using: &rng) ? 0 : Double(Int.random(in: 0...500, using: &rng)) / 1000
            let row = try XCTUnwrap(store.begin(item, at: t))
            store.end(row, at: t.addingTimeInterval(length), reason: "eof", length: length, screenOff: off)
            t = t.addingTimeInterval(length + Double(Int.random(in: 0...120, using: &rng)))
        }
        let cases: [(String, String)] = [
            ("item", "path"), ("hour", "substr(start_utc, 1, 13) || ':00Z'"), ("day", "substr(start_utc, 1, 10)"), ("region", "region"),
            ("screen", "screen"),
        ]
        for (by, key) in cases {
            let r = try CLITests.run(["report", "--play-log", db, "--by", by, "--format", "csv"], timeout: 30)
            XCTAssertEqual(r.status, 0, r.stderr)
            let mine = r.stdout.split(separator: "\n").dropFirst().map { line -> String in
                let f = line.split(separator: ",")
                return "\(f[0])|\(f[1])|\(f[2])"
            }
            let theirs = try Self.sqlite3(db, "SELECT \(key) AS g, count(*), printf('%.3f', total(duration)) FROM showings GROUP BY g ORDER BY g")
            XCTAssertEqual(mine, theirs, "by \(by)")
            XCTAssertGreaterThan(theirs.count, by == "day" || by == "screen" ? 1 : 2)
        }
        // --since and --until are local times in --timezone: Berlin's 2026-12-25 is 23:00Z the day before to 23:00Z
        let r = try CLITests.run(["report", "--play-log", db, "--since", "2026-12-25", "--until", "2026-12-26", "--timezone",
                                  "Europe/Berlin", "--format", "csv", "--by", "day"], timeout: 30)
        let total = r.stdout.split(separator: "\n").dropFirst().compactMap { Int($0.split(separator: ",")[1]) }.reduce(0, +)
        let expected = try Self.sqlite3(db, "SELECT count(*) FROM showings WHERE start_utc >= '2026-12-24T23:00:00.000Z' AND start_utc < '2026-12-25T23:00:00.000Z'")
        XCTAssertEqual([String(total)], expected)
        // Xibo's stats XML against a schema written from Xibo's XMDS SubmitStats documentation: <stats> of <stat>
        // with type, fromdt and todt ("Y-m-d H:i:s"), scheduleid, layoutid, mediaid, tag, count and duration
        let xsd = dir.file("xibo-stats.xsd")
        try """
            <?xml version="1.0"?>
            <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
              <xs:simpleType name="when"><xs:restriction base="xs:string">
                <xs:pattern value="[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}"/></xs:restriction></xs:simpleType>
              <xs:element name="stats"><xs:complexType><xs:sequence>
                <xs:element name="stat" minOccurs="0" maxOccurs="unbounded"><xs:complexType>
                  <xs:attribute name="type" use="required"><xs:simpleType><xs:restriction base="xs:string">
                    <xs:enumeration value="layout"/><xs:enumeration value="media"/><xs:enumeration value="widget"/>
                    <xs:enumeration value="event"/></xs:restriction></xs:simpleType></xs:attribute>
                  <xs:attribute name="fromdt" type="when" use="required"/>
                  <xs:attribute name="todt" type="when" use="required"/>
                  <xs:attribute name="scheduleid" type="xs:integer" use="required"/>
                  <xs:attribute name="layoutid" type="xs:integer" use="required"/>
                  <xs:attribute name="mediaid" type="xs:string"/>
                  <xs:attribute name="tag" type="xs:string"/>
                  <xs:attribute name="count" type="xs:positiveInteger" use="required"/>
                  <xs:attribute name="duration" type="xs:nonNegativeInteger" use="required"/>
                </xs:complexType></xs:element>
              </xs:sequence></xs:complexType></xs:element>
            </xs:schema>
            """.write(toFile: xsd, atomically: true, encoding: .utf8)
        let xibo = try CLITests.run(["report", "--play-log", db, "--by", "day", "--format", "xibo"], timeout: 30)
        XCTAssertEqual(xibo.status, 0, xibo.stderr)
        let xml = dir.file("stats.xml")
        try xibo.stdout.write(toFile: xml, atomically: true, encoding: .utf8)
        let lint = try BoundedProcess.run("/usr/bin/xmllint", ["--noout", "--schema", xsd, xml], timeout: 30)
        XCTAssertEqual(lint.status, 0, String(decoding: lint.stderr, as: UTF8.self))
        // one <stat> per item and day, whose counts add up to every showing
        let counts = xibo.stdout.components(separatedBy: "count=\"").dropFirst().compactMap { Int($0.prefix { $0 != "\"" }) }
        XCTAssertEqual([String(counts.reduce(0, +))], try Self.sqlite3(db, "SELECT count(*) FROM showings"))
        XCTAssertEqual([String(counts.count)], try Self.sqlite3(db, "SELECT count(DISTINCT path || substr(start_utc, 1, 10)) FROM showings"))
        // a missing log is one line, exit 1; a bad time is a usage error
        let missing = try CLITests.run(["report", "--play-log", dir.file("none.sqlite")], timeout: 30)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "kiosk: error: report: \(dir.file("none.sqlite")): no such file\n")
        let bad = try CLITests.run(["report", "--play-log", db, "--since", "yesterday"], timeout: 30)
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "kiosk: --since: 'yesterday' is not YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|+HH:MM|-HH:MM] (a date is YYYY-MM-DD)\n")
    }
}
