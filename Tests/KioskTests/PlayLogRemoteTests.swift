import Foundation
import KioskCore
@testable import KioskFleet
import KioskPlayLog
import XCTest

/// The play log read from outside while kiosk plays: `kiosk ctl report` through the IPC socket gives what
/// `kiosk report` gives on the same file (and `sqlite3` counts the same); MQTT's `kiosk/ID/stats` carries today's
/// figures, retained, on connecting and on request. Without a play log each says so in one line.
final class PlayLogRemoteTests: MQTTFleetTestCase {
    /// kiosk plays three stills of 0.4 s until a few showings have ended, then is paused so the log holds still.
    private func playUntilLogged(_ extra: [String], log db: String?) throws -> LiveProcess {
        let p = try LiveProcess(["play", "--output", "headless", "--size", "160x90", "--duration", "0.4", "--transition", "none",
                                 "--no-state", "--no-watch", "--log-level", "debug"] + (db.map { ["--play-log", $0, "--play-log-batch", "0"] } ?? []) + extra
                                + (try pictures()))
        kiosks.append(p)
        XCTAssertTrue(p.waitFor("first frame presented", timeout: 30), p.stderr)
        if db != nil { XCTAssertTrue(p.waitFor("ended ", count: 5, timeout: 30), p.stderr) }
        return p
    }

