import Foundation
import Glibc
import KioskCore
@testable import KioskMedia

/// What a folder watcher reported, collected across threads; every wait is bounded.
final class WatchReports: @unchecked Sendable {
    private let condition = NSCondition()
    private var reports: [FolderChanges] = []
    /// Called on the watcher's thread for each report before it is kept (a test may hold the watcher there).
    var onReport: (@Sendable (Int) -> Void)?

    /// Keeps a report.
    func add(_ changes: FolderChanges) {
        condition.lock()
        let n = reports.count
        let hook = onReport
        condition.unlock()
        hook?(n)
        condition.lock()
        reports.append(changes)
        condition.broadcast()
        condition.unlock()
    }

    /// Every report so far.
    var all: [FolderChanges] {
        condition.lock()
        defer { condition.unlock() }
        return reports
    }

    /// Every path added, and every path removed, across the reports from `from` on.
    func added(from: Int = 0) -> [String] { all.dropFirst(from).flatMap(\.added) }
    func removed(from: Int = 0) -> [String] { all.dropFirst(from).flatMap(\.removed) }

    /// Waits up to `timeout` seconds for `done` to hold of the reports (asked again at each report, and every
    /// 50 ms for what else it looks at); whether it did.
    func wait(_ timeout: Double, until done: ([FolderChanges]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !done(reports) {
            if Date() >= deadline { return false }
            _ = condition.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.05)))
        }
        return true
    }

    /// Waits for the report count to reach `n`.
    func waitForCount(_ n: Int, timeout: Double = 10) -> Bool { wait(timeout) { $0.count >= n } }
}

/// Log lines, collected.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    /// A log at `level` writing here.
    lazy var log = Log(level: .info) { [weak self] line in self?.append(line) }

    private func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }

    /// The lines containing `text`.
    func matching(_ text: String) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines.filter { $0.contains(text) }
    }
}

/// File operations for folder tests.
enum Files {
    /// Writes `bytes` bytes to `path` and closes it (a complete copy).
    static func write(_ path: String, bytes: Int = 64) {
        let fd = openForWriting(path)
        append(fd, count: bytes)
        close(fd)
    }

    /// Makes the folder `path` and its parents.
    static func mkdir(_ path: String) {
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Renames `from` to `to`.
    static func move(_ from: String, _ to: String) { rename(from, to) }

    /// Removes `path` and everything under it.
    static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    /// Opens `path` for writing, creating it, and returns the descriptor (kept open by the caller).
    static func openForWriting(_ path: String) -> Int32 { open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644) }

    /// Appends `count` bytes through `fd`.
    static func append(_ fd: Int32, count: Int) {
        let data = [UInt8](repeating: 1, count: count)
        _ = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, count) }
    }
}
