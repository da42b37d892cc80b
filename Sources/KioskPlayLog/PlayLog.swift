import Foundation
import KioskCore
import KioskTrust

/// What a showing is of: the item, where it showed, and the file as it was then.
public struct ShowingItem: Sendable, Equatable {
    public var path: String
    /// The file's size in bytes and modification time (a replaced file tells itself apart); nil when unreadable.
    public var size: Int64?
    public var mtime: Date?
    /// `image`, `animation`, `video`, `audio`, `text`, `layout`.
    public var kind: String
    /// The region (`main` for the slideshow).
    public var region: String
    /// The SMIL file, for a layout's region; nil for the slideshow.
    public var layout: String?
    /// The SMIL element's id, if it has one.
    public var element: String?
    /// The screen it showed on (`main` for a player of one screen).
    public var screen: String

    /// An item shown in `region` of `screen`; its size and modification time are read from the file.
    public init(path: String, kind: String, region: String = "main", layout: String? = nil, element: String? = nil,
                screen: String = "main") {
        self.path = path.hasPrefix("/") ? path : URL(fileURLWithPath: path).standardized.path  // proof names the file whole
        self.kind = kind; self.region = region; self.layout = layout; self.element = element; self.screen = screen
        if let a = try? FileManager.default.attributesOfItem(atPath: path) {
            size = (a[.size] as? NSNumber)?.int64Value
            mtime = a[.modificationDate] as? Date
        }
    }

    /// An emergency alert's showing: kind `alert`, region `alert`, and for a path `alert: ` and its text (newlines
    /// as ` / `, cut at 200 characters), since an alert is a message, not a file.
    public init(alert text: String, screen: String = "main") {
        path = "alert: " + String(text.replacingOccurrences(of: "\n", with: " / ").prefix(200))
        kind = "alert"
        region = "alert"
        self.screen = screen
    }
}

/// The proof-of-play log: one row per showing of an item in a region, in SQLite (WAL, `synchronous=NORMAL`, the
/// schema's version in `user_version`). A row is written when a showing starts and completed when it ends; a
/// heartbeat keeps open rows' last-known time, so after a kill or a power cut the next start closes them as
/// `crash` at their last heartbeat. A disk that is full or read-only is one warn line: playback goes on, the
/// showings missed are counted and said when writing works again. A damaged file is moved aside and a new one begun.
/// Each completed row is chained by SHA-256 to the one completed before it (`PlayLogChain`), in the transaction that
/// completes it, and the chain's head is signed by the screen's key (`PlayLogKey`, `PlayLogSignatures`) at the
/// first write of each local day and at `trySignHead` (docs/proof-of-play.md).
///
/// One thread at a time uses it: the player hands its showings to a `PlayLogWriter`, whose own thread writes them
/// here, so a lock held by another process or a full disk never holds up a frame.
public final class PlayLog {
    /// The schema this build writes (`PRAGMA user_version`).
    public static let schemaVersion: Int64 = 5
    public let path: String
    private var db: SQLiteDatabase?
    private let log: Log
    private var failing = false
    private var missed = 0
    /// Checkpoints the WAL off the writer's thread (the writer's automatic checkpoint is off).
    private var checkpointer: PlayLogCheckpointer?
    /// Seconds a write waits for another process's lock before it fails (`SQLITE_BUSY`).
    private let busy: Double
    /// Seconds between two checkpoints of the WAL.
    private let checkpointEvery: Double
    /// The file opened (device and inode): another one at `path`, or none, means it was deleted or replaced.
    private var opened: (dev: UInt64, ino: UInt64)?
    /// The screen's key that signs the chain's head (`PlayLogKey`); nil when it cannot be read or made.
    private var key: Ed25519SigningKey?
    /// Whether the key could not be read or made when the log opened and is tried again at the next signature: a
    /// folder read-only or full at the start is said once, by the write that fails, not by the key as well.
    private var keyRetry = false
    /// The local day (`yyyy-MM-dd`) of the last signature: the first write of another day signs the head.
    private var signedDay: String?
    /// The time a signature or a mark is made at (the wall clock; a test's own).
    var now: () -> Date = Date.init
    /// This run's row in `runs` (`PlayLogRuns`); nil before `tryOpenRun`.
    var runID: Int64?
    /// The crash mark this open made for rows a crash left open: the unclean run's gap is said in it (one break).
    var crashMark: Int64?

