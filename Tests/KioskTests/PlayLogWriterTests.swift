import Foundation
import KioskCore
@testable import KioskPlayLog
import XCTest

/// `PlayLogWriter`, the play log's own thread: a hand-over never waits, even while another connection holds the
/// lock; a full queue drops whole showings (counted, one line) and never the end of one it kept; the rows carry the
/// times the player gave; a log deleted under it is noticed and begun anew with what is on screen.
final class PlayLogWriterTests: XCTestCase {
    private let item = ShowingItem(path: "/m/a.png", kind: "image")
    private func at(_ s: Double) -> Date { Date(timeIntervalSince1970: 1_798_102_800 + s) }

    /// The lock held by another connection: 10 showings handed over in well under a millisecond each; the queue
    /// (4) keeps the first 4 whole and drops the other 6 whole; once the lock goes the 4 are written with their own
    /// times, and two lines say so.
    func testAFullQueueDropsWholeShowingsAndAHandOverNeverWaits() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        let lines = LogLines()
        let store = try PlayLog(path: db, log: lines.log, busy: 0.05)
        let other = try SQLiteDatabase(path: db)
        try other.execute("BEGIN EXCLUSIVE")
        let writer = PlayLogWriter(store: store, log: lines.log, capacity: 4, retry: 0.05)
        let started = Date()
        for i in 0..<10 {
            let s = writer.begin(item, at: at(Double(i)), screenOn: true)
            writer.end(s, at: at(Double(i) + 1), reason: "eof", length: 1, screenOff: 0)
        }
        let handOver = Date().timeIntervalSince(started)
        XCTAssertLessThan(handOver, 0.05, "20 hand-overs while the log is locked")
        XCTAssertFalse(writer.flush(timeout: 0.5), "nothing can be written while the lock is held")
        XCTAssertEqual(lines.matching("play log: \(db) not written within 0.5 s (database is locked); 9 changes left, 4 of them new showings").count, 1,
                       "\(lines.matching("play log"))")
        XCTAssertEqual(lines.matching("play log: waiting for \(db) (database is locked)").count, 1, "\(lines.matching("play log"))")
        try other.execute("COMMIT")
        XCTAssertTrue(writer.flush(timeout: 5))
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT start_utc, end_utc, duration, reason FROM showings ORDER BY id"), [
            "2026-12-24T09:00:00.000Z|2026-12-24T09:00:01.000Z|1.0|eof",
            "2026-12-24T09:00:01.000Z|2026-12-24T09:00:02.000Z|1.0|eof",
            "2026-12-24T09:00:02.000Z|2026-12-24T09:00:03.000Z|1.0|eof",
            "2026-12-24T09:00:03.000Z|2026-12-24T09:00:04.000Z|1.0|eof",
        ])
        XCTAssertEqual(lines.matching("play log: writing to \(db) again; 4 showings written late, 6 dropped (the queue was full)").count, 1,
                       "\(lines.matching("play log"))")
        XCTAssertEqual(lines.matching("play log").count, 3, "\(lines.matching("play log"))")
        writer.finish(timeout: 1)
    }

    /// A log that cannot be written (a file stands where its folder should be, as a full or read-only disk would
    /// refuse it): the showings wait in the queue, one line says so, and once the folder is there they are written
    /// with their own times, one line saying how many were late.
    func testAnUnwritableLogHoldsShowingsBackUntilItCanBeWritten() throws {
        let dir = try TempDir()
        let folder = dir.file("logs")
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: folder))
        let db = folder + "/plays.sqlite"
        let lines = LogLines()
        let writer = PlayLogWriter(store: try PlayLog(path: db, log: lines.log), log: lines.log, retry: 0.05)
        for i in 0..<3 {
            let s = writer.begin(item, at: at(Double(i) * 2), screenOn: true)
            writer.end(s, at: at(Double(i) * 2 + 1.5), reason: "eof", length: 1.5, screenOff: 0)
        }
        XCTAssertFalse(writer.flush(timeout: 0.3))
        XCTAssertEqual(lines.matching("play log: waiting for \(db)").count, 1, "\(lines.matching("play log"))")
        // one line for the one failure: the log's opening does not say it as well
        XCTAssertEqual(lines.matching("play log: cannot write").count, 0, "\(lines.matching("play log"))")
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        XCTAssertTrue(writer.flush(timeout: 5))
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT start_utc, end_utc, duration FROM showings ORDER BY id"), [
            "2026-12-24T09:00:00.000Z|2026-12-24T09:00:01.500Z|1.5",
            "2026-12-24T09:00:02.000Z|2026-12-24T09:00:03.500Z|1.5",
            "2026-12-24T09:00:04.000Z|2026-12-24T09:00:05.500Z|1.5",
        ])
        XCTAssertEqual(lines.matching("play log: writing to \(db) again; 3 showings written late, 0 dropped").count, 1,
                       "\(lines.matching("play log"))")
        writer.finish(timeout: 1)
    }

    /// The log deleted while a showing is on screen (as `rm` or a careless web request would): within a second
    /// the writer says so in one line and begins a new file, with that showing in it; what follows is written there.
    func testADeletedLogIsNoticedAndBegunAnew() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        let lines = LogLines()
        let writer = PlayLogWriter(store: try PlayLog(path: db, log: lines.log), log: lines.log)
        let first = writer.begin(item, at: at(0), screenOn: true)
        XCTAssertTrue(writer.flush(timeout: 5))
        try FileManager.default.removeItem(atPath: db)
        let deadline = Date(timeIntervalSinceNow: 5)
        while lines.matching("was deleted or replaced").isEmpty, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(lines.matching("play log: \(db) was deleted or replaced while kiosk wrote it; began a new one (1 showing on screen written into it again)").count,
                       1, "\(lines.matching("play log"))")
        writer.end(first, at: at(3), reason: "eof", length: 3, screenOff: 0)
        let second = writer.begin(ShowingItem(path: "/m/b.png", kind: "image"), at: at(3), screenOn: true)
        writer.end(second, at: at(5), reason: "quit", length: 2, screenOff: 0)
        XCTAssertTrue(writer.flush(timeout: 5))
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT path, start_utc, end_utc, duration, reason FROM showings ORDER BY id"), [
            "/m/a.png|2026-12-24T09:00:00.000Z|2026-12-24T09:00:03.000Z|3.0|eof",
            "/m/b.png|2026-12-24T09:00:03.000Z|2026-12-24T09:00:05.000Z|2.0|quit",
        ])
        XCTAssertEqual(lines.matching("was deleted or replaced").count, 1)
        writer.finish(timeout: 1)
    }

    /// A showing that ended after the file was deleted but before the writer looked (its end went into the deleted
    /// file) is written whole into the new one, with the showing on screen by then.
    func testAShowingEndedJustAfterTheLogWasDeletedIsKept() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        let lines = LogLines()
        let writer = PlayLogWriter(store: try PlayLog(path: db, log: lines.log), log: lines.log)
        let first = writer.begin(item, at: at(0), screenOn: true)
        XCTAssertTrue(writer.flush(timeout: 5))
        try FileManager.default.removeItem(atPath: db)
        writer.end(first, at: at(3), reason: "eof", length: 3, screenOff: 0.5)
        let second = writer.begin(ShowingItem(path: "/m/b.png", kind: "image"), at: at(3), screenOn: true)
        XCTAssertTrue(writer.flush(timeout: 5))
        let deadline = Date(timeIntervalSinceNow: 5)
        while lines.matching("was deleted or replaced").isEmpty, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(lines.matching("was deleted or replaced").count, 1, "\(lines.matching("play log"))")
        writer.end(second, at: at(5), reason: "quit", length: 2, screenOff: 0)
        XCTAssertTrue(writer.flush(timeout: 5))
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT path, start_utc, end_utc, duration, reason FROM showings ORDER BY start_utc"), [
            "/m/a.png|2026-12-24T09:00:00.000Z|2026-12-24T09:00:03.000Z|2.5|eof",
            "/m/b.png|2026-12-24T09:00:03.000Z|2026-12-24T09:00:05.000Z|2.0|quit",
        ])
        writer.finish(timeout: 1)
    }

    /// `kiosk play` (stills of 1 s) whose play log is deleted under it: one line says so within 2.5 s, and the new
    /// file holds every showing from the one on screen then (even when it ended before the writer looked), each
    /// closed and about 1 s long.
    func testKioskNoticesItsPlayLogDeleted() throws {
        let dir = try TempDir()
        let pictures = try ["red", "blue"].map { try ColourPictures.make(dir, "\($0).png", $0) }
        let db = dir.file("plays.sqlite")
        let p = try LiveProcess(["play", "--output", "headless", "--size", "64x36", "--duration", "1", "--transition", "none",
                                 "--no-state", "--play-log", db, "--log-level", "info"] + pictures)
        XCTAssertTrue(p.waitFor("play log: kept in", timeout: 30), p.stderr)
        XCTAssertTrue(p.waitFor("kiosk: info: showing ", count: 2, timeout: 30), p.stderr)
        Thread.sleep(forTimeInterval: 0.5)
        try FileManager.default.removeItem(atPath: db)
        let removed = Date()
        XCTAssertTrue(p.waitFor("play log: \(db) was deleted or replaced while kiosk wrote it; began a new one (", timeout: 5), p.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(removed), 2.5)
        XCTAssertTrue(p.waitFor("kiosk: info: showing ", count: 6, timeout: 30), p.stderr)
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
        let rows = try PlayLogTests.sqlite3(db, "SELECT duration, reason FROM showings ORDER BY start_utc")
        XCTAssertGreaterThanOrEqual(rows.count, 4, "\(rows)")
        let firstStart = try PlayLogTests.sqlite3(db, "SELECT min(start_utc) FROM showings").first ?? ""
        XCTAssertLessThan(firstStart, PlayLog.timestamp(removed), "the showing on screen when the file went is in the new one")
        for (i, row) in rows.enumerated() {
            let f = row.split(separator: "|").map(String.init)
            let seconds = Double(f.first ?? "") ?? -1
            if i == rows.count - 1 {
                XCTAssertEqual(f.last, "quit", "\(rows)")
            } else {
                XCTAssertEqual(f.last, "eof", "\(rows)")
                XCTAssertTrue((0.8...1.5).contains(seconds), "row \(i): \(rows)")
            }
        }
        XCTAssertEqual(p.stderr.components(separatedBy: "was deleted or replaced").count - 1, 1, p.stderr)
    }
}
