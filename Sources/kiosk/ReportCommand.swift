import Foundation
import KioskCore
import KioskPlayLog

/// `kiosk report`: what the play log says was shown, counted and summed (see `PlayLogReport`).
struct ReportCommand {
    let log: Log

    static let specs: [OptionSpec] = [
        OptionSpec("play-log", .text, metavar: "FILE", "the play log (default: plays.sqlite in the state folder)"),
        OptionSpec("since", .text, metavar: "YYYY-MM-DD[THH:MM[:SS]]", "showings that started at or after this local time (or with Z or +HH:MM)"),
        OptionSpec("until", .text, metavar: "YYYY-MM-DD[THH:MM[:SS]]", "showings that started before this local time (or with Z or +HH:MM)"),
        OptionSpec("timezone", .text, metavar: "AREA/CITY", "the zone of --since and --until (default: the system's)"),
        OptionSpec("by", .choice(PlayLogReport.Grouping.allCases.map(\.rawValue)), "group by item (default), hour, day, region, screen or verdict (hours and days in UTC)"),
        OptionSpec("verdict", .choice(PlayLogReport.VerdictFilter.names),
                   "count the showings of this verdict: seen (default), all, screen-off, display-absent, tv-standby or unknown; xibo counts only seen"),
        OptionSpec("format", .choice(PlayLogReport.Format.allCases.map(\.rawValue)), "table (default), csv, json or xibo (Xibo's stats XML)"),
        OptionSpec("verify", .flag, "check the play log's hash chain and every signature; exit 1 naming the first row that does not match"),
        OptionSpec("key", .text, metavar: "PUBKEY|FILE", "the public key --verify checks against (base64 or hex, or a file holding it; default: the log's own key, LOG.key)"),
        OptionSpec("public-key", .flag, "print the public key of the screen's play log key (LOG.key), in base64, one line"),
        OptionSpec("sign", .flag, "sign the chain's head now with the screen's key (kiosk signs it each day and at its end anyway)"),
        OptionSpec("log-level", .choice(LogLevel.allCases.map(\.name)), "how much to say on stderr (default warn)"),
    ]

    func run(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") {
            print(CommandHelp.report.text, terminator: "")
            return 0
        }
        let o = try ParsedOptions.parse(args, specs: Self.specs, command: "report")
        guard o.positional.isEmpty else { throw UsageError("report: unexpected '\(o.positional[0])' (the log is --play-log FILE)") }
        let zone = try o.string("timezone").map { value throws(UsageError) in try ClockOptions.timeZone(value) } ?? .current
        func time(_ name: String) throws -> Date? {
            guard let text = o.string(name) else { return nil }
            do { return try ReportTime.parse(text, zone: zone) } catch { throw UsageError("--\(name): \(error)") }  // as the web page reads it
        }
        let since = try time("since"), until = try time("until")
        let path: String
        if let named = o.string("play-log") {
            path = named
        } else if let folder = StateDirectory.standard(environment: ProcessInfo.processInfo.environment,
                                                       canWrite: { access($0, W_OK) == 0 }) {
            path = StateDirectory.joined(folder, "plays.sqlite")
        } else {
            throw UsageError("report: no state folder; name the log with --play-log FILE")
        }
        if o.has("verify") || o.has("public-key") || o.has("sign") {
            return try PlayLogProof(log: log).run(o, path: path)
        }
        let by = PlayLogReport.Grouping(rawValue: o.string("by") ?? "item") ?? .item
        let format = PlayLogReport.Format(rawValue: o.string("format") ?? "table") ?? .table
        let verdicts = PlayLogReport.VerdictFilter(name: o.string("verdict") ?? "seen") ?? .seen
        if format == .xibo, verdicts != .seen {
            throw UsageError("report: --format xibo counts only seen showings (a CMS pays for those); leave out --verdict")
        }
        do {
            let rows = try PlayLogReport.rows(path: path, since: since, until: until, by: by, perItem: format == .xibo, verdicts: verdicts)
            print(PlayLogReport.render(rows, by: by, format: format), terminator: "")
            if format == .table {  // the others, said apart (a CSV or JSON's reader asks with --verdict or --by verdict)
                print(PlayLogReport.leftOutLine(try PlayLogReport.leftOut(path: path, since: since, until: until, verdicts: verdicts)), terminator: "")
            }
            return 0
        } catch {
            log.error("report: \(error.description)")
            return 1
        }
    }
}
