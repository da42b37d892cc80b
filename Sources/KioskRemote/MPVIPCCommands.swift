import KioskCore

/// The commands mpv's IPC layer answers itself (client_name, observe_property…), as in mpv's ipc.c: fixed argument
/// counts ("invalid parameter" otherwise). get_property and set_property are `MPVRequestResolver`'s.
extension MPVSession {
    /// The IPC commands' names (they are not in `command-list`, as in mpv).
    static let ipcCommands: Set<String> = [
        "client_name", "get_time_us", "get_version", "get_property", "get_property_string", "set_property",
        "set_property_string", "observe_property", "observe_property_string", "unobserve_property",
        "request_log_messages", "enable_event", "disable_event",
    ]

    /// What `name` does when it is one of the IPC layer's commands bound to a client (a reply now); nil when it is
    /// not one (the properties are the resolver's, as for the web page).
    func ipcCommand(_ name: String, _ a: MPVArgs, client: ClientID) throws(MPVError) -> MPVAction? {
        guard Self.ipcCommands.contains(name), let c = clients[client] else { return nil }
        func count(_ n: Int) throws(MPVError) { if a.count != n { throw .invalidParameter } }
        switch name {
        case "client_name":
            try count(0)
            return .reply(.success(.string(c.name)))
        case "get_time_us":
            try count(0)
            return .reply(.success(.int(Int64(Int(saturating: MonotonicClock.seconds() * 1_000_000, rounding: .towardZero)))))
        case "get_version":
            try count(0)
            return .reply(.success(.int(Self.clientAPIVersion)))
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
