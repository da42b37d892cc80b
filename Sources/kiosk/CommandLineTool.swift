import Foundation
import KioskCore
import KioskMedia
import KioskPlayer

/// The `kiosk` subcommands.
struct CommandLineTool {
    let log: Log

    /// Runs the command line and returns the exit status.
    func run(_ args: [String]) -> Int32 {
        guard let command = args.first else {
            Log.writeStandardError(ToolHelp.summary + "\n")
            return 2
        }
        var expanded = ExpandedArguments()
        do {
            expanded = try ConfigFile.expandScreens(Array(args.dropFirst()), read: { path in
                FileAccess.contents(path).flatMap { String(data: $0, encoding: .utf8) }
            })
            // [screen NAME] sections are play's, record's and snapshot's (check-config reads its FILE itself)
            if !["play", "record", "snapshot"].contains(command), let section = expanded.sections.first {
                throw ConfigFile.sectionsNotRead(section)
            }
            let rest = expanded.args
            switch command {
            case "--help", "-h", "help":
                print(ToolHelp.summary)
                return 0
            case "--version", "version":
                print(KioskVersion.text)
                return 0
            case "--manual":
                print(ManualPage.roff, terminator: "")
                return 0
            case "passwd": return try PasswdCommand(log: log).run(rest)
            case "play":
                return try Commands(log: log, raw: Array(args.dropFirst()), origins: expanded.origins, sections: expanded.sections).play(rest)
            case "record": return try Commands(log: log, origins: expanded.origins, sections: expanded.sections).record(rest)
            case "snapshot": return try Commands(log: log, origins: expanded.origins, sections: expanded.sections).snapshot(rest)
            case "probe": return try Commands(log: log).probe(rest)
            case "outputs": return try Commands(log: log).outputs(rest)
            case "check-config": return try Commands(log: log).checkConfig(rest)
            case "ctl": return try ControlCommand(log: log).run(rest)
            case "report": return try ReportCommand(log: log).run(rest)
            case "content": return try ContentCommand(log: log).run(rest)
            case "fleet": return try FleetCommand(log: log).run(rest)
            case "web-snapshot": return try WebSnapshotCommand(log: log).run(rest)
            default:
                throw UsageError("unknown command '\(command)' (commands: \(CommandHelp.all.map(\.name).joined(separator: ", ")))")
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
