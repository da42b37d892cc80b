import KioskCore

/// The commands mpv's IPC layer answers itself (client_name, get_property, observe_property…), as in mpv's
/// ipc.c: fixed argument counts ("invalid parameter" otherwise), property errors as mpv words them.
extension MPVSession {
    /// The IPC commands' names (they are not in `command-list`, as in mpv).
    static let ipcCommands: Set<String> = [
        "client_name", "get_time_us", "get_version", "get_property", "get_property_string", "set_property",
        "set_property_string", "observe_property", "observe_property_string", "unobserve_property",
        "request_log_messages", "enable_event", "disable_event",
    ]

    /// What `name` does when it is an IPC command (a reply now, or a property set's player commands); nil when
    /// it is not one.
    func ipcCommand(_ name: String, _ a: MPVArgs, client: ClientID) throws(MPVError) -> MPVAction? {
        guard Self.ipcCommands.contains(name), let c = clients[client] else { return nil }
        func count(_ n: Int) throws(MPVError) { if a.count != n { throw .invalidParameter } }
        switch name {
        case "client_name":
            try count(0)
            return .reply(.success(.string(c.name)))
        case "get_time_us":
            try count(0)
            return .reply(.success(.int(Int64(MonotonicClock.seconds() * 1_000_000))))
        case "get_version":
            try count(0)
            return .reply(.success(.int(Self.clientAPIVersion)))
        case "get_property", "get_property_string":
            try count(1)
            guard case .string(let property) = a.values[0] else { throw .invalidParameter }
            guard let value = try readProperty(property) else { throw .propertyUnavailable }
            return .reply(.success(name == "get_property" ? value : .string(MPVEvents.string(value))))
        case "set_property", "set_property_string":
            try count(2)
            guard case .string(let property) = a.values[0] else { throw .invalidParameter }
            if name == "set_property_string", a.values[1].string == nil { throw .invalidParameter }
            guard let p = MPVPropertyTable.byName[property] else {
                if property == "property-list" || property == "command-list" { throw .propertyError }
                throw .propertyNotFound
            }
            guard let set = p.set else { throw .propertyError }
            return .player(try set(a.values[1], board.status), failure: .propertyError, data: .none)
        case "observe_property", "observe_property_string":
            try count(2)
            guard case .int = a.values[0], case .string(let property) = a.values[1] else { throw .invalidParameter }
            c.observed.append(Observation(id: a.values[0], name: property, asString: name.hasSuffix("_string"), last: nil))
            return .reply(.success(nil))
        case "unobserve_property":
            try count(1)
            guard case .int = a.values[0] else { throw .invalidParameter }
            c.observed.removeAll { $0.id == a.values[0] }
            return .reply(.success(nil))
        case "request_log_messages":
            try count(1)
            guard case .string(let level) = a.values[0] else { throw .invalidParameter }
            c.logLevel = Self.logLevel(level)
            mailbox.collectLines(clients.values.contains { $0.logLevel != nil })
            return .reply(.success(nil))
        case "enable_event", "disable_event":
            try count(1)
            guard case .string(let event) = a.values[0] else { throw .invalidParameter }
            let names = event == "all" ? MPVEvents.names : [event]
            guard names.isSubset(of: MPVEvents.names) else { throw .invalidParameter }
            if name == "enable_event" { c.disabled.subtract(names) } else { c.disabled.formUnion(names) }
            return .reply(.success(nil))
        default:
            return nil
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

    /// mpv's log levels (`no`, `fatal`, `error`, `warn`, `info`, `v`, `debug`, `trace`) as kiosk's.
    static func logLevel(_ mpv: String) -> LogLevel? {
        switch mpv {
        case "fatal", "error": return .error
        case "warn": return .warn
        case "info", "status": return .info
        case "v", "debug", "trace": return .debug
        default: return nil
        }
    }
}
