internal import CSystemd
import Foundation
import KioskCore

/// This process's logind session, reached over the system bus (`org.freedesktop.login1`): it takes control of
/// the session and gets device descriptors from logind (TakeDevice), so the kiosk user needs neither the `video`
/// nor the `input` group, and logind revokes the devices on a VT switch. The only place libsystemd is imported.
public final class LogindSession {
    /// The session id, e.g. `3`.
    public let id: String
    /// The session's object path on the bus, e.g. `/org/freedesktop/login1/session/_33`.
    public let objectPath: String
    private let bus: OpaquePointer
    private var devices: [String: (major: UInt32, minor: UInt32)] = [:]

    /// How long one bus call may take, in microseconds.
    private static let timeout: UInt64 = 2_000_000
    private static let service = "org.freedesktop.login1"
    private static let sessionInterface = "org.freedesktop.login1.Session"

    private init(id: String, objectPath: String, bus: OpaquePointer) {
        self.id = id
        self.objectPath = objectPath
        self.bus = bus
    }

    deinit { _ = sd_bus_flush_close_unref(bus) }

    /// This process's session (sd_pid_get_session, else `XDG_SESSION_ID`) when logind answers for it on the
    /// system bus; nil when there is no session, no system bus, or no logind (returns at once where no bus runs).
    public static func current() -> LogindSession? {
        guard let id = sessionID() else { return nil }
        var opened: OpaquePointer?
        guard sd_bus_open_system(&opened) >= 0, let bus = opened else { return nil }
        let path = try? call(bus, path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager",
                             member: "GetSession", subject: "logind session \(id)",
                             append: { m in id.withCString { sd_bus_message_append_basic(m, type("s"), $0) } },
                             read: { reply in
                                 var p: UnsafePointer<CChar>?
                                 let r = sd_bus_message_read_basic(reply, type("o"), &p)
                                 return r > 0 ? p.map { String(cString: $0) } : nil
                             })
        guard let found = path else {
            _ = sd_bus_flush_close_unref(bus)
            return nil
        }
        return LogindSession(id: id, objectPath: found, bus: bus)
    }

    /// The session id of this process: its cgroup's, else the environment's.
    private static func sessionID() -> String? {
        var p: UnsafeMutablePointer<CChar>?
        if sd_pid_get_session(0, &p) >= 0, let p {
            defer { free(p) }
            return String(cString: p)
        }
        guard let env = ProcessInfo.processInfo.environment["XDG_SESSION_ID"], !env.isEmpty else { return nil }
        return env
    }

    /// Session.TakeControl(false): makes this process the session's controller, which TakeDevice requires.
    public func takeControl() throws {
        try sessionCall("TakeControl", subject: "logind session \(id)",
                        append: { m in var force: Int32 = 0; return sd_bus_message_append_basic(m, Self.type("b"), &force) })
    }

    /// Session.ReleaseControl(): gives control back (logind then releases every device taken).
    public func releaseControl() {
        try? sessionCall("ReleaseControl", subject: "logind session \(id)", append: { _ in 0 })
    }

    /// Session.TakeDevice for the character device at `path`: a new descriptor (close-on-exec) that the caller
    /// owns, opened by logind read-write and non-blocking.
    public func takeDevice(path: String) throws -> Int32 {
        let numbers = try Self.deviceNumbers(path)
        let fd = try Self.call(bus, path: objectPath, interface: Self.sessionInterface, member: "TakeDevice", subject: path,
                               append: { m in Self.appendNumbers(m, numbers) },
                               read: { reply -> Int32 in
                                   var fd: Int32 = -1
                                   var inactive: Int32 = 0
                                   guard sd_bus_message_read_basic(reply, Self.type("h"), &fd) > 0,
                                         sd_bus_message_read_basic(reply, Self.type("b"), &inactive) > 0 else {
                                       throw DeviceAccessError(call: "TakeDevice", path: path, reason: "reply has no descriptor")
                                   }
                                   return fcntl(fd, F_DUPFD_CLOEXEC, 3)
                               })
        if fd < 0 {
            let e = errno
            throw DeviceAccessError(call: "TakeDevice", path: path, reason: "dup: \(String(cString: strerror(e)))", code: e)
        }
        devices[path] = numbers
        return fd
    }

    /// Session.ReleaseDevice for a device taken with `takeDevice(path:)` (errors are ignored: logind may have
    /// dropped it already).
    public func releaseDevice(path: String) {
        guard let numbers = devices.removeValue(forKey: path) ?? (try? Self.deviceNumbers(path)) else { return }
        try? sessionCall("ReleaseDevice", subject: path, append: { m in Self.appendNumbers(m, numbers) })
    }

    private func sessionCall(_ member: String, subject: String, append: (OpaquePointer) -> Int32) throws {
        try Self.call(bus, path: objectPath, interface: Self.sessionInterface, member: member, subject: subject,
                      append: append, read: { _ in () })
    }

    /// One method call to logind; failures name the member and `subject` (the device or the session).
    private static func call<T>(_ bus: OpaquePointer, path: String, interface: String, member: String, subject: String,
                                append: (OpaquePointer) -> Int32, read: (OpaquePointer) throws -> T) throws -> T {
        var message: OpaquePointer?
        var r = sd_bus_message_new_method_call(bus, &message, service, path, interface, member)
        guard r >= 0, let m = message else {
            throw DeviceAccessError(call: member, path: subject, reason: String(cString: strerror(-r)), code: -r)
        }
        defer { _ = sd_bus_message_unref(m) }
        r = append(m)
        if r < 0 { throw DeviceAccessError(call: member, path: subject, reason: String(cString: strerror(-r)), code: -r) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        r = sd_bus_call(bus, m, timeout, &error, &reply)
        guard r >= 0, let answer = reply else {
            let name = error.name.map { String(cString: $0) }
            let text = error.message.map { String(cString: $0) } ?? String(cString: strerror(-r))
            throw DeviceAccessError(call: member, path: subject, reason: name.map { "\($0): \(text)" } ?? text, code: -r)
        }
        defer { _ = sd_bus_message_unref(answer) }
        return try read(answer)
    }

    /// The major and minor numbers of the character device at `path`.
    private static func deviceNumbers(_ path: String) throws -> (major: UInt32, minor: UInt32) {
        var st = stat()
        if stat(path, &st) != 0 {
            let e = errno
            throw DeviceAccessError(call: "stat", path: path, reason: String(cString: strerror(e)), code: e)
        }
        guard st.st_mode & S_IFMT == S_IFCHR else {
            throw DeviceAccessError(call: "stat", path: path, reason: "not a character device", code: ENODEV)
        }
        let dev = UInt64(st.st_rdev)
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~UInt64(0xfff))
        let minor = (dev & 0xff) | ((dev >> 12) & ~UInt64(0xff))
        return (UInt32(truncatingIfNeeded: major), UInt32(truncatingIfNeeded: minor))
    }

    private static func appendNumbers(_ m: OpaquePointer, _ n: (major: UInt32, minor: UInt32)) -> Int32 {
        var major = n.major
        var minor = n.minor
        let r = sd_bus_message_append_basic(m, type("u"), &major)
        return r < 0 ? r : sd_bus_message_append_basic(m, type("u"), &minor)
    }

    /// A D-Bus type code as sd-bus takes it.
    private static func type(_ code: Unicode.Scalar) -> CChar { CChar(truncatingIfNeeded: code.value) }
}
