import Foundation
import KioskCore
import KioskFleet
import KioskMedia

/// `kiosk fleet --mqtt HOST[:PORT]`: every kiosk on a broker, from its retained messages (`kiosk/ID/availability`,
/// `kiosk/ID/health`): one line each, the offline ones first, then those with active alerts, then the rest; `--json`
/// for the same as JSON. A broker that cannot be read is one line naming it and why, exit 1.
struct FleetCommand {
    let log: Log

    static let specs: [OptionSpec] = [
        OptionSpec("mqtt", .text, metavar: "HOST[:PORT]", "the broker (port 1883, 8883 with --mqtt-tls-ca; [IPv6]:PORT)"),
        OptionSpec("mqtt-user", .text, metavar: "NAME", "the broker's user name"),
        OptionSpec("mqtt-password-file", .text, metavar: "FILE", "the password, on the file's first line (needs --mqtt-user)"),
        OptionSpec("mqtt-tls-ca", .text, metavar: "FILE", "connect with TLS, trusting the CA certificates in FILE"),
        OptionSpec("wait", .number(0.1...60), metavar: "S", "wait at most S seconds for the retained messages (default 2)"),
        OptionSpec("json", .flag, "print JSON: broker, read_at, and each kiosk's figures and alerts"),
        OptionSpec("log-level", .choice(LogLevel.allCases.map(\.name)), "how much to say on stderr (default warn)"),
    ]

    func run(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") {
            print(CommandHelp.fleet.text, terminator: "")
            return 0
        }
        let o = try ParsedOptions.parse(args, specs: Self.specs, command: "fleet")
        guard o.positional.isEmpty else { throw UsageError("fleet: unexpected '\(o.positional[0])' (the broker is --mqtt HOST[:PORT])") }
        guard let address = o.string("mqtt") else { throw UsageError("fleet: name the broker with --mqtt HOST[:PORT]") }
        let tls = o.string("mqtt-tls-ca")
        let (host, port) = try FleetSettings.broker(address, defaultPort: tls == nil ? FleetSettings.plainPort : FleetSettings.tlsPort)
        var password: String?
        if let file = o.string("mqtt-password-file") {
            guard let data = FileAccess.contents(file), let text = String(data: data, encoding: .utf8) else {
                throw UsageError("--mqtt-password-file: cannot read '\(file)'")
            }
            password = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard o.string("mqtt-user") != nil else { throw UsageError("--mqtt-password-file needs --mqtt-user") }
        }
        if let tls, FileAccess.contents(tls) == nil { throw UsageError("--mqtt-tls-ca: cannot read '\(tls)'") }
        let broker = FleetRosterReader.Broker(host: host, port: port, username: o.string("mqtt-user"), password: password, tlsCAFile: tls)
        let roster: FleetRoster
        do throws(FleetError) {
            roster = try FleetRosterReader(broker: broker, wait: o.number("wait") ?? 2).read()
        } catch {
            log.error(error.description)
            return 1
        }
        let now = Date()
        print(o.has("json") ? roster.json(now: now).text : roster.table(now: now), terminator: o.has("json") ? "\n" : "")
        return 0
    }
}