    func testCtlReportThroughTheSocketIsKioskReportsOwn() throws {
        let sock = dir.file("ipc.sock"), db = dir.file("plays.sqlite")
        let p = try playUntilLogged(["--input-ipc-server", sock], log: db)
        let paused = try CLITests.run(["ctl", "--socket", sock, "pause"], timeout: 20)
        XCTAssertEqual(paused.status, 0, paused.stderr)
        let closed = try PlayLogTests.sqlite3(db, "SELECT count(*) FROM showings WHERE end_utc IS NOT NULL")
        XCTAssertGreaterThanOrEqual(Int(closed.first ?? "") ?? 0, 5, "\(closed)")
        for args in [["--format", "csv"], ["--by", "day", "--format", "json"], ["--by", "region"], ["--format", "xibo"],
                     ["--since", "2000-01-01", "--until", "2000-01-02T12:00"], ["--by", "verdict", "--verdict", "all"]] {
            let remote = try CLITests.run(["ctl", "--socket", sock, "report"] + args, timeout: 20)
            let local = try CLITests.run(["report", "--play-log", db] + args, timeout: 20)
            XCTAssertEqual(remote.status, 0, remote.stderr)
            XCTAssertEqual(local.status, 0, local.stderr)
            XCTAssertEqual(remote.stdout, local.stdout, "\(args)")
        }
        // the figures are sqlite3's: the showings that ended, by item (all of them: a headless screen's are `unknown`)
        let csv = try CLITests.run(["ctl", "--socket", sock, "report", "--format", "csv", "--verdict", "all"], timeout: 20).stdout
        let counts = csv.split(separator: "\n").dropFirst().map { line in line.split(separator: ",")[1] }.compactMap { Int($0) }
        XCTAssertEqual(counts.reduce(0, +), Int(closed.first ?? ""), csv)
        XCTAssertEqual(counts.count, 3, csv)
        // a 2000 window: nothing in it, the header and the total line only
        let empty = try CLITests.run(["ctl", "--socket", sock, "report", "--until", "2000-01-01"], timeout: 20)
        XCTAssertEqual(empty.stdout.split(separator: "\n").count, 2, empty.stdout)
        // bad input: one line each, exit 2, nothing sent
        for (args, says) in [(["--by", "week"], "--by 'week' is not item, hour, day, region, screen or verdict"),
                             (["--format", "pdf"], "--format 'pdf' is not table, csv, json or xibo"),
                             (["--since", "yesterday"], "ctl report: --since: 'yesterday' is not YYYY-MM-DD"),
                             (["--until", "2026-13-45"], "ctl report: --until: '2026-13-45' is not YYYY-MM-DD")] {
            let bad = try CLITests.run(["ctl", "--socket", sock, "report"] + args, timeout: 20)
            XCTAssertEqual(bad.status, 2, bad.stderr)
            XCTAssertTrue(bad.stderr.contains(says), bad.stderr)
        }
        let stray = try CLITests.run(["ctl", "--socket", sock, "next", "--by", "day"], timeout: 20)
        XCTAssertEqual(stray.status, 2, stray.stderr)
        // the raw request: a time without a zone is refused by the server
        let c = try IPCConnection(path: sock)
        XCTAssertEqual(try c.request(#"["play-report","item","table","2026-12-06T08:00"]"#)["error"], .string("invalid parameter"))
        stop(p)
    }

    func testWithoutAPlayLogCtlReportSaysSo() throws {
        let sock = dir.file("ipc.sock")
        let p = try playUntilLogged(["--input-ipc-server", sock], log: nil)
        let r = try CLITests.run(["ctl", "--socket", sock, "report"], timeout: 20)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("error running command (is the player writing a play log?"), r.stderr)
        XCTAssertTrue(p.waitFor("ipc: play-report: there is no play log", timeout: 10), p.stderr)
        stop(p)
    }

    /// `kiosk/ID/stats`: today's figures, retained, published on connecting and again on `cmd/stats`; they equal
    /// what `kiosk report` counts for today.
    func testMQTTStatsAreTodaysFiguresOnConnectingAndOnRequest() throws {
        let db = dir.file("plays.sqlite")
        let p = try playUntilLogged(["--mqtt", broker.address, "--mqtt-id", "hall"], log: db)
        XCTAssertTrue(p.waitFor("mqtt: connected to", timeout: 30), p.stderr)
        let first = try XCTUnwrap(try clients.retained("kiosk/hall/stats", seconds: 10), p.stderr)
        XCTAssertNotNil(first["day"]?.string)
        XCTAssertEqual(first["timezone"], .string(TimeZone.current.identifier))
        // paused: the log holds still; a request publishes the figures as they are now
        try clients.publish("kiosk/hall/cmd/pause", "")
        XCTAssertNotNil(try state("hall") { $0["paused"] == .bool(true) }, p.stderr)
        try clients.publish("kiosk/hall/cmd/stats", "")
        XCTAssertTrue(p.waitFor("mqtt: kiosk/hall/cmd/stats: today's figures on kiosk/hall/stats", timeout: 10), p.stderr)
        let now = try XCTUnwrap(try clients.wait("kiosk/hall/stats", seconds: 10) { $0["as_of"] != first["as_of"] })
        let today = try PlayLogTests.sqlite3(db, "SELECT count(*), round(total(duration), 3) FROM showings WHERE end_utc IS NOT NULL")
        guard case .int(let showings)? = now["showings"], case .array(let items)? = now["items"] else { return XCTFail("\(now)") }
        let figures = (today.first ?? "").split(separator: "|")
        XCTAssertEqual(String(showings), figures.first.map(String.init), now.text)
        XCTAssertEqual(now["seconds"]?.number ?? -1, Double(figures.last ?? "") ?? -2, accuracy: 0.002, now.text)
        XCTAssertGreaterThanOrEqual(showings, 5)
        XCTAssertEqual(items.count, 3, now.text)
        stop(p)
    }

    func testMQTTStatsWithoutAPlayLogIsOneLine() throws {
        let p = try playUntilLogged(["--mqtt", broker.address, "--mqtt-id", "hall"], log: nil)
        XCTAssertTrue(p.waitFor("mqtt: connected to", timeout: 30), p.stderr)
        try clients.publish("kiosk/hall/cmd/stats", "")
        XCTAssertTrue(p.waitFor("mqtt: kiosk/hall/cmd/stats: refused: there is no play log", timeout: 10), p.stderr)
        XCTAssertNil(try clients.retained("kiosk/hall/stats", seconds: 2))
        stop(p)
    }
}

/// The rules beneath the remotes' reports, without a player.
final class PlayReportRuleTests: XCTestCase {
    /// The stats are published at the top of each local hour, in a zone half an hour off UTC too.
    func testTheNextStatsAreAtTheTopOfTheLocalHour() throws {
        let now = Date(timeIntervalSince1970: 1_798_102_800 + 125)  // 2026-12-24 09:02:05 UTC
        XCTAssertEqual(FleetClient.secondsToNextHour(after: now, in: try XCTUnwrap(TimeZone(identifier: "UTC"))), 3475)
        // Kolkata is UTC+5:30: 14:32:05 there, so its next hour is 27 min 55 s away
        XCTAssertEqual(FleetClient.secondsToNextHour(after: now, in: try XCTUnwrap(TimeZone(identifier: "Asia/Kolkata"))), 1675)
        // the zone is the play log's (the player's --timezone), not the system's, once the log is open
        let reports = PlayReports()
        let kolkata = try XCTUnwrap(TimeZone(identifier: "Asia/Kolkata"))
        PlayLogRemote.connect(reports, path: "/nonexistent/plays.sqlite", zone: kolkata)
        XCTAssertEqual(reports.zone, kolkata)
        XCTAssertThrowsError(try reports.today(at: now), "a missing file is refused, not made")
    }

    /// What ctl and the IPC check are the report's own groupings and formats.
    func testTheRemoteNamesAreTheReportsOwn() {
        XCTAssertEqual(PlayReportQuery.groupings, PlayLogReport.Grouping.allCases.map(\.rawValue))
        XCTAssertEqual(PlayReportQuery.formats, PlayLogReport.Format.allCases.map(\.rawValue))
        XCTAssertEqual(PlayReportQuery.instant("2026-12-06T09:00:00.250+01:00")?.timeIntervalSince1970, 1_796_544_000.25)
        XCTAssertNil(PlayReportQuery.instant("2026-12-06T08:00"))
    }
}
