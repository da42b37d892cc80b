import KioskCore

/// What an mpv request does, for any caller: the properties (`get_property`, `set_property` and their `_string`
/// forms, with `property-list` and `command-list`) and the command table's commands, checked the same way for the
/// IPC socket (`MPVSession`) and the web page (`MPVRequestRunner`). The IPC layer's client-bound commands
/// (`client_name`, `observe_property`…) stay with the session, which has clients.
struct MPVRequestResolver: Sendable {
    let board: PlayerBoard
    let gate: MediaGate
    let keys: @Sendable (String) -> Int?
    let reports: PlayReports
    let log: Log

    /// The property commands, answered here rather than by the command table (as in mpv's ipc.c).
    static let propertyCommands: Set<String> = ["get_property", "get_property_string", "set_property", "set_property_string"]

    /// What `name` with `a` does: a reply now, player commands, or a broadcast; mpv's error when it is refused.
    /// A command that says why it refuses says it to `refuse`; without one, to the log as IPC's line.
    func action(_ name: String, _ a: MPVArgs,
                refuse: (@Sendable (_ command: String, _ reason: String) -> Void)? = nil) throws(MPVError) -> MPVAction {
        switch name {
        case "get_property", "get_property_string":
            guard a.count == 1, case .string(let property) = a.values[0] else { throw .invalidParameter }
            guard let value = try readProperty(property) else { throw .propertyUnavailable }
            return .reply(.success(name == "get_property" ? value : .string(MPVEvents.string(value))))
        case "set_property", "set_property_string":
            guard a.count == 2, case .string(let property) = a.values[0] else { throw .invalidParameter }
            if name == "set_property_string", a.values[1].string == nil { throw .invalidParameter }
            guard let p = MPVPropertyTable.byName[property] else {
                if property == "property-list" || property == "command-list" { throw .propertyError }
                throw .propertyNotFound
            }
            guard let set = p.set else { throw .propertyError }
            return .player(try set(a.values[1], board.status), failure: .propertyError, data: .none)
        default:
            guard let command = MPVCommandTable.byName[name] else { throw .invalidParameter }
            guard command.vararg || a.count <= command.args.count,
                  a.count >= command.args.filter({ !$0.optional }).count else { throw .invalidParameter }
            let log = self.log
            let said = refuse ?? { command, reason in log.warn("ipc: \(command): refused: \(reason)") }
            return try command.run(a, MPVCommandContext(status: board.status, media: gate, keys: keys, reports: reports, log: log,
                                                        refuse: said))
        }
    }

    /// A property's value now: the table's, or the lists of properties and commands; nil when it has none now.
    func readProperty(_ name: String) throws(MPVError) -> JSONValue? {
        if name == "property-list" {
            return .array((MPVPropertyTable.all.map(\.name) + ["property-list", "command-list"]).map { .string($0) })
        }
        if name == "command-list" { return .array(MPVCommandTable.all.map(\.listEntry)) }
        guard let p = MPVPropertyTable.byName[name] else { throw .propertyNotFound }
        return p.get(board.status)
    }

    /// An observed property's value in `status` (none for a property kiosk does not have).
    func propertyValue(_ name: String, _ status: PlayerStatus) -> JSONValue? {
        if name == "property-list" || name == "command-list" { return try? readProperty(name) }
        return MPVPropertyTable.byName[name]?.get(status)
    }
}
