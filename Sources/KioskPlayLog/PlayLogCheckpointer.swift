import Foundation
import KioskCore

/// Moves the play log's WAL into the database file on a thread of its own, every few seconds, so that the
/// player's thread only ever appends to the WAL. SQLite's automatic checkpoint would run on the writer, in the
/// commit that crosses 1,000 pages, and its fsync took 18 ms there (`kiosk-bench playlog`): a frame at 60 Hz.
/// A passive checkpoint waits for no one and holds no one up; one that fails (a full disk) is tried again at the
/// next tick, and the log's own writer says what failed.
final class PlayLogCheckpointer: @unchecked Sendable {
    private let path: String
    private let every: Double
    private let wake = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stopping = false

    /// Checkpoints the WAL of the log at `path` every `every` seconds, from now until `stop`.
    init(path: String, every: Double = 5) {
        self.path = path
        self.every = every
        let thread = Thread { [self] in
            run()
            ended.signal()
        }
        thread.name = "kiosk-playlog-checkpoint"
        thread.start()
    }

    private var shouldStop: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    private func run() {
        var db: SQLiteDatabase?
        while !shouldStop {
            _ = wake.wait(timeout: .now() + every)
            if shouldStop { break }
            do throws(SQLiteError) {
                let connection: SQLiteDatabase
                if let db { connection = db } else { connection = try SQLiteDatabase(path: path, busy: 0) }
                db = connection
                _ = try connection.query("PRAGMA wal_checkpoint(PASSIVE)")
            } catch {
                db = nil  // opened again at the next tick (the file may have been moved aside)
            }
        }
    }

    /// Ends the thread (within a second); the writer's own close checkpoints what is left.
    func stop() {
        lock.lock()
        stopping = true
        lock.unlock()
        wake.signal()
        _ = ended.wait(timeout: .now() + 1)
    }
}
