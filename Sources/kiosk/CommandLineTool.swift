import Foundation
import KioskCore
import KioskMedia
import KioskPlayer

/// The `kiosk` subcommands.
struct CommandLineTool {
    let log: Log

    static let summary = """
    usage: kiosk COMMAND [OPTIONS] [PATH ...]

    An offline, full-screen slideshow player for Linux.

    commands:
      play [PATH ...]          play files, folders and .m3u playlists (no path: the built-in demo)
                               on the DRM/KMS display, or headless when there is none
      record [PATH ...]        render the slideshow into a video file on a virtual clock
      snapshot INPUT           render one frame of one item into a PNG
      probe FILE ...           describe files as JSON lines
      outputs                  list DRM/KMS cards, connectors, status and modes
      check-config FILE        check a config, its schedule and playlists; print the next 7 days
      ctl COMMAND [ARG ...]    control a running player over its IPC socket (next, pause, get, observe, status…)
      report                   count what the play log says was shown, per item, hour, day or region
      passwd FILE              read a password on standard input and write its crypt(3) hash for --http-password-file

    Run 'kiosk COMMAND --help' for a command's options. '--config FILE' anywhere after the command reads
    'name = value' lines (the same names as the options; 'path = …' adds what to play).
    """

    /// Runs the command line and returns the exit status.
    func run(_ args: [String]) -> Int32 {
        guard let command = args.first else {
            Log.writeStandardError(Self.summary + "\n")
            return 2
        }
        var expanded: (args: [String], origins: [String?]) = ([], [])
        do {
            expanded = try ConfigFile.expandLocated(Array(args.dropFirst()), read: { path in
                FileAccess.contents(path).flatMap { String(data: $0, encoding: .utf8) }
            })
            let rest = expanded.args
            switch command {
            case "--help", "-h", "help":
                print(Self.summary)
                return 0
            case "--version", "version":
                print(KioskVersion.text)
                return 0
            case "passwd": return try PasswdCommand(log: log).run(rest)
            case "play": return try Commands(log: log, raw: Array(args.dropFirst())).play(rest)
            case "record": return try Commands(log: log).record(rest)
            case "snapshot": return try Commands(log: log).snapshot(rest)
            case "probe": return try Commands(log: log).probe(rest)
            case "outputs": return try Commands(log: log).outputs(rest)
            case "check-config": return try Commands(log: log).checkConfig(rest)
            case "ctl": return try ControlCommand(log: log).run(rest)
            case "report": return try ReportCommand(log: log).run(rest)
            default:
                throw UsageError("unknown command '\(command)' (commands: play, record, snapshot, probe, outputs, ctl, check-config, report, passwd)")
            }
        } catch let e as UsageError {
            let located = ConfigFile.locate(e, args: expanded.args, origins: expanded.origins)
            Log.writeStandardError(log.syslogPrefix(.error) + "kiosk: \(Log.escaped(located.message))\n")
            return 2
        } catch {
            log.error("\(error)")
            return 1
        }
    }
}
