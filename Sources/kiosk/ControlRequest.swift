import Foundation
import KioskCore

/// What one `kiosk ctl` command line asks of the server, parsed from its words (`goto 2`, `set volume 50`).
enum ControlRequest {
    /// Run one mpv command; print nothing on success.
    case command([Any])
    /// Read a property and print its value.
    case get(String)
    /// Print a property's value now and at every change.
    case observe(String)
    /// Print one line about what plays.
    case status
    /// Run one command and print the text it answers (`play-report`).
    case text([Any])
    /// Run one command and print the line it answers (`check-content`'s `checking URL`).
    case answer([Any])
    /// Print the content fetcher's status (`kiosk-content`) as a few lines.
    case content
    /// Print the health readings (`kiosk-health`) as a table.
    case health

    /// What `report` asks for beyond its word: `--by`, `--format`, `--since`, `--until`, `--verdict`.
    struct ReportOptions {
        var by: String?
        var format: String?
        var since: String?
        var until: String?
        var verdict: String?
        var any: Bool { by != nil || format != nil || since != nil || verdict != nil }
    }

    /// The subcommands, for help and usage errors.
    static let help = """
    commands:
      next, prev                 play the next or the previous item (playlist-next, playlist-prev)
      pause, resume, toggle      pause, resume, or toggle pause
      goto N                     play item N of the playlist, counting from 0 (playlist-play-index)
      load FILE [append|replace] replace the playlist with FILE (default), or append it (loadfile)
      load URL                   play the index (SMIL or M3U) at an http(s) URL from the content cache, once it
                                 and its media are fetched, instead of what plays (loadfile)
      remove N                   remove item N of the playlist, counting from 0 (playlist-remove)
      get PROP                   print a property: strings as they are, other values as JSON
      set PROP VALUE             set a property; VALUE is read as JSON when it is JSON (true, 50), else as text
      observe PROP               print a property now and at each change, until the server goes away or ^C
      screenshot OUT.png         save the picture on the screen (screenshot-to-file)
      notify NAME                begin what the layout playing waits on with notify(NAME) (notify)
      alert TEXT [--until T]     an emergency message over everything, until T (90s, 10min, HH:MM,
                                 YYYY-MM-DDTHH:MM[:SS]) or until cleared (alert)
      alert --clear              end the alert on screen
      status                     one line: playing|paused N/COUNT PATH TIME/DURATION s, or idle
      content                    the content fetcher: its URL, the last check and its result, when what plays
                                 was fetched, the cache's use (kiosk-content)
      health                     the health readings, each with its unit and the time it was read: temperature,
                                 throttling, CPU, memory, free space, uptime, version, frames late or dropped in
                                 the last hour, decode failures, the content's last good check, and each display's
                                 connector state and monitor (EDID) (kiosk-health; docs/health.md)
      check-content              check the content's URL now, not at the end of its period (check-content)
      report [--by item|hour|day|region|screen|verdict] [--format table|csv|json|xibo] [--since T] [--until T] [--verdict V]
                                 the play log's report, as 'kiosk report' writes it (T: YYYY-MM-DD[THH:MM[:SS]], local)
      sign-play-log              sign the play log's chain head now with the screen's key (sign-play-log)
    """

    /// The names of the subcommands.
    static let names = ["next", "prev", "pause", "resume", "toggle", "goto", "load", "remove", "get", "set",
                        "observe", "screenshot", "notify", "alert", "status", "content", "health", "check-content", "report",
                        "sign-play-log"]

    /// Parses `words` (the subcommand and its arguments). Relative file names are made absolute against
    /// `directory`, since the server's working folder is not ours.
    init(_ words: [String], directory: String, until: String? = nil, clear: Bool = false,
         report: ReportOptions = ReportOptions()) throws(UsageError) {
        guard let verb = words.first else {
            throw UsageError("ctl: give a command (\(Self.names.joined(separator: ", ")))")
        }
        if verb != "report", report.any { throw UsageError("ctl: --by, --format and --since go with report") }
        if verb != "alert", verb != "report", until != nil || clear { throw UsageError("ctl: --until goes with alert and report, --clear with alert") }
        let args = Array(words.dropFirst())
        func arity(_ range: ClosedRange<Int>, _ form: String) throws(UsageError) {
            guard range.contains(args.count) else {
                throw UsageError("ctl \(verb): usage is 'kiosk ctl \(form)' (got \(args.count) argument\(args.count == 1 ? "" : "s"))")
            }
        }
        switch verb {
        case "next": try arity(0...0, "next"); self = .command(["playlist-next"])
        case "prev": try arity(0...0, "prev"); self = .command(["playlist-prev"])
        case "pause": try arity(0...0, "pause"); self = .command(["set_property", "pause", true])
        case "resume": try arity(0...0, "resume"); self = .command(["set_property", "pause", false])
        case "toggle": try arity(0...0, "toggle"); self = .command(["cycle", "pause"])
        case "goto":
            try arity(1...1, "goto N")
            self = .command(["playlist-play-index", try Self.index(args[0], verb)])
        case "remove":
            try arity(1...1, "remove N")
            self = .command(["playlist-remove", try Self.index(args[0], verb)])
        case "load":
            try arity(1...2, "load FILE [append|replace]")
            let mode = args.count > 1 ? args[1] : "replace"
            guard mode == "append" || mode == "replace" else {
                throw UsageError("ctl load: '\(mode)' is not append or replace")
            }
            if ContentMap.isRemote(args[0]), mode != "replace" {
                throw UsageError("ctl load: a URL replaces what plays (kiosk plays one index from a server at a time); append takes a FILE")
            }
            self = .command(["loadfile", Self.absolute(args[0], in: directory, urls: true), mode])
        case "get": try arity(1...1, "get PROP"); self = .get(args[0])
        case "set": try arity(2...2, "set PROP VALUE"); self = .command(["set_property", args[0], Self.value(args[1])])
        case "observe": try arity(1...1, "observe PROP"); self = .observe(args[0])
        case "screenshot":
            try arity(1...1, "screenshot OUT.png")
            self = .command(["screenshot-to-file", Self.absolute(args[0], in: directory, urls: false)])
        case "status": try arity(0...0, "status"); self = .status
        case "content": try arity(0...0, "content"); self = .content
        case "health": try arity(0...0, "health"); self = .health
        case "check-content": try arity(0...0, "check-content"); self = .answer(["check-content"])
        case "sign-play-log": try arity(0...0, "sign-play-log"); self = .answer(["sign-play-log"])
        case "report":
            try arity(0...0, "report [--by G] [--format F] [--since T] [--until T]")
            var r = report
            r.until = until
            self = .text(try Self.reportCommand(r, zone: .current))
        case "notify": try arity(1...1, "notify NAME"); self = .command(["notify", args[0]])
        case "alert":
            if clear {
                try arity(0...0, "alert --clear")
                self = .command(["alert", ""])
                return
            }
            let seconds = try until.map { text throws(UsageError) in try Self.secondsUntil(text, now: Date(), zone: .current) }
            guard args.count == 1, !args[0].trimmingCharacters(in: .whitespaces).isEmpty else {
                throw UsageError("ctl alert: usage is 'kiosk ctl alert TEXT [--until T]' or 'kiosk ctl alert --clear' (quote TEXT)")
            }
            self = .command(seconds.map { ["alert", args[0], $0] } ?? ["alert", args[0]])
        default:
            throw UsageError("ctl: unknown command '\(verb)' (commands: \(Self.names.joined(separator: ", ")))")
        }
    }

