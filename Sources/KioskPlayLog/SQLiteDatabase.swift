internal import CSQLite
import Foundation

/// A SQLite failure in one line: the file and the reason (SQLite's message, never the statement's text), and
/// SQLite's primary result code.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// `FILE: REASON`.
    public let description: String
    /// The reason alone.
    public let reason: String
    /// SQLite's primary result code (`SQLITE_FULL` 13, `SQLITE_READONLY` 8, `SQLITE_CORRUPT` 11, `SQLITE_NOTADB` 26, …).
    public let code: Int32

    /// `reason` about the file at `path`.
    public init(path: String, reason: String, code: Int32) {
        description = "\(path): \(reason)"
        self.reason = reason
        self.code = code
    }

    /// A failure said whole in `description` (which names the file).
    public init(description: String, code: Int32) {
        self.description = description
        reason = description
        self.code = code
    }

    /// Whether trying again later may work: another connection holds the lock, or the disk is full or cannot
    /// be written for now.
    public var isTransient: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED || isUnwritable }

    /// Whether the file is damaged or no database at all (it is then moved aside and started anew).
    public var isCorrupt: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
    /// Whether the disk is full or cannot be written (logging waits for it to come back).
    public var isUnwritable: Bool {
        [SQLITE_FULL, SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_PERM].contains(code)
    }
}

/// One SQLite connection (Debian's libsqlite3), used from one thread at a time: statements run with `execute`
/// and `query`, values bound by position.
final class SQLiteDatabase {
    private var db: OpaquePointer?
    let path: String

    /// A value bound to, or read from, a statement.
    enum Value: Equatable {
        case null
        case int(Int64)
        case real(Double)
        case text(String)
    }

    /// SQLite leaves its files' owners alone (see `kiosk_sqlite_keep_owners`); done once, before the first open.
    private static let ownersKept: Void = { _ = kiosk_sqlite_keep_owners() }()

    /// Opens (`readOnly`) or opens and creates `path`, waiting up to `busy` seconds for a lock.
    init(path: String, readOnly: Bool = false, busy: Double = 2) throws(SQLiteError) {
        Self.ownersKept
        self.path = path
        try Self.requireRegularFile(path)
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK else {
            let error = SQLiteError(path: path, reason: db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc)),
                                    code: rc & 0xFF)
            sqlite3_close_v2(db)
            db = nil
            throw error
        }
        sqlite3_busy_timeout(db, Int32(clamping: Int(saturating: busy * 1000, rounding: .towardZero)))
        sqlite3_extended_result_codes(db, 0)
    }

    deinit { sqlite3_close_v2(db) }

    /// Refuses what is at `path` unless it is a regular file (or nothing, to be created): SQLite's own `open` of a
    /// FIFO would wait for a writer for good, and a folder gave "disk I/O error". Looked at with `stat`, which
    /// never waits and opens nothing: closing a descriptor of our own on the log would drop the POSIX locks that
    /// the process's other connections to it hold (the writer's, the checkpointer's), and SQLite relies on them.
    private static func requireRegularFile(_ path: String) throws(SQLiteError) {
        var s = stat()
        guard stat(path, &s) == 0 else { return }  // none yet, or unreachable: SQLite's open says which
        switch s.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw SQLiteError(path: path, reason: "is a folder, not a play log", code: SQLITE_CANTOPEN)
        case S_IFIFO: throw SQLiteError(path: path, reason: "is a FIFO, not a play log (a regular file is needed)", code: SQLITE_CANTOPEN)
        default: throw SQLiteError(path: path, reason: "is not a regular file (a play log is one)", code: SQLITE_CANTOPEN)
        }
    }

    /// What failed: the file and SQLite's message (the statement stays out of it: it says nothing to a user).
    private func failure(_ rc: Int32) -> SQLiteError {
        SQLiteError(path: path, reason: String(cString: sqlite3_errmsg(db)), code: rc & 0xFF)
    }

    /// Runs `sql` (one or more statements, no results).
    func execute(_ sql: String) throws(SQLiteError) {
        let rc = sqlite3_exec(db, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw failure(rc) }
    }

    /// Runs one statement with `values` bound; returns its rows.
    @discardableResult
    func query(_ sql: String, _ values: [Value] = []) throws(SQLiteError) -> [[Value]] {
        var stmt: OpaquePointer?
        var rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK else { throw failure(rc) }
        defer { sqlite3_finalize(stmt) }
        for (i, v) in values.enumerated() {
            let n = Int32(i + 1)
            switch v {
            case .null: sqlite3_bind_null(stmt, n)
            case .int(let x): sqlite3_bind_int64(stmt, n, x)
            case .real(let x): sqlite3_bind_double(stmt, n, x)
            case .text(let s): sqlite3_bind_text(stmt, n, s, -1, kiosk_sqlite_transient())
            }
        }
        var rows: [[Value]] = []
        while true {
            rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { return rows }
            guard rc == SQLITE_ROW else { throw failure(rc) }
            rows.append((0..<sqlite3_column_count(stmt)).map { c in
                switch sqlite3_column_type(stmt, c) {
                case SQLITE_INTEGER: return .int(sqlite3_column_int64(stmt, c))
                case SQLITE_FLOAT: return .real(sqlite3_column_double(stmt, c))
                case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(stmt, c)))
                default: return .null
                }
            })
        }
    }

    /// The row id of the last insert.
    var lastInsertID: Int64 { sqlite3_last_insert_rowid(db) }

    /// Whether a transaction is open on this connection (a batch's): a nested one is a savepoint.
    var inTransaction: Bool { sqlite3_get_autocommit(db) == 0 }
}

extension SQLiteDatabase.Value {
    var int: Int64? { if case .int(let x) = self { x } else if case .real(let x) = self { Int64(Int(saturating: x, rounding: .towardZero)) } else { nil } }
    var real: Double? { if case .real(let x) = self { x } else if case .int(let x) = self { Double(x) } else { nil } }
    var text: String? { if case .text(let s) = self { s } else { nil } }
}
