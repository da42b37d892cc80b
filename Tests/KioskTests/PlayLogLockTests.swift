import Foundation
import KioskCore
import XCTest

/// Nothing on the frame loop waits on the play log: while another process holds the log's write lock for 15 s
/// (`BEGIN EXCLUSIVE` in `sqlite3`, as a VACUUM or a maintenance script would), `kiosk play` of four stills of 1 s
/// goes on changing items on time, as its screenshots show, and once the lock is gone every showing is in the log
/// as it happened: in order, back to back, each about 1 s long, none of zero length, none left open.
final class PlayLogLockTests: XCTestCase {
    /// The stills: an ffmpeg colour name and its RGB.
    private static let colours: [(name: String, rgb: [Int])] = [
        ("red", [255, 0, 0]), ("lime", [0, 255, 0]), ("blue", [0, 0, 255]), ("white", [255, 255, 255]),
    ]

    func testALockedPlayLogNeitherStopsTheSlideshowNorSpoilsItsRows() throws {
        let dir = try TempDir()
        let pictures = try Self.colours.enumerated().map { try ColourPictures.make(dir, "\($0.offset)-\($0.element.name).png", $0.element.name) }
        let db = dir.file("plays.sqlite"), sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", "--output", "headless", "--size", "64x36", "--duration", "1", "--transition", "none",
                                 "--no-state", "--play-log", db, "--play-log-batch", "0", "--input-ipc-server", sock, "--log-level", "info"] + pictures)
        XCTAssertTrue(p.waitFor("ipc: listening on \(sock)", timeout: 30), p.stderr)
        XCTAssertTrue(p.waitFor("play log: kept in", timeout: 30), p.stderr)
        Thread.sleep(forTimeInterval: 1.5)  // a few rows written before the lock

        // sqlite3 holds the write lock for 15 s; `.shell echo` says so at once (its own output is buffered)
        let script = ".timeout 5000\nBEGIN EXCLUSIVE;\n.shell echo locked\n.shell sleep 15\nCOMMIT;\n.shell echo released\n"
        try script.write(toFile: dir.file("lock.sql"), atomically: true, encoding: .utf8)
        let lock = try LiveProcess(["-c", "exec /usr/bin/sqlite3 \"$0\" < \"$1\"", db, dir.file("lock.sql")], executable: "/bin/sh")
        XCTAssertTrue(lock.waitForOutput("locked", timeout: 10), lock.stderr)
        let lockedAt = Date()

        // screenshots through the IPC socket while the lock is held: which still shows, and when
        let c = try IPCConnection(path: sock)
        var samples: [(at: Double, still: Int, reply: Double)] = []
        var n = 0
        while Date().timeIntervalSince(lockedAt) < 14 {
            let shot = dir.file("shot-\(n).png")
            n += 1
            let asked = Date()
            XCTAssertEqual(try c.request(#"["screenshot-to-file","\#(shot)"]"#, timeout: 20)["error"], .string("success"), p.stderr)
            let at = Date().timeIntervalSince(lockedAt)
            let centre = ColourPictures.centre(try TextTestSupport.decode(shot))
            let still = try XCTUnwrap(Self.colours.firstIndex { ColourPictures.near($0.rgb, centre) }, "shot \(n): \(centre) is none of the stills")
            samples.append((at, still, Date().timeIntervalSince(asked)))
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTAssertTrue(lock.waitForOutput("released", timeout: 10), lock.stderr)
        XCTAssertEqual(lock.finish(timeout: 10).status, 0, lock.stderr)
        let releasedAt = Date()
        Thread.sleep(forTimeInterval: 2)  // the rows held back are written once the lock is gone
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)

        // on screen: the next still each time, at most 2.5 s apart (1 s slides; the old player stood still for
        // 4.6 s at a time), and every screenshot answered within 1.5 s (the old player took 4 s)
        let changes = zip(samples, samples.dropFirst()).filter { $0.0.still != $0.1.still }
        for (before, after) in changes {
            XCTAssertEqual(after.still, (before.still + 1) % Self.colours.count, "the slideshow's order at \(after.at) s: \(samples)")
        }
        let times = [0] + changes.map(\.1.at) + [samples.last?.at ?? 0]
        let longest = zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0
        XCTAssertGreaterThanOrEqual(changes.count, 9, "items changed during the 14 s of the lock: \(samples)")
        XCTAssertLessThanOrEqual(longest, 2.5, "the longest time one still stayed on screen during the lock: \(samples)")
        XCTAssertLessThanOrEqual(samples.map(\.reply).max() ?? 0, 1.5, "screenshot replies during the lock: \(samples)")

        // the log, as sqlite3 reads it: every showing, back to back, in the playlist's order, about 1 s each
        let rows = try PlayLogTests.sqlite3(db, "SELECT path, start_utc, end_utc, duration, reason FROM showings ORDER BY id")
            .map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        XCTAssertGreaterThanOrEqual(rows.count, 17, "\(rows)")
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT count(*) FROM showings WHERE end_utc IS NULL"), ["0"], "no open rows")
        for (i, row) in rows.enumerated() {
            XCTAssertEqual(row.count, 5, "\(row)")
            guard row.count == 5 else { continue }
            XCTAssertEqual(row[0], pictures[i % pictures.count], "row \(i): the playlist's order")
            if i > 0 {
                let gap = (Self.instant(row[1])?.timeIntervalSince1970 ?? 0) - (Self.instant(rows[i - 1][2])?.timeIntervalSince1970 ?? 9)
                XCTAssertLessThan(abs(gap), 0.02, "row \(i) starts when the one before ended: \(rows[i - 1]) then \(row)")
            }
            let seconds = Double(row[3]) ?? -1
            if i == rows.count - 1 {
                XCTAssertEqual(row[4], "quit", "the last row")
                XCTAssertTrue(seconds > 0 && seconds <= 1.5, "the last row: \(row)")
            } else {
                XCTAssertEqual(row[4], "eof", "row \(i): \(row)")
                XCTAssertTrue((0.8...1.5).contains(seconds), "row \(i) lasted about 1 s: \(row)")
            }
        }
        // the showings during the lock are there, with the times they had on screen
        let window = try PlayLogTests.sqlite3(db, """
            SELECT count(*) FROM showings WHERE start_utc >= '\(PlayLogLockTests.utc(lockedAt))' AND start_utc < '\(PlayLogLockTests.utc(releasedAt))'
            """)
        XCTAssertGreaterThanOrEqual(Int(window.first ?? "") ?? 0, 12, "showings that started during the lock")
        print(String(format: "play log lock test: %d changes during the lock, longest still %.2f s, slowest screenshot %.2f s, %d rows, %@ during the lock",
                     changes.count, longest, samples.map(\.reply).max() ?? 0, rows.count, window.first ?? "?"))
        // one line says the log was held up, one that it writes again
        XCTAssertEqual(p.stderr.components(separatedBy: "play log: waiting for").count - 1, 1, p.stderr)
        XCTAssertEqual(p.stderr.components(separatedBy: "play log: writing to").count - 1, 1, p.stderr)
    }

    /// `date` as the log writes it (UTC, milliseconds).
    private static func utc(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.string(from: date)
    }

    /// The instant a time in the log names.
    private static func instant(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: text)
    }
}
