import Foundation
import KioskCore

/// `kiosk ctl`: one request to a running player over mpv's JSON IPC (a Unix socket), its answer on standard
/// output. The same client works against mpv itself (`mpv --input-ipc-server=PATH`).
struct ControlCommand {
    let log: Log

    /// `kiosk ctl` options.
    static let specs: [OptionSpec] = [
        OptionSpec("socket", .text, metavar: "PATH",
                   "the server's socket (default $XDG_RUNTIME_DIR/kiosk/ipc.sock, else /run/kiosk/ipc.sock)"),
        OptionSpec("screen", .text, metavar: "NAME", "a screen after the first of a player of several (its socket is PATH.NAME)"),
        OptionSpec("json", .flag, "print the server's reply lines (and observed events) as they came"),
        OptionSpec("timeout", .number(0.01...3600), metavar: "S", "seconds to wait for a reply (default 5)"),
        OptionSpec("until", .text, metavar: "T", "with alert: when it ends (90s, 10min, HH:MM, YYYY-MM-DDTHH:MM[:SS])"),
        OptionSpec("clear", .flag, "with alert: end the alert on screen"),
        OptionSpec("by", .text, metavar: "G", "with report: group by item (default), hour, day, region, screen or verdict"),
        OptionSpec("verdict", .text, metavar: "V", "with report: count showings of this verdict: seen (default), all, screen-off, display-absent, tv-standby, unknown"),
        OptionSpec("format", .text, metavar: "F", "with report: table (default), csv, json or xibo"),
        OptionSpec("since", .text, metavar: "T", "with report: showings that started at or after T (YYYY-MM-DD[THH:MM[:SS]], local, or with Z or +HH:MM)"),
    ]

    static let usage = "kiosk ctl [--socket PATH] [--screen NAME] [--json] [--timeout S] COMMAND [ARG ...]"

