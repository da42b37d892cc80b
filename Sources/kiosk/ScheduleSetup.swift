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
    /// The local wall clock at a player time, and its zone: `--start-time` (then the player's clock: record's
    /// virtual one), else the system's clock (`realClock`: play, so NTP's corrections count) or now plus the
    /// player's time (record).
    static func wallClock(_ o: ParsedOptions, realClock: Bool) throws -> (at: @Sendable (Double) -> Date, zone: TimeZone) {
        let zone = try o.string("timezone").map { text throws(UsageError) in try ClockOptions.timeZone(text) } ?? .current
        let start = try o.string("start-time").map { text throws(UsageError) in try ClockOptions.startTime(text, timeZone: zone) }
        if let start { return ({ start.addingTimeInterval($0) }, zone) }
        if realClock { return ({ _ in Date() }, zone) }
        let now = Date()
        return ({ now.addingTimeInterval($0) }, zone)
    }

    /// The schedule's driver: the command line's paths are the fallback (loaded again each time it comes back),
    /// `folders` watches the folders of whatever plays, and `onPlay` hears the paths of each target that starts.
    static func driver(_ o: ParsedOptions, fallback: [PlaylistItem], realClock: Bool, folders: ScheduledFolders? = nil,
                       onPlay: @escaping ([String]) -> Void = { _ in }, log: Log) throws -> ScheduleDriver? {
        let (wall, zone) = try wallClock(o, realClock: realClock)
        guard let file = o.string("schedule") else { return nil }
        let schedule = try read(file)
        let confined = o.string("http") != nil
        return ScheduleDriver(schedule: schedule, timeZone: zone, wall: wall, fallbackItems: fallback,
                              fallbackPaths: o.positional, log: log,
                              onPlay: { paths, items in
                                  folders?.play(paths: paths, items: items)
                                  onPlay(paths)
                              }) { path in
            // editable from the web page (--http), the schedule's playlists, folders and files must lie beneath
            // --media-root as a remote's do (a no-op without a root); an operator's own schedule is not confined
            PlaylistLoader(log: log, confined: confined).load([path])
        }
    }
}
