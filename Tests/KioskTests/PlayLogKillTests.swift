import Foundation
import KioskCore
import XCTest

/// kill -9 at seeded random moments, 50 times, of `kiosk play` writing its play log row by row (`--play-log-batch 0`;
/// the batched default's kill is PlayLogChainTests'), with stills of 0.3 s so rows open and close all the time:
/// after each kill `PRAGMA integrity_check` (sqlite3's) is ok and every row closed before
/// is still there as it was; after each next start, every row the kill left open is closed as `crash` at its last
/// heartbeat; and `kiosk report --verify` finds the chain whole, each kill a recorded break.
final class PlayLogKillTests: XCTestCase {
    func testKillNineNeverLosesAClosedRowAndOpenOnesCloseAsCrash() throws {
        let dir = try TempDir()
        let pictures = try ["red", "green", "blue"].map { try ColourPictures.make(dir, "\($0).png", $0) }
        let db = dir.file("plays.sqlite")
        var rng = SeededGenerator(seed: 2027)
        var closed: [String: String] = [:]  // id -> the whole row, as sqlite3 prints it
        var open: [String] = []
        var crashes = 0
        func rows(_ sql: String) throws -> [String] { try PlayLogTests.sqlite3(db, sql) }
        for round in 0..<50 {
            let p = try LiveProcess(["play", "--output", "headless", "--size", "64x36", "--duration", "0.3", "--transition", "none",
                                     "--no-state", "--play-log", db, "--play-log-batch", "0", "--log-level", "info"] + pictures)
            XCTAssertTrue(p.waitFor("play log: kept in", timeout: 30), "round \(round): \(p.stderr)")
            XCTAssertTrue(p.waitFor("first frame presented", timeout: 30), "round \(round): \(p.stderr)")
            if !open.isEmpty {
                XCTAssertTrue(p.stderr.contains("play log: closed \(open.count) showing"), "round \(round): \(p.stderr)")
            }
            Thread.sleep(forTimeInterval: Double(Int.random(in: 0...1500, using: &rng)) / 1000)
            p.send(SIGKILL)
            _ = p.finish(timeout: 20)
            // what the last start closed: the rows the kill before left open, as crash
            for id in open {
                let r = try rows("SELECT reason, end_utc = heartbeat_utc, end_utc IS NOT NULL FROM showings WHERE id = \(id)")
                XCTAssertEqual(r, ["crash|1|1"], "round \(round): row \(id) left open by the kill before")
                crashes += 1
            }
            XCTAssertEqual(try rows("PRAGMA integrity_check"), ["ok"], "round \(round)")
            let now = try rows("SELECT id, start_utc, end_utc, duration, path, reason FROM showings WHERE end_utc IS NOT NULL")
            let byID = Dictionary(now.map { (String($0.prefix { $0 != "|" }), $0) }, uniquingKeysWith: { a, _ in a })
            for (id, row) in closed {
                XCTAssertEqual(byID[id], row, "round \(round): closed row \(id) lost or changed")
            }
            closed = byID
            open = try rows("SELECT id FROM showings WHERE end_utc IS NULL")
            XCTAssertLessThanOrEqual(open.count, 1, "round \(round): one showing is open at a time")
        }
        XCTAssertGreaterThan(closed.count, 50)
        XCTAssertGreaterThan(crashes, 10, "kills mostly land while a showing is open")
        // the chain survives every kill: each crash is a recorded break, not an error (the last kill's open row waits)
        let (status, line) = try PlayLogChainTests.verify(db)
        XCTAssertEqual(status, 0, line)
        XCTAssertTrue(line.contains("recorded breaks"), line)
        print("play log kill test: 50 kills, \(closed.count) closed rows kept, \(crashes) closed as crash")
    }
}