    /// Runs `kiosk ctl` with `args` (what follows `ctl`) and returns the exit status: 0 done, 1 no server or an
    /// error reply (thrown), 2 bad usage (thrown).
    func run(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") {
            print(CommandHelp.ctl.text, terminator: "")
            return 0
        }
        let (optionArgs, words) = Self.split(args)
        let options = try ParsedOptions.parse(optionArgs, specs: Self.specs, command: "ctl")
        let report = ControlRequest.ReportOptions(by: options.string("by"), format: options.string("format"), since: options.string("since"),
                                                    verdict: options.string("verdict"))
        let request = try ControlRequest(words, directory: FileManager.default.currentDirectoryPath,
                                         until: options.string("until"), clear: options.has("clear"), report: report)
        let socket = (options.string("socket") ?? IPCSocketPath.standard(environment: ProcessInfo.processInfo.environment))
            + (options.string("screen").map { "." + $0 } ?? "")
        let json = options.has("json")
        let client = try IPCClient(socket: socket, timeout: options.number("timeout") ?? 5)
        defer { client.connection.close() }
        switch request {
        case .command(let command):
            try check(client.request(command), command, json: json)
        case .text(let command):
            let reply = try client.request(command)
            if !reply.succeeded, !json, reply.error == "error running command" {
                throw IPCClientError.failed(request: IPCClient.name(command),
                                            error: reply.error + " (is the player writing a play log? its log says why)")
            }
            try check(reply, command, json: json)
            if !json { Self.write(Self.display(reply.data)) }
        case .answer(let command):
            let reply = try client.request(command)
            if !reply.succeeded, !json, reply.error == "error running command" {
                let hint = command.first as? String == "sign-play-log" ? "is the player writing a play log? its log says why"
                    : "\(ContentStatus.notFetching)? 'kiosk ctl content' says"
                throw IPCClientError.failed(request: IPCClient.name(command), error: reply.error + " (\(hint))")
            }
            try check(reply, command, json: json)
            if !json { Self.write(Self.display(reply.data) + "\n") }
        case .content:
            let command: [Any] = ["get_property", ControlContent.property]
            let reply = try client.request(command)
            if !reply.succeeded, !json, reply.error == "property unavailable" {
                throw IPCClientError.failed(request: IPCClient.name(command),
                                            error: reply.error + " (kiosk has no content cache: give --content-cache DIR or a state folder)")
            }
            try check(reply, command, json: json)
            if !json { Self.write(ControlContent.lines(reply.data)) }
        case .health:
            let command: [Any] = ["get_property", ControlHealth.property]
            let reply = try client.request(command)
            if !reply.succeeded, !json, reply.error == "property unavailable" {
                throw IPCClientError.failed(request: IPCClient.name(command),
                                            error: reply.error + " (no health round has ended yet: try again in a second)")
            }
            try check(reply, command, json: json)
            if !json { Self.write(ControlHealth.table(reply.data)) }
        case .get(let property):
            let command: [Any] = ["get_property", property]
            let reply = try client.request(command)
            try check(reply, command, json: json)
            if !json { Self.write(Self.display(reply.data) + "\n") }
        case .observe(let property):
            try observe(property, client: client, json: json)
        case .status:
            let commands: [[Any]] = ControlStatus.properties.map { ["get_property", $0] }
            let replies = try client.request(commands)
            if json {
                for reply in replies { Self.write(reply.line + "\n") }
            } else {
                let values = Dictionary(zip(ControlStatus.properties, replies).compactMap { name, reply in
                    reply.succeeded ? reply.data.map { (name, $0) } : nil
                }) { a, _ in a }
                Self.write(ControlStatus.line(values) + "\n")
            }
        }
        return 0
    }

    /// Prints the raw reply with `json`; throws mpv's error string for a failed request.
    private func check(_ reply: IPCReply, _ command: [Any], json: Bool) throws(IPCClientError) {
        if json { Self.write(reply.line + "\n") }
        guard reply.succeeded else { throw .failed(request: IPCClient.name(command), error: reply.error) }
    }

    /// `observe_property`, then one line per change until the server closes the connection, standard output is
    /// closed, or a stop signal (SIGINT, SIGTERM) ends the wait.
    private func observe(_ property: String, client: IPCClient, json: Bool) throws {
        let id = 1
        let interrupter = client.connection.interrupter
        let show: (IPCEvent) -> Void = { event in
            guard event.name == "property-change", event.fields["id"] as? Int == id else { return }
            let text = json ? event.line : (event.fields["data"].map(Self.display) ?? "(unavailable)")
            if !Self.write(text + "\n") { interrupter.stop() }  // nobody reads us any more
        }
        let stop = StopSignal.install(log: log)
        stop.onStop { interrupter.stop() }
        let command: [Any] = ["observe_property", id, property]
        try check(client.request(command, onEvent: show), command, json: false)
        client.connection.endOnHangUp = STDOUT_FILENO
        try client.events(show)
    }

    /// A value as `get` prints it: a string as it is, anything else as JSON.
    static func display(_ value: Any?) -> String {
        guard let value else { return "null" }
        return value as? String ?? IPCClient.text(value)
    }

    /// Separates options (`--name`, `--name VALUE`, `--name=VALUE`, anywhere) from the command's words, so that
    /// a negative number (`set speed -1`) is a word, not an unknown option; `--` ends the options.
    static func split(_ args: [String]) -> (options: [String], words: [String]) {
        var options: [String] = [], words: [String] = []
        var i = 0
        while i < args.count {
            let a = args[i]
            i += 1
            if a == "--" { words += args[i...]; break }
            guard a.hasPrefix("-"), a != "-", Double(a) == nil else { words.append(a); continue }
            options.append(a)
            let name = a.drop(while: { $0 == "-" }).prefix(while: { $0 != "=" })
            let takesValue = specs.contains { spec in
                guard spec.name == name else { return false }
                if case .flag = spec.kind { return false }
                return true
            }
            if takesValue && !a.contains("=") && i < args.count {
                options.append(args[i])
                i += 1
            }
        }
        return (options, words)
    }

    /// Writes `text` to standard output at once (an observer's lines must not wait in a buffer); false when
    /// standard output is closed.
    @discardableResult
    static func write(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            bytes = bytes.dropFirst(n)
        }
        return true
    }
}
