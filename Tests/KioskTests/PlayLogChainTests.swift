import Foundation
import KioskCore
@_spi(Bench) @testable import KioskPlayLog
import XCTest

/// The tamper-evident play log (docs/proof-of-play.md): a log `kiosk play` wrote verifies with `kiosk report
/// --verify`; a field changed, a middle row deleted or a row put in the middle with the sqlite3 shell is named by
/// its row; a chain rebuilt after a change is caught by the signature; a signature by another screen's key does
/// not verify; a crash gap verifies as a recorded break; a version-3 log migrates, and its chain is what
/// `sha256sum` makes of the documented encoding.
final class PlayLogChainTests: XCTestCase {
    /// `kiosk play` of three stills of 0.3 s into `db` for about `seconds`, ended by `signal` (SIGTERM: a clean stop).
    static func play(_ dir: TempDir, db: String, seconds: Double, signal: Int32 = SIGTERM, _ extra: [String] = []) throws -> String {
        let pictures = try ["red", "green", "blue"].map { try ColourPictures.make(dir, "\($0).png", $0) }
        let p = try LiveProcess(["play", "--output", "headless", "--size", "64x36", "--duration", "0.3", "--transition", "none",
                                 "--no-state", "--play-log", db, "--log-level", "info"] + extra + pictures)
        XCTAssertTrue(p.waitFor("first frame presented", timeout: 30), p.stderr)
        Thread.sleep(forTimeInterval: seconds)
        p.send(signal)
        _ = p.finish(timeout: 30)
        return p.stderr
    }

    /// `kiosk report --verify` of `db` (with `--key key`): exit status and stdout.
    static func verify(_ db: String, key: String? = nil) throws -> (Int32, String) {
        let r = try CLITests.run(["report", "--verify", "--play-log", db] + (key.map { ["--key", $0] } ?? []), timeout: 60)
        XCTAssertTrue(r.stdout.split(separator: "\n").count == 1, "one line: \(r.stdout) \(r.stderr)")
        return (r.status, r.stdout)
    }