    /// Seconds from `now` to `text`: a duration (`90`, `90s`, `10min`, `1h`), a local time today (`HH:MM`, or
    /// tomorrow when it has passed), or a local date and time (`YYYY-MM-DDTHH:MM[:SS]`) in `zone`, which must be
    /// ahead; at most 100 years ahead (`TimeSpan`), as the server takes it.
    static func secondsUntil(_ text: String, now: Date, zone: TimeZone) throws(UsageError) -> Double {
        if text.contains("T") {
            let end = try ClockOptions.startTime(text, timeZone: zone, flag: "ctl alert: --until")
            guard end > now else { throw UsageError("ctl alert: --until \(text) has passed") }
            guard let span = TimeSpan(seconds: end.timeIntervalSince(now)) else {
                throw UsageError("ctl alert: --until \(text) is more than 100 years ahead")
            }
            return span.seconds
        }
        let parts = text.split(separator: ":")
        if parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0...23).contains(h), (0...59).contains(m), parts[1].count == 2 {
            let (day, second) = LocalClock.wallClock(of: now, in: zone)
            var end = LocalClock.instant(day, second: h * 3600 + m * 60, in: zone)
            if Double(h * 3600 + m * 60) <= second { end = LocalClock.instant(day.adding(days: 1), second: h * 3600 + m * 60, in: zone) }
            return end.timeIntervalSince(now)
        }
        guard let s = SMILValues.clock(text), s > 0 else {
            throw UsageError("ctl alert: --until '\(text)' is not a time up to 100 years ahead (90s, 10min, HH:MM, YYYY-MM-DDTHH:MM)")
        }
        return s
    }

    /// The `play-report` command for `r`: the grouping and format checked here, the local times `--since` and
    /// `--until` sent as UTC instants (the server may keep another zone).
    static func reportCommand(_ r: ReportOptions, zone: TimeZone) throws(UsageError) -> [Any] {
        let by = r.by ?? "item", format = r.format ?? "table"
        guard PlayReportQuery.groupings.contains(by) else { throw UsageError("ctl report: --by '\(by)' is not item, hour, day, region, screen or verdict") }
        guard PlayReportQuery.formats.contains(format) else { throw UsageError("ctl report: --format '\(format)' is not table, csv, json or xibo") }
        func instant(_ text: String?, _ name: String) throws(UsageError) -> String {
            guard let text else { return "" }
            do throws(ReportTime.Refusal) {
                return PlayReportQuery.text(try ReportTime.parse(text, zone: zone))  // as kiosk report reads it
            } catch {
                throw UsageError("ctl report: --\(name): \(error)")
            }
        }
        let verdict = r.verdict ?? "seen"
        guard PlayReportQuery.verdicts.contains(verdict) else {
            throw UsageError("ctl report: --verdict '\(verdict)' is not \(PlayReportQuery.verdicts.joined(separator: ", "))")
        }
        return ["play-report", by, format, try instant(r.since, "since"), try instant(r.until, "until"), verdict]
    }

    /// A 0-based playlist index.
    private static func index(_ word: String, _ verb: String) throws(UsageError) -> Int {
        guard let n = Int(word), n >= 0 else {
            throw UsageError("ctl \(verb): '\(word)' is not a playlist index (0, 1, 2…)")
        }
        return n
    }

    /// `word` as a JSON value when it is one (`true`, `50`, `"x"`, `[1]`), else the text itself.
    static func value(_ word: String) -> Any {
        (try? JSONSerialization.jsonObject(with: Data(word.utf8), options: .fragmentsAllowed)) ?? word
    }

    /// `path` made absolute against `directory`; with `urls`, anything with a scheme (`http://…`) is kept.
    static func absolute(_ path: String, in directory: String, urls: Bool) -> String {
        if path.hasPrefix("/") || (urls && path.contains("://")) { return path }
        return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: directory, isDirectory: true))
            .standardizedFileURL.path
    }
}
