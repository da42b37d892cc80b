import Foundation
import KioskCore
@testable import KioskPlayer
@_spi(Bench) @testable import KioskPlayLog
import XCTest

/// Proof of display (docs/proof-of-play.md): each showing's row says what the display side knew while it was shown
/// and a verdict; `kiosk report` counts only `seen` showings (the others said apart), Xibo's export leaves the others
/// out, and a verdict changed with sqlite3 is found by `--verify`.
final class PlayLogProofTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    /// The rule, moment by moment, and a showing keeping its worst moment.
    func testTheVerdictRule() {
        XCTAssertEqual(ShowingVerdict.judge(displayState: "connected", screenOff: false, cecPower: "on"), .seen)
        XCTAssertEqual(ShowingVerdict.judge(displayState: "connected", screenOff: false, cecPower: "unknown"), .seen, "no CEC: the connector says")
        XCTAssertEqual(ShowingVerdict.judge(displayState: "connected", screenOff: false, cecPower: "standby"), .tvStandby)
        XCTAssertEqual(ShowingVerdict.judge(displayState: "connected", screenOff: false, cecPower: "to-standby"), .tvStandby)
        XCTAssertEqual(ShowingVerdict.judge(displayState: "connected", screenOff: true, cecPower: "standby"), .screenOff)
        XCTAssertEqual(ShowingVerdict.judge(displayState: "disconnected", screenOff: true, cecPower: "on"), .displayAbsent)
        XCTAssertEqual(ShowingVerdict.judge(displayState: "none", screenOff: false, cecPower: "on"), .unknown, "headless: nothing was seen")
        XCTAssertEqual(ShowingVerdict.judge(displayState: "unknown", screenOff: false, cecPower: "unknown"), .unknown)
        let on = ShowingDisplay(state: "connected", id: "GSM product 23305 serial 1 \"LG TV\"", cecPower: "on", thumb: "ab")
        let standby = ShowingDisplay(state: "connected", id: on.id, cecPower: "standby")
        XCTAssertEqual(on.worse(standby).verdict, .tvStandby)
        XCTAssertEqual(on.worse(standby).thumb, "ab", "the thumbnail of its start is kept")
        XCTAssertEqual(standby.worse(on), standby, "a better moment later does not make it seen")
        // a showing that began before the display's first reading takes the first one that knows; once known, the
        // worst moment stays (an unknown reading later is worse than seen)
        let notYet = ShowingDisplay(state: "unknown", thumb: "cd")
        XCTAssertEqual(notYet.worse(on).verdict, .seen)
        XCTAssertEqual(notYet.worse(on).thumb, "cd", "the thumbnail of its start is kept")
        XCTAssertEqual(notYet.worse(standby).verdict, .tvStandby)
        XCTAssertEqual(on.worse(notYet).verdict, .unknown)
        XCTAssertEqual(notYet.worse(ShowingDisplay(state: "none")), notYet, "nothing known either way")
    }

    /// A screen's connectors together, as the health monitor read them: one connected is enough; all disconnected
    /// is absent; a headless output's entry is `none`; otherwise unknown.
    func testAScreensDisplaysTogether() {
        let time = WallInstant(clamping: Date(timeIntervalSince1970: 1_798_102_800))
        func d(_ state: String) -> DisplayHealth { DisplayHealth(screen: "main", connector: "HDMI-A-1", state: state, time: time) }
        XCTAssertEqual(PlayerPlayLog.connector(of: [d("disconnected"), d("connected")]).state, "connected")
        XCTAssertEqual(PlayerPlayLog.connector(of: [d("disconnected"), d("disconnected")]).state, "disconnected")
        XCTAssertEqual(PlayerPlayLog.connector(of: [d("none")]).state, "none")
        XCTAssertEqual(PlayerPlayLog.connector(of: [d("disconnected"), d("unknown")]).state, "unknown")
        XCTAssertEqual(ShowingDisplay(state: PlayerPlayLog.connector(of: [d("disconnected")]).state, cecPower: "on").verdict, .displayAbsent)
    }

    /// a, b, c stills of 4 s on a headless output (no display: `none`) on the simulated clock: the screen is off
    /// from 5 to 7 s (during b), the TV in standby per CEC from 9 to 10 s (during c); a and the last b are `unknown`.
    func testScreenOffAndTVStandbyGiveTheirVerdicts() throws {
        let dir = try TempDir()
        let (p, db, _) = try PlayLogTests.slideshow(in: dir) { _ in
            [(5.0, PlayerCommand.screen(on: false)), (7.0, .screen(on: true)), (9.0, .tvPower(.standby)), (10.0, .tvPower(.on))]
        }
        _ = try p.run(length: 14)
        let rows = try PlayLogTests.sqlite3(db, "SELECT substr(path, -5), display_state, quote(display_id), cec_power, verdict, chain_v FROM showings ORDER BY id")
        XCTAssertEqual(rows, [
            "a.png|none|NULL|unknown|unknown|2",
            "b.png|none|NULL|unknown|screen-off|2",
            "c.png|none|NULL|standby|tv-standby|2",
            "a.png|none|NULL|on|unknown|2",
        ])
        let (status, line) = try PlayLogChainTests.verify(db)
        XCTAssertEqual(status, 0, line)

        // the proof thumbnails: one per distinct picture (a shown twice), each row naming its own
        XCTAssertEqual(try PlayLogTests.sqlite3(db, """
            SELECT count(*), min(width), min(height) FROM thumbs; SELECT count(DISTINCT thumb), count(thumb) FROM showings;
            SELECT count(*) FROM showings s JOIN thumbs t ON substr(t.hash, 1, 16) = s.thumb
            """), ["3|32|18", "3|4", "4"])
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT count(DISTINCT thumb) FROM showings WHERE path LIKE '%a.png'"), ["1"])
        // a's pixels against ffmpeg's own: the still fitted into the 160x90 screen (pillarboxed), scaled to 32x18
        let hex = try XCTUnwrap(PlayLogTests.sqlite3(db, "SELECT rgb FROM thumbs WHERE substr(hash, 1, 16) = (SELECT thumb FROM showings WHERE id = 1)").first)
        let ours = Self.bytes(hex)
        let raw = dir.file("a.rgb")
        try FFmpegCLI.ffmpeg(["-i", dir.file("a.png"), "-vf", "scale=120:90,pad=160:90:20:0:black,scale=32:18:flags=area",
                              "-f", "rawvideo", "-pix_fmt", "rgb24", raw])
        let theirs = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        XCTAssertEqual(ours.count, 32 * 18 * 3)
        XCTAssertEqual(theirs.count, ours.count)
        let centre = (9 * 32 + 16) * 3
        XCTAssertTrue(ColourPictures.near(ours[centre..<centre + 3].map(Int.init), [255, 0, 0]), "red in the middle: \(ours[centre..<centre + 3])")
        // the still's edges are sampled, not averaged: a column either side may differ; the rest is the same picture
        let pixels = ours.count / 3
        let close = (0..<pixels).filter { p in (0..<3).allSatisfy { abs(Int(ours[p * 3 + $0]) - Int(theirs[p * 3 + $0])) <= 12 } }.count
        XCTAssertGreaterThanOrEqual(close, pixels - 2 * 18, "\(close) of \(pixels) pixels as ffmpeg has them")
    }

    /// The bytes of lower-case hex text.
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).compactMap { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) }
    }

    /// Rows of each verdict (and one from before proof of display, without one): the report counts the seen ones
    /// and the old one, says the others under its total, counts all with `--verdict all`, and Xibo's export has
    /// only the seen items; the log verifies, and a verdict changed with sqlite3 is found by `--verify`.
    func testTheReportCountsOnlySeenShowingsAndATamperedVerdictIsFound() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        let store = try PlayLog(path: db, log: Log(level: .error))
        let t0 = Date(timeIntervalSince1970: 1_798_102_800)
        let connected = ShowingDisplay(state: "connected", id: "GSM product 23305 serial 12345 \"LG TV\"", cecPower: "on")
        let cases: [(String, ShowingDisplay?)] = [
            ("/m/seen.png", connected),
            ("/m/old.png", nil),
            ("/m/off.png", ShowingDisplay(state: "connected", id: connected.id, cecPower: "on", screenOff: true)),
            ("/m/standby.png", ShowingDisplay(state: "connected", id: connected.id, cecPower: "standby")),
            ("/m/absent.png", ShowingDisplay(state: "disconnected")),
            ("/m/headless.png", ShowingDisplay(state: "none")),
            ("/m/seen.png", connected),
        ]
        for (i, (path, display)) in cases.enumerated() {
            let start = t0.addingTimeInterval(Double(i) * 10)
            let id = try XCTUnwrap(store.begin(ShowingItem(path: path, kind: "image"), at: start, display: display))
            store.end(id, at: start.addingTimeInterval(10), reason: "eof", length: 10, screenOff: 0, display: display)
        }
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT count(*) FROM showings WHERE chain_v = 2; SELECT count(*) FROM showings WHERE chain_v = 1"),
                       ["6", "1"], "the row without a verdict is chained as kiosk-showing-v1")

        let table = try CLITests.run(["report", "--play-log", db], timeout: 30)
        XCTAssertEqual(table.status, 0, table.stderr)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        let cells = lines.map { $0.split(separator: " ").joined(separator: " ") }
        XCTAssertTrue(cells.contains("/m/seen.png 2 20.000"), table.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("/m/old.png") }, "a row from before proof of display counts as seen: \(table.stdout)")
        XCTAssertFalse(lines.contains { $0.hasPrefix("/m/off.png") }, table.stdout)
        XCTAssertTrue(cells.contains("total 3 30.000"), table.stdout)
        XCTAssertEqual(lines.last, "not counted (not seen): display-absent 1 (10.000 s), screen-off 1 (10.000 s), tv-standby 1 (10.000 s), unknown 1 (10.000 s)")

        let all = try CLITests.run(["report", "--play-log", db, "--verdict", "all", "--by", "verdict", "--format", "csv"], timeout: 30)
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertEqual(all.stdout.split(separator: "\n").map { $0.split(separator: ",").prefix(2).joined(separator: ",") },
                       ["verdict,showings", "display-absent,1", "screen-off,1", "seen,3", "tv-standby,1", "unknown,1"])
        let standby = try CLITests.run(["report", "--play-log", db, "--verdict", "tv-standby", "--format", "csv"], timeout: 30)
        XCTAssertEqual(standby.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") },
                       ["/m/standby.png,1"])

        let xibo = try CLITests.run(["report", "--play-log", db, "--format", "xibo"], timeout: 30)
        XCTAssertEqual(xibo.status, 0, xibo.stderr)
        let media = xibo.stdout.components(separatedBy: "mediaid=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
        XCTAssertEqual(media, ["/m/old.png", "/m/seen.png"], xibo.stdout)
        let refused = try CLITests.run(["report", "--play-log", db, "--format", "xibo", "--verdict", "all"], timeout: 30)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("counts only seen"), refused.stderr)

        let key = PlayLogKey.text(ofPublicKey: try PlayLogKey.load(at: db + ".key").publicKey)
        let (good, goodLine) = try PlayLogChainTests.verify(db)
        XCTAssertEqual(good, 0, goodLine)
        let tampered = try PlayLogChainTests.copy(db, to: "tampered.sqlite", in: dir)
        _ = try PlayLogTests.sqlite3(tampered, "UPDATE showings SET verdict = 'seen' WHERE path = '/m/standby.png'")
        let (bad, badLine) = try PlayLogChainTests.verify(tampered, key: key)
        XCTAssertEqual(bad, 1, badLine)
        XCTAssertTrue(badLine.contains("row 4 does not match its chain"), badLine)
        let downgraded = try PlayLogChainTests.copy(db, to: "downgraded.sqlite", in: dir)
        _ = try PlayLogTests.sqlite3(downgraded, "UPDATE showings SET verdict = NULL, chain_v = 1 WHERE path = '/m/absent.png'")
        let (old, oldLine) = try PlayLogChainTests.verify(downgraded, key: key)
        XCTAssertEqual(old, 1, oldLine)
        XCTAssertTrue(oldLine.contains("row 5 does not match its chain"), oldLine)
    }

    /// `kiosk play` on a headless output: its rows say `none` (no display) and `unknown` (nothing was seen), and the
    /// report counts none of them.
    func testAHeadlessRunsShowingsAreUnknown() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        _ = try PlayLogChainTests.play(dir, db: db, seconds: 2, ["--play-log-batch", "0"])
        let rows = try PlayLogTests.sqlite3(db, "SELECT DISTINCT display_state, quote(display_id), cec_power, verdict FROM showings")
        XCTAssertEqual(rows, ["none|NULL|unknown|unknown"])
        XCTAssertGreaterThan(Int(try PlayLogTests.sqlite3(db, "SELECT count(*) FROM showings").first ?? "") ?? 0, 2)
        let report = try CLITests.run(["report", "--play-log", db, "--format", "csv"], timeout: 30)
        XCTAssertEqual(report.stdout, "item,showings,seconds,first,last\n", report.stderr)
        let (status, line) = try PlayLogChainTests.verify(db)
        XCTAssertEqual(status, 0, line)
    }
}
