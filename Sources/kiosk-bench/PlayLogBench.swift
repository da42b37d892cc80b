import Foundation
import KioskCore
@_spi(Bench) import KioskPlayLog

/// `kiosk-bench playlog KIOSK [ROWS]`: the play log's report by day over ROWS showings (default 1,000,000: 400 days of
/// a three-region layout changing about every 14 s), by `kiosk report` (a process, as a user runs it, and the
/// query in this process), against the `sqlite3` shell running the same figures' GROUP BY (showings, seconds, first
/// start and last end per day), written by hand, over the same file. The log is made by kiosk's own `PlayLog` (its schema and indexes); the rows are filled by `sqlite3`, seeded:
/// the same every run.
enum PlayLogBench {
    /// What the log's writer thread spends on a showing (the player's thread only queues it for `PlayLogWriter`):
    /// `count` showings begun and ended through `PlayLog` (each a commit, WAL, synchronous=NORMAL, as kiosk writes
    /// them), the median and the slowest.
    static func writes(in path: String, count: Int) throws {
        let store = try PlayLog(path: path, log: Log(level: .error))
        var times: [Double] = []
        for i in 0..<count {
            let item = ShowingItem(path: "/srv/kiosk/media/spot-\(i % 40).jpg", kind: "image")
            let t0 = MonotonicClock.seconds()
            let start = Date(timeIntervalSince1970: 1_798_000_000 + Double(i) * 10)
            if let row = store.begin(item, at: start) {
                store.end(row, at: start.addingTimeInterval(10), reason: "eof", length: 10, screenOff: 0)
            }
            times.append((MonotonicClock.seconds() - t0) * 1000)
        }
        times.sort()
        print(String(format: "play log writes on the log's writer thread: a showing begun and ended in %.3f ms (median of %d), %.3f ms at the 99th percentile, %.2f ms at the slowest (the WAL checkpointed on its own thread)",
                     times[times.count / 2], count, times[times.count * 99 / 100], times.last ?? -1))
    }

    static func run(bench: Bench, kiosk: String, rows: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-playlog-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try writes(in: dir.appendingPathComponent("writes.sqlite").path, count: 5000)
        let db = dir.appendingPathComponent("plays.sqlite").path
        _ = try PlayLog(path: db, log: Log(level: .error))  // the schema, its indexes and its version, as kiosk makes them
        let sqlite3 = "/usr/bin/sqlite3"
        // 120 items across three regions; on screen 8 to 30 s each; a showing every 34.56 s of 400 days from
        // 2025-12-01; one in 50 skipped early, one in 400 with the screen off a while. Deterministic: row i's values
        // are functions of i.
        let fill = """
            PRAGMA journal_mode=WAL;
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows - 1))
            INSERT INTO showings (start_utc, end_utc, heartbeat_utc, duration, path, size, mtime_utc, kind, region, layout,
                                  element, reason, screen_on, screen_off_ms)
            SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 1764547200 + i * 34.56, 'unixepoch'),
                   strftime('%Y-%m-%dT%H:%M:%fZ', 1764547200 + i * 34.56 + 8 + (i * 7919) % 23, 'unixepoch'),
                   strftime('%Y-%m-%dT%H:%M:%fZ', 1764547200 + i * 34.56 + 8 + (i * 7919) % 23, 'unixepoch'),
                   8 + (i * 7919) % 23 - CASE WHEN i % 400 = 0 THEN 5 ELSE 0 END,
                   '/srv/kiosk/media/' || CASE i % 3 WHEN 0 THEN 'ads/spot-' WHEN 1 THEN 'menu/board-' ELSE 'news/item-' END
                     || ((i * 2654435761) % 40) || CASE i % 3 WHEN 0 THEN '.mp4' ELSE '.jpg' END,
                   100000 + (i * 104729) % 9000000, '2025-11-30T12:00:00.000Z',
                   CASE i % 3 WHEN 0 THEN 'video' ELSE 'image' END,
                   CASE i % 3 WHEN 0 THEN 'main' WHEN 1 THEN 'side' ELSE 'ticker' END,
                   '/srv/kiosk/lobby.smil', NULL,
                   CASE WHEN i % 50 = 0 THEN 'skipped' ELSE 'eof' END,
                   CASE WHEN i % 400 = 0 THEN 0 ELSE 1 END, CASE WHEN i % 400 = 0 THEN 5000 ELSE 0 END
            FROM n;
            COMMIT;
            """
        let made = try bench.run(sqlite3, [db, fill])
        let size = ((try? FileManager.default.attributesOfItem(atPath: db)[.size] as? NSNumber)?.doubleValue ?? 0) / 1_048_576
        print(String(format: "play log: %d showings over 400 days made in %.1f s (%.0f MiB)", rows, made.seconds, size))
        // each measured three times, the best kept (the first read warms the page cache alike for all)
        func best(_ f: () throws -> Double) rethrows -> Double { try (0..<3).map { _ in try f() }.min() ?? -1 }
        var days = 0
        let inProcess = try best {
            let t0 = MonotonicClock.seconds()
            let r = try PlayLogReport.rows(path: db, since: nil, until: nil, by: .day)
            _ = PlayLogReport.render(r, by: .day, format: .csv)
            days = r.count
            return MonotonicClock.seconds() - t0
        }
        var out = ""
        let cli = try best {
            let r = try bench.run(kiosk, ["report", "--play-log", db, "--by", "day", "--format", "csv"])
            out = r.out
            return r.seconds
        }
        let peer = try best {
            try bench.run(sqlite3, [db, "SELECT substr(start_utc, 1, 10), count(*), total(duration), min(start_utc), max(end_utc) "
                                    + "FROM showings WHERE end_utc IS NOT NULL GROUP BY 1"]).seconds
        }
        let lines = out.split(separator: "\n").count - 1
        print(String(format: "play log report by day over %d showings (%d days): 'kiosk report' %.2f s (the query %.2f s); the sqlite3 shell's GROUP BY of the same figures %.2f s; %.2fx",
                     rows, lines == days ? days : -lines, cli, inProcess, peer, peer / max(cli, 1e-9)))
    }
}