    /// A copy of the log `db` (its WAL too) as `name` in `dir`.
    static func copy(_ db: String, to name: String, in dir: TempDir) throws -> String {
        let to = dir.file(name)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: db + suffix) {
            try FileManager.default.copyItem(atPath: db + suffix, toPath: to + suffix)
        }
        return to
    }

    func testALogThePlayerWroteVerifiesAndEachTamperingIsNamedByItsRow() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        _ = try Self.play(dir, db: db, seconds: 3)
        let rows = try PlayLogTests.sqlite3(db, "SELECT count(*), count(chain), min(id), max(id) FROM showings")
        let counts = rows.first?.split(separator: "|").compactMap { Int($0) } ?? []
        XCTAssertEqual(counts.count, 4)
        XCTAssertGreaterThanOrEqual(counts.first ?? 0, 6, "stills of 0.3 s for 3 s")
        XCTAssertEqual(counts[0], counts[1], "a clean stop leaves every row chained")
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT row_id FROM signatures ORDER BY id DESC LIMIT 1"), [String(counts[3])],
                       "the stop signed the head")
        let keyFile = db + ".key"
        var mode = stat()
        XCTAssertEqual(stat(keyFile, &mode), 0)
        XCTAssertEqual(mode.st_mode & 0o777, 0o600)
        let pub = try CLITests.run(["report", "--public-key", "--play-log", db], timeout: 30)
        XCTAssertEqual(pub.status, 0, pub.stderr)
        let key = pub.stdout.trimmingCharacters(in: .newlines)
        XCTAssertEqual(Data(base64Encoded: key)?.count, 32, key)
        XCTAssertEqual(key, PlayLogKey.text(ofPublicKey: try PlayLogKey.load(at: keyFile).publicKey))

        let (ok, summary) = try Self.verify(db)
        XCTAssertEqual(ok, 0, summary)
        XCTAssertTrue(summary.contains("verified: \(counts[0]) rows chained of rows 1-\(counts[3])"), summary)
        XCTAssertEqual(try Self.verify(db, key: key).0, 0, "the key given as text")
        XCTAssertEqual(try Self.verify(db, key: keyFile).0, 0, "the screen's key file: its public half")
        let pubFile = dir.file("screen.pub")
        try (key + "\n").write(toFile: pubFile, atomically: true, encoding: .utf8)
        XCTAssertEqual(try Self.verify(db, key: pubFile).0, 0, "a file holding the public key")

        // each tampering on a copy; the key is the screen's, given as text
        let cases: [(String, String, [String])] = [
            ("update", "UPDATE showings SET duration = duration + 1 WHERE id = 3", ["at row 3", "hash mismatch"]),
            ("delete", "DELETE FROM showings WHERE id = 3", ["at row 3", "row 3 is missing"]),
            // a row keeps 16 digits of its chain; one cut shorter (a prefix of the right chain) does not pass
            ("short chain", "UPDATE showings SET chain = substr(chain, 1, 2) WHERE id = 3", ["at row 3", "hash mismatch"]),
            ("insert", """
                UPDATE showings SET id = id + 100000 WHERE id >= 3;
                UPDATE showings SET id = id - 99999 WHERE id >= 100000;
                INSERT INTO showings (id, start_utc, end_utc, heartbeat_utc, duration, path, kind, reason, chain)
                  SELECT 3, start_utc, end_utc, end_utc, duration, path, kind, 'eof', chain FROM showings WHERE id = 2;
                """, ["at row 3", "inserted?"]),
            ("appended", """
                INSERT INTO showings (start_utc, end_utc, heartbeat_utc, duration, path, kind, reason)
                  SELECT start_utc, end_utc, end_utc, duration, path, kind, 'eof' FROM showings WHERE id = 2;
                """, ["at row \(counts[3] + 1)", "complete but not chained"]),
        ]
        for (name, sql, expected) in cases {
            let copy = try Self.copy(db, to: "\(name).sqlite", in: dir)
            _ = try PlayLogTests.sqlite3(copy, sql)
            let (status, line) = try Self.verify(copy, key: key)
            XCTAssertEqual(status, 1, "\(name): \(line)")
            for e in expected { XCTAssertTrue(line.contains(e), "\(name): \(line)") }
        }

        // a signature whose bytes are not the key's: the first signature's bytes put on the last
        let badSig = try Self.copy(db, to: "badsig.sqlite", in: dir)
        _ = try PlayLogTests.sqlite3(badSig, """
            UPDATE signatures SET signature = (SELECT signature FROM signatures ORDER BY id LIMIT 1)
            WHERE id = (SELECT max(id) FROM signatures) AND id > 1
            """)
        let (bad, badLine) = try Self.verify(badSig, key: key)
        XCTAssertEqual(bad, 1, badLine)
        XCTAssertTrue(badLine.contains("at row \(counts[3])") && badLine.contains("is bad"), badLine)

        // a forger who knows the encoding (v2: the rows have verdicts) changes row 3 and rebuilds the chain after it:
        // the signature catches it
        let rebuilt = try Self.copy(db, to: "rebuilt.sqlite", in: dir)
        _ = try PlayLogTests.sqlite3(rebuilt, "UPDATE showings SET path = '/forged.png' WHERE id = 3")
        let forge = try SQLiteDatabase(path: rebuilt)
        // (row 2 keeps 16 digits of its chain: the forger computes all 64 from the start, as verify does)
        let place = try XCTUnwrap(forge.query("SELECT chain_seq FROM showings WHERE id = 2").first?.first?.int)
        var previous = try XCTUnwrap(PlayLogChain.full(forge, at: place))
        for row in try forge.query("SELECT \(PlayLogChain.columnsV2) FROM showings WHERE id >= 3 ORDER BY chain_seq") {
            previous = PlayLogChain.link(previous: previous, row: row[...])
            try forge.query("UPDATE showings SET chain = ?1 WHERE id = ?2", [.text(previous), row[0]])
        }
        let (forged, forgedLine) = try Self.verify(rebuilt, key: key)
        XCTAssertEqual(forged, 1, forgedLine)
        XCTAssertTrue(forgedLine.contains("changed after it was signed"), forgedLine)

        // another screen's key: its log's key does not check this one's signatures, and this log re-signed with it
        // (its signatures replaced by `kiosk report --sign` with the other key beside it) does not verify
        let other = dir.file("other.sqlite")
        _ = try PlayLog(path: other, log: Log(level: .error))
        let otherKey = PlayLogKey.text(ofPublicKey: try PlayLogKey.load(at: other + ".key").publicKey)
        XCTAssertNotEqual(otherKey, key)
        let (wrong, wrongLine) = try Self.verify(db, key: otherKey)
        XCTAssertEqual(wrong, 1, wrongLine)
        XCTAssertTrue(wrongLine.contains("by another key (\(key))"), wrongLine)
        let resigned = try Self.copy(db, to: "resigned.sqlite", in: dir)
        try FileManager.default.copyItem(atPath: other + ".key", toPath: resigned + ".key")
        _ = try PlayLogTests.sqlite3(resigned, "DELETE FROM signatures")
        let sign = try CLITests.run(["report", "--sign", "--play-log", resigned], timeout: 30)
        XCTAssertEqual(sign.status, 0, sign.stderr)
        XCTAssertTrue(sign.stdout.contains("signed the head, row \(counts[3])"), sign.stdout)
        XCTAssertEqual(try Self.verify(resigned).0, 0, "it verifies against the key beside it")
        let (foreign, foreignLine) = try Self.verify(resigned, key: key)
        XCTAssertEqual(foreign, 1, foreignLine)
        XCTAssertTrue(foreignLine.contains("at row \(counts[3])") && foreignLine.contains("by another key (\(otherKey))"), foreignLine)
    }

    /// Each showing written as it comes (`--play-log-batch 0`): a kill leaves the one on screen open, and the next
    /// start closes it at its last heartbeat, a recorded break.
    func testACrashGapVerifiesAsARecordedBreak() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        _ = try Self.play(dir, db: db, seconds: 1.5, signal: SIGKILL, ["--play-log-batch", "0"])
        let open = try PlayLogTests.sqlite3(db, "SELECT id FROM showings WHERE end_utc IS NULL")
        XCTAssertEqual(open.count, 1, "a kill leaves the showing on screen open")
        let unchained = try PlayLogTests.sqlite3(db, "SELECT count(*) FROM showings WHERE chain IS NULL")
        XCTAssertEqual(unchained, ["1"], "only the open row waits")
        let (waiting, waitingLine) = try Self.verify(db)
        XCTAssertEqual(waiting, 0, waitingLine)
        XCTAssertTrue(waitingLine.contains("1 row on screen, not chained yet"), waitingLine)
        let second = try Self.play(dir, db: db, seconds: 1, ["--play-log-batch", "0"])
        XCTAssertTrue(second.contains("play log: closed 1 showing"), second)
        let openID = try XCTUnwrap(open.first)
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT reason, chain IS NOT NULL FROM showings WHERE id = \(openID)"), ["crash|1"])
        let (status, line) = try Self.verify(db)
        XCTAssertEqual(status, 0, line)
        XCTAssertTrue(line.contains("1 recorded break (row \(openID): 1 showing left open by a crash"), line)
        XCTAssertFalse(second.contains("are missing"), "nothing was held unwritten: \(second)")
    }

    /// Showings written five minutes at a time (the default, to spare an SD card): a kill 1.5 s in loses what was held
    /// (five showings of 0.3 s; only the run's first write went at once), and the next start records the gap as a
    /// break that `--verify` names; a clean stop (SIGTERM) writes everything held, and its run is closed.
    func testAKillWhileShowingsAreHeldIsARecordedGap() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        _ = try Self.play(dir, db: db, seconds: 1.5, signal: SIGKILL)
        let kept = try PlayLogTests.sqlite3(db, "SELECT count(*) FROM showings")
        XCTAssertLessThanOrEqual(Int(kept.first ?? "") ?? 99, 1, "the showings of the last minute were held, not written")
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT count(*), count(ended_utc), batch_s FROM runs"), ["1|0|300.0"])
        let second = try Self.play(dir, db: db, seconds: 2)
        XCTAssertTrue(second.contains("up to 300 s of showings before it stopped are missing, a recorded break"), second)
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT clean FROM runs ORDER BY id"), ["0", "1"], "the killed run, then the clean one")
        let written = try PlayLogTests.sqlite3(db, "SELECT count(*) FROM showings WHERE end_utc IS NOT NULL")
        XCTAssertGreaterThanOrEqual(Int(written.first ?? "") ?? 0, 5, "SIGTERM writes what was held: 2 s of 0.3-s stills")
        let (status, line) = try Self.verify(db)
        XCTAssertEqual(status, 0, line)
        XCTAssertTrue(line.contains("1 recorded break") && line.contains("showings of up to 300 s before it stopped were held to be written together"), line)
    }

    func testAVersion3LogMigratesInPlaceAndItsChainIsTheDocumentedEncoding() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        _ = try PlayLogTests.sqlite3(db, PlayLog.migrations[0...2].joined() + """
            PRAGMA user_version = 3;
            INSERT INTO showings (start_utc, end_utc, heartbeat_utc, duration, path, size, kind, reason) VALUES
              ('2026-12-24T09:00:00.000Z', '2026-12-24T09:00:10.000Z', '2026-12-24T09:00:10.000Z', 10, '/m/a.png', 1234, 'image', 'eof'),
              ('2026-12-24T09:00:10.000Z', '2026-12-24T09:00:12.500Z', '2026-12-24T09:00:12.500Z', 2.5, '/m/b.png', NULL, 'image', 'eof'),
              ('2026-12-24T09:00:12.500Z', NULL, '2026-12-24T09:00:13.000Z', NULL, '/m/c.png', NULL, 'image', NULL);
            """)
        _ = try PlayLog(path: db, log: Log(level: .error))
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "PRAGMA user_version; SELECT count(*), count(chain) FROM showings"), ["5", "3|3"])
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT row_id, kind, previous FROM chain_marks ORDER BY row_id, id"),
                       ["1|start|" + PlayLogChain.genesis, "3|crash|"])
        let (status, line) = try Self.verify(db)
        XCTAssertEqual(status, 0, line)
        XCTAssertTrue(line.contains("3 rows chained of rows 1-3, chained at the migration from schema version 3"), line)
        XCTAssertTrue(line.contains("1 recorded break"), line)
        // row 1 by hand, as docs/proof-of-play.md says, hashed by sha256sum: 64 zeros, then the fields
        let duration = String(Double(10).bitPattern, radix: 16)
        let encoding = "kiosk-showing-v1\nid I1\nstart_utc T24:2026-12-24T09:00:00.000Z\nend_utc T24:2026-12-24T09:00:10.000Z\n"
            + "duration R\(duration)\npath T8:/m/a.png\nsize I1234\nmtime_utc N\nkind T5:image\nregion T4:main\nlayout N\n"
            + "element N\nreason T3:eof\nscreen_on I1\nscreen_off_ms I0\nscreen T4:main\n"
        let input = dir.file("row1")
        try (PlayLogChain.genesis + encoding).write(toFile: input, atomically: true, encoding: .utf8)
        let sum = try BoundedProcess.run("/usr/bin/sha256sum", [input], timeout: 30)
        let hex = String(decoding: sum.stdout, as: UTF8.self).prefix(64)
        // a row keeps the first 16 digits once another is chained after it; the head keeps all 64
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT chain FROM showings WHERE id = 1"), [String(hex.prefix(16))])
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT length(chain) FROM showings ORDER BY chain_seq"), ["16", "16", "64"])
        XCTAssertEqual(try PlayLogChain.full(SQLiteDatabase(path: db), at: 1), String(hex))
    }

    /// Retention removes rows only from the chain's start, and what stays verifies from the `pruned` mark.
    func testRetentionKeepsAChainThatVerifies() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        let store = try PlayLog(path: db, log: Log(level: .error))
        var t = Date(timeIntervalSince1970: 1_798_070_400)
        for i in 0..<10 {
            let row = try XCTUnwrap(store.begin(ShowingItem(path: "/m/\(i).png", kind: "image"), at: t))
            store.end(row, at: t.addingTimeInterval(60), reason: "eof", length: 60, screenOff: 0)
            t = t.addingTimeInterval(3600)
        }
        XCTAssertEqual(store.prune(before: Date(timeIntervalSince1970: 1_798_070_400 + 4 * 3600)), 4)
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT min(id), count(*) FROM showings"), ["5|6"])
        let (status, line) = try Self.verify(db)
        XCTAssertEqual(status, 0, line)
        XCTAssertTrue(line.contains("6 rows chained of rows 5-10, from place 5: older rows removed by retention"), line)
    }

    /// The head is signed at the first write of each local day (the log's clock set here), not at every write.
    func testTheFirstWriteOfEachDaySignsTheHead() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        let store = try PlayLog(path: db, log: Log(level: .error))
        let noon = Date(timeIntervalSince1970: 1_798_113_600)  // 2026-12-24T12:00Z
        var clock = noon
        store.now = { clock }
        func show(_ n: Int) throws {
            for _ in 0..<n {
                let row = try XCTUnwrap(store.begin(ShowingItem(path: "/m/a.png", kind: "image"), at: clock))
                clock = clock.addingTimeInterval(60)
                store.end(row, at: clock, reason: "eof", length: 60, screenOff: 0)
            }
        }
        try show(3)
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT row_id FROM signatures"), ["1"], "the day's first write signs")
        clock = noon.addingTimeInterval(86_400)
        try show(2)
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT row_id FROM signatures"), ["1", "4"], "and the next day's")
        let (status, line) = try Self.verify(db)
        XCTAssertEqual(status, 0, line)
        XCTAssertTrue(line.contains("2 signatures"), line)
    }

    /// A log whose first showing is still on screen verifies (nothing to chain yet); rows that end while it stays on
    /// screen (a logo in a layout's side region) are chained at once, in the order they end; the rows are read a
    /// page at a time, and a page boundary changes nothing.
    func testAFirstRowOnScreenVerifiesAndPagesChangeNothing() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        let store = try PlayLog(path: db, log: Log(level: .error))
        let key = try PlayLogKey.load(at: PlayLogKey.path(forLog: db)).publicKey
        var t = Date(timeIntervalSince1970: 1_798_113_600)
        let first = try XCTUnwrap(store.begin(ShowingItem(path: "/m/long.mp4", kind: "video"), at: t))
        guard case .verified(let waiting) = try PlayLogVerification.verify(path: db, key: key) else {
            return XCTFail("a first row on screen: \(try PlayLogVerification.verify(path: db, key: key))")
        }
        XCTAssertTrue(waiting.contains("no row complete yet (1 on screen)"), waiting)
        let start = t
        for i in 0..<10 {
            let row = try XCTUnwrap(store.begin(ShowingItem(path: "/m/\(i).png", kind: "image", region: "side"), at: t))
            t = t.addingTimeInterval(5)
            store.end(row, at: t, reason: "eof", length: 5, screenOff: 0)
        }
        guard case .verified(let held) = try PlayLogVerification.verify(path: db, key: key) else { return XCTFail("row 1 on screen") }
        XCTAssertTrue(held.contains("10 rows chained of rows 1-11") && held.contains("1 row on screen, not chained yet (from row 1)"), held)
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT count(*) FROM signatures WHERE row_id = 2"), ["1"], "the day's first write signed")
        store.end(first, at: t, reason: "eof", length: t.timeIntervalSince(start), screenOff: 0)
        XCTAssertEqual(try PlayLogTests.sqlite3(db, "SELECT chain_seq FROM showings WHERE id = 1"), ["11"], "chained when it ended, last")
        for size in [1, 3, 11, 4096] {
            let outcome = try PlayLogVerification.verify(path: db, key: key, pageSize: size)
            guard case .verified(let line) = outcome else { return XCTFail("page of \(size): \(outcome)") }
            XCTAssertTrue(line.contains("11 rows chained of rows 1-11"), "page of \(size): \(line)")
        }
        _ = try PlayLogTests.sqlite3(db, "UPDATE showings SET path = '/m/x.png' WHERE id = 8")
        for size in [1, 3, 7, 4096] {
            XCTAssertEqual(try PlayLogVerification.verify(path: db, key: key, pageSize: size).failedRow, 8, "page of \(size)")
        }
    }
}

extension PlayLogVerification.Outcome {
    /// The row a failed check names.
    var failedRow: Int64? { if case .failed(let row, _) = self { row } else { nil } }
}
