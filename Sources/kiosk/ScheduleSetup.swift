import Foundation
import KioskCore
import KioskMedia
import KioskPlayer

/// `--schedule FILE`, `--timezone AREA/CITY` and `--start-time T` for `play` and `record`.
enum ScheduleSetup {
    /// Reads and checks the schedule file: every problem is one `FILE:LINE: reason` line on standard error, then
    /// a usage error (exit 2).
    static func read(_ path: String) throws -> Schedule {
        guard let data = FileAccess.contents(path), let text = String(data: data, encoding: .utf8) else {
            throw UsageError("--schedule: cannot read '\(path)'")
        }
        do {
            return try Schedule.parse(text: text, file: path, base: (path as NSString).deletingLastPathComponent)
        } catch {
            for line in error.lines { Log.writeStandardError("kiosk: \(Log.escaped(line))\n") }
            throw UsageError("--schedule: \(error.problems.count) problem\(error.problems.count == 1 ? "" : "s") in '\(path)'")
        }
    }

    /// The driver the options ask for, or nil without `--schedule`. `realClock`: the wall clock is the system's
    /// (play without `--start-time`, so NTP's corrections count); otherwise it runs from the start time (or now)
    /// with the player's clock (record's virtual clock).
    static func driver(_ o: ParsedOptions, fallback: [PlaylistItem], realClock: Bool, log: Log) throws -> ScheduleDriver? {
        guard let file = o.string("schedule") else {
            for flag in ["timezone", "start-time"] where o.string(flag) != nil {
                throw UsageError("--\(flag) needs --schedule")
            }
            return nil
        }
        let zone = try o.string("timezone").map { text throws(UsageError) in try ClockOptions.timeZone(text) } ?? .current
        let start = try o.string("start-time").map { text throws(UsageError) in try ClockOptions.startTime(text, timeZone: zone) }
        let schedule = try read(file)
        let wall: (Double) -> Date
        if let start {
            wall = { start.addingTimeInterval($0) }
        } else if realClock {
            wall = { _ in Date() }
        } else {
            let now = Date()
            wall = { now.addingTimeInterval($0) }
        }
        return ScheduleDriver(schedule: schedule, timeZone: zone, wall: wall, fallbackItems: fallback, log: log) { path in
            PlaylistLoader(log: log).load([path])
        }
    }
}