    /// Opens or creates the log at `path`, migrating an older schema and closing what a crash left open; a write
    /// waits up to `busy` seconds for another process's lock. A folder that cannot be written (read-only, full) or
    /// a lock held past `busy` is said by the first write that fails (one line, by whoever writes: `PlayLogWriter`
    /// or `begin`), not here as well: the log is opened again at that write, until it can be. Other failures (a
    /// schema newer than this kiosk's) throw. With `signing`, the head of the log's chain is signed by the key
    /// beside it (`PlayLogKey`, made now when there is none) each day and when `signHead` asks.
    /// Its WAL is moved into the file every `checkpointEvery` seconds (`PlayLogCheckpointer`).
    public init(path: String, log: Log, busy: Double = 2, signing: Bool = true, checkpointEvery: Double = 5) throws(SQLiteError) {
        self.path = path
        self.log = log
        self.busy = busy
        self.checkpointEvery = checkpointEvery
        if signing {
            key = try? PlayLogKey.loadOrCreate(at: PlayLogKey.path(forLog: path))
            keyRetry = key == nil
        }
        do {
            try openOrSetAside()
        } catch let e where e.isTransient {
            // said once by the write that finds it still so
        }
    }

    private func openOrSetAside() throws(SQLiteError) {
        do {
            try open()
        } catch let e where e.isCorrupt {
            let aside = path + ".corrupt-" + PlayLog.timestamp(Date()).replacingOccurrences(of: ":", with: "")
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix) }
            log.warn("play log: \(path) is damaged (\(e.description)); moved aside to \(aside), starting a new one")
            try open()
        }
    }

    /// Whether the log is open for writing now (not while its folder cannot be written).
    public var isOpen: Bool { db != nil }

    private func failed(_ error: SQLiteError) {
        if !failing {
            failing = true
            log.warn("play log: cannot write \(path) (\(error.description)); playback goes on, logging resumes when it can")
        }
    }

    private func open() throws(SQLiteError) {
        let db = try SQLiteDatabase(path: path, busy: busy)
        // a new log's pages are 1 KiB (an older one keeps its own): a batch appends to the last page of the table and
        // of each index, and each page touched goes whole into the WAL and again into the file (PlayLogWriter)
        try db.execute("PRAGMA page_size=1024; PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA wal_autocheckpoint=0;")
        // a file that is no database, or a damaged one, fails here rather than at the first showing
        guard try db.query("PRAGMA quick_check").first?.first?.text == "ok" else {
            throw SQLiteError(description: "\(path): quick_check failed", code: 11)
        }
        var version = try db.query("PRAGMA user_version").first?.first?.int ?? 0
        if version > Self.schemaVersion {
            throw SQLiteError(description: "\(path): schema version \(version) is newer than this kiosk's \(Self.schemaVersion)", code: 1)
        }
        let found = version
        while version < Self.schemaVersion {
            try db.execute("BEGIN; \(Self.migrations[Int(version)]) PRAGMA user_version = \(version + 1); COMMIT;")
            version += 1
        }
        if key != nil { signedDay = try PlayLogSignatures.lastTime(db).map(Self.day) }
        let left = try db.query("SELECT count(*), min(id) FROM showings WHERE end_utc IS NULL").first ?? []
        let open = left.first?.int ?? 0
        // only a crash's rows or an older log's need writing now: a log that is only read (a read-only folder) opens
        if open > 0 || found < 4 {
            try Self.transaction(db) { () throws(SQLiteError) in try closeAndChain(db, open: open, first: left.last?.int, from: found) }
        }
        if open > 0 {
            log.info("play log: closed \(open) showing\(open == 1 ? "" : "s") a crash or a power cut left open, at their last heartbeat")
        }
        self.db = db
        opened = Self.identity(path)
        if checkpointer == nil { checkpointer = PlayLogCheckpointer(path: path, every: checkpointEvery) }
    }

    deinit { checkpointer?.stop() }

    /// The device and inode of the file at `path`; nil when there is none.
    private static func identity(_ path: String) -> (dev: UInt64, ino: UInt64)? {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        return (UInt64(s.st_dev), UInt64(s.st_ino))
    }

    /// Whether the file this log has open is no longer at `path` (deleted, or another file put there): what is
    /// written would go nowhere anyone can read. One `stat`.
    var isGone: Bool {
        guard db != nil, let opened else { return false }
        guard let now = Self.identity(path) else { return true }
        return now != opened
    }

    /// Closes the file and opens (or creates) the one at `path` now, as `init` does.
    func reopen() throws(SQLiteError) {
        checkpointer?.stop()  // its connection closes first, so the writer's close is the last and ends the old WAL
        checkpointer = nil
        db = nil
        opened = nil
        try openOrSetAside()
    }

    /// Closes the `open` rows a crash left open (the first is `first`) at their last heartbeat, with a `crash` mark
    /// (a recorded break), and chains them and, for a log of schema version `from` before 4, every row it holds.
    private func closeAndChain(_ db: SQLiteDatabase, open: Int64, first: Int64?, from found: Int64) throws(SQLiteError) {
        if open > 0, let first {
            try db.execute("""
                UPDATE showings SET end_utc = COALESCE(heartbeat_utc, start_utc), reason = 'crash',
                  duration = round(max(0, (julianday(COALESCE(heartbeat_utc, start_utc)) - julianday(start_utc)) * 86400.0
                                          - screen_off_ms / 1000.0), 3)
                WHERE end_utc IS NULL;
                """)
            try PlayLogMarks.add(db, row: first, kind: .crash, at: now(), previous: nil,
                                 note: "\(open) showing\(open == 1 ? "" : "s") left open by a crash or a power cut, closed at the next start at their last heartbeat")
            crashMark = db.lastInsertID
        }
        let note = found > 0 && found < 4 ? "chained at the migration from schema version \(found)" : "a new log"
        try PlayLogChain.extend(db, ids: nil, now: now(), note: note)
        try signIfDue(db)
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`: the write lock first), rolled back when it throws; inside
    /// a transaction already (a batch's, `tryBatch`), in a savepoint of it.
    static func transaction<T>(_ db: SQLiteDatabase, _ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        let nested = db.inTransaction
        try db.execute(nested ? "SAVEPOINT step" : "BEGIN IMMEDIATE")
        do {
            let r = try body()
            try db.execute(nested ? "RELEASE step" : "COMMIT")
            return r
        } catch {
            try? db.execute(nested ? "ROLLBACK TO step; RELEASE step" : "ROLLBACK")
            throw error
        }
    }

    /// The local day of `date`, as `yyyy-MM-dd`.
    static func day(_ date: Date) -> String {
        let c = Calendar.current.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    /// The key, made or read again (once) when it could not be at the start: this runs once a write went through,
    /// so a key that still cannot be had is a problem of its own, said in one line.
    private func signingKey() -> Ed25519SigningKey? {
        guard key == nil, keyRetry else { return key }
        keyRetry = false
        do {
            key = try PlayLogKey.loadOrCreate(at: PlayLogKey.path(forLog: path))
        } catch {
            log.warn("play log: \(error.description); showings are chained but not signed")
        }
        return key
    }

    /// Signs the chain's head when no signature was made today (local time) yet: the first write after midnight.
    private func signIfDue(_ db: SQLiteDatabase) throws(SQLiteError) {
        guard let key = signingKey() else { return }
        let today = Self.day(now())
        guard signedDay != today else { return }
        if try PlayLogSignatures.sign(db, key: key, now: now()) != nil { signedDay = today }
    }

    /// Signs the chain's head now (at the player's end, and on demand), unless it is signed already.
    func trySignHead() throws(SQLiteError) {
        guard let key = signingKey() else { return }
        try writing { db throws(SQLiteError) in
            try Self.transaction(db) { () throws(SQLiteError) in
                if try PlayLogSignatures.sign(db, key: key, now: now()) != nil { signedDay = Self.day(now()) }
            }
        }
    }

    /// `2026-12-24T21:59:00.250Z`: UTC with milliseconds.
    public static func timestamp(_ date: Date) -> String {
        var ms = Int64(Int(saturating: date.timeIntervalSince1970 * 1000, rounding: .down))
        let msPart = Int(((ms % 1000) + 1000) % 1000)
        ms -= Int64(msPart)
        var t = time_t(ms / 1000)
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), msPart)
    }

    /// Runs a write on the open file, opening it first when it could not be opened before (it may be writable now).
    func writing<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        if db == nil { try openOrSetAside() }
        guard let db else { throw SQLiteError(description: "\(path): not open", code: 14) }  // SQLITE_CANTOPEN
        return try body(db)
    }

    /// Runs a write; a full or read-only disk is one warn line and `nil` (the caller counts what was missed).
    private func write<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) -> T? {
        do {
            let r = try writing(body)
            if failing {
                failing = false
                log.info("play log: writing to \(path) again; \(missed) showing\(missed == 1 ? "" : "s") missed meanwhile")
                missed = 0
            }
            return r
        } catch {
            failed(error)
            return nil
        }
    }

    // The writes themselves are for `PlayLogWriter`'s thread (and the bench, through SPI): the player cannot
    // reach them, so nothing on its frame loop can wait on the file, its lock or the disk.

    /// A showing of `item` starts at `start`, the display side knowing `display` (nil: nothing, an older caller's);
    /// its row id (nil when it could not be written, and counted missed).
    @_spi(Bench) public func begin(_ item: ShowingItem, at start: Date, screenOn: Bool = true, display: ShowingDisplay? = nil) -> Int64? {
        let id = write { db throws(SQLiteError) -> Int64 in try insert(db, item, at: start, screenOn: screenOn, display: display) }
        if id == nil { missed += 1 }
        return id
    }

    /// Showing `id` ended at `end` for `reason` after `length` seconds, its screen off for `screenOff` of them
    /// (`duration` is the time on screen: the rest, to the millisecond), the display side knowing `display` then
    /// (the showing's worst moment; nil: what its start knew stays).
    @_spi(Bench) public func end(_ id: Int64, at end: Date, reason: String, length: Double, screenOff: Double, display: ShowingDisplay? = nil) {
        _ = write { db throws(SQLiteError) in try update(db, id, at: end, reason: reason, length: length, screenOff: screenOff, display: display) }
    }

    /// The open showings are still on at `now` (after a crash they are closed here).
    func heartbeat(at now: Date) {
        _ = write { db throws(SQLiteError) in try beat(db, at: now) }
    }

    /// `begin`, throwing what failed (for `PlayLogWriter`, which tries again).
    func tryBegin(_ item: ShowingItem, at start: Date, screenOn: Bool, display: ShowingDisplay? = nil) throws(SQLiteError) -> Int64 {
        try writing { db throws(SQLiteError) -> Int64 in try insert(db, item, at: start, screenOn: screenOn, display: display) }
    }

    /// `end`, throwing what failed.
    func tryEnd(_ id: Int64, at end: Date, reason: String, length: Double, screenOff: Double, display: ShowingDisplay? = nil) throws(SQLiteError) {
        try writing { db throws(SQLiteError) in try update(db, id, at: end, reason: reason, length: length, screenOff: screenOff, display: display) }
    }

    /// `heartbeat`, throwing what failed.
    func tryHeartbeat(at now: Date) throws(SQLiteError) {
        try writing { db throws(SQLiteError) in try beat(db, at: now) }
    }

    /// Seconds on screen of a showing of `length` seconds with the screen off for `screenOff` of them (to the ms).
    public static func onScreen(length: Double, screenOff: Double) -> Double {
        max(0, ((length - screenOff) * 1000).rounded() / 1000)
    }

    private func insert(_ db: SQLiteDatabase, _ item: ShowingItem, at start: Date, screenOn: Bool, display: ShowingDisplay?) throws(SQLiteError) -> Int64 {
        try db.query("""
            INSERT INTO showings (start_utc, heartbeat_utc, path, size, mtime_utc, kind, region, layout, element, screen_on, screen,
                                  display_state, display_id, cec_power, verdict, thumb)
            VALUES (?1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
            """, [.text(Self.timestamp(start)), .text(item.path), item.size.map { .int($0) } ?? .null,
                  item.mtime.map { .text(Self.timestamp($0)) } ?? .null, .text(item.kind), .text(item.region),
                  item.layout.map { .text($0) } ?? .null, item.element.map { .text($0) } ?? .null, .int(screenOn ? 1 : 0), .text(item.screen)]
                 + Self.values(of: display))
        return db.lastInsertID
    }

    private func update(_ db: SQLiteDatabase, _ id: Int64, at end: Date, reason: String, length: Double, screenOff: Double,
                        display: ShowingDisplay?) throws(SQLiteError) {
        try Self.transaction(db) { () throws(SQLiteError) in
            try complete(db, id, at: end, reason: reason, length: length, screenOff: screenOff)
            if let display { try Self.record(db, id, display) }
            try PlayLogChain.extend(db, ids: [id], now: now(), note: "a new log")
            try signIfDue(db)
        }
    }

    private func complete(_ db: SQLiteDatabase, _ id: Int64, at end: Date, reason: String, length: Double, screenOff: Double) throws(SQLiteError) {
        let offMs = Int64(Int(saturating: screenOff * 1000))
        try db.query("""
            UPDATE showings SET end_utc = ?2, heartbeat_utc = NULL, reason = ?3, screen_off_ms = ?4,
              screen_on = CASE WHEN ?4 > 0 THEN 0 ELSE screen_on END, duration = ?5
            WHERE id = ?1
            """, [.int(id), .text(Self.timestamp(end)), .text(reason), .int(offMs), .real(Self.onScreen(length: length, screenOff: screenOff))])
    }

    private func beat(_ db: SQLiteDatabase, at now: Date) throws(SQLiteError) {
        try db.query("UPDATE showings SET heartbeat_utc = ?1 WHERE end_utc IS NULL", [.text(Self.timestamp(now))])
    }

    /// The showings that started at or after `since` (today's, from local midnight): how many, and their seconds
    /// on screen; nil when the log cannot be read.
    func totals(since: Date) -> (showings: Int, seconds: Double)? {
        guard let db, let row = try? db.query("""
            SELECT count(*), total(duration) FROM showings WHERE start_utc >= ?1 AND end_utc IS NOT NULL
            """, [.text(Self.timestamp(since))]).first, row.count == 2 else { return nil }
        return (Int(row[0].int ?? 0), row[1].real ?? 0)
    }

    /// Removes showings that ended before `date` (retention), as far as every row before them did (the chain is
    /// cut only at its start: a row still on screen keeps those after it); how many went.
    @discardableResult
    func prune(before date: Date) -> Int {
        write { db throws(SQLiteError) -> Int in try remove(db, before: date) } ?? 0
    }

    /// `prune`, throwing what failed.
    func tryPrune(before date: Date) throws(SQLiteError) -> Int {
        try writing { db throws(SQLiteError) -> Int in try remove(db, before: date) }
    }

    private func remove(_ db: SQLiteDatabase, before date: Date) throws(SQLiteError) -> Int {
        try Self.transaction(db) { () throws(SQLiteError) -> Int in
            try PlayLogRetention.removeChainStart(db, endedBefore: Self.timestamp(date), now: now())
        }
    }
}
