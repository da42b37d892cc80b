import Foundation
import KioskCore

/// How this kiosk joins its fleet: the broker, its ID in topics, and its credentials. Built from `--mqtt` and the
/// flags that go with it; every bad value is one usage error naming its flag.
public struct FleetSettings: Sendable, Equatable {
    /// The broker's host name or address.
    public var host: String
    /// The broker's TCP port.
    public var port: Int
    /// This kiosk's ID: topics are `kiosk/ID/…`.
    public var id: String
    /// The broker's user name, if any.
    public var username: String?
    /// The password, read from `--mqtt-password-file`.
    public var password: String?
    /// CA certificates for TLS; nil: plain TCP.
    public var tlsCAFile: String?
    /// Seconds between keepalive pings.
    public var keepalive: Int

    /// The default port without TLS, and with it.
    public static let plainPort = 1883
    public static let tlsPort = 8883
    /// The longest ID (a topic level; Home Assistant's object ids are built from it).
    public static let maxIDLength = 64

    /// The settings the options ask for; nil without `--mqtt` (and then any other `--mqtt-*` flag is a usage
    /// error). `hostName` is the default ID; `readFile` reads the password file (nil: unreadable).
    public static func parse(_ o: ParsedOptions, hostName: String,
                             readFile: (String) -> String?) throws(UsageError) -> FleetSettings? {
        guard let broker = o.string("mqtt") else {
            for flag in CommandSpecs.fleetDependents where o.has(flag) { throw UsageError("--\(flag) needs --mqtt") }
            return nil
        }
        let tls = o.string("mqtt-tls-ca")
        let (host, port) = try address(broker, defaultPort: tls == nil ? plainPort : tlsPort)
        let id: String
        if let given = o.string("mqtt-id") {
            guard isValidID(given) else {
                throw UsageError("--mqtt-id: '\(given)' must be 1 to \(maxIDLength) letters, digits, '-' or '_' (no '/', '+', '#')")
            }
            id = given
        } else {
            id = defaultID(hostName)
        }
        var password: String?
        if let file = o.string("mqtt-password-file") {
            guard let text = readFile(file) else { throw UsageError("--mqtt-password-file: cannot read '\(file)'") }
            password = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        }
        if password != nil, o.string("mqtt-user") == nil { throw UsageError("--mqtt-password-file needs --mqtt-user") }
        if let tls, readFile(tls) == nil { throw UsageError("--mqtt-tls-ca: cannot read '\(tls)'") }
        return FleetSettings(host: host, port: port, id: id, username: o.string("mqtt-user"), password: password,
                             tlsCAFile: tls, keepalive: o.integer("mqtt-keepalive") ?? 30)
    }

    /// `HOST`, `HOST:PORT`, `[IPv6]` or `[IPv6]:PORT`.
    static func address(_ text: String, defaultPort: Int) throws(UsageError) -> (String, Int) {
        func bad(_ why: String) -> UsageError { UsageError("--mqtt: '\(text)': \(why)") }
        var host = Substring(text)
        var port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw bad("an IPv6 address needs its closing ']'") }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw bad("expected ':PORT' after ']'") }
                port = rest.dropFirst()
            }
        } else if let colon = host.lastIndex(of: ":") {
            guard host.firstIndex(of: ":") == colon else { throw bad("write an IPv6 address as [ADDRESS]:PORT") }
            port = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else { throw bad("no host name") }
        guard let port else { return (String(host), defaultPort) }
        guard let n = Int(port), (1...65_535).contains(n) else { throw bad("the port must be 1...65535") }
        return (String(host), n)
    }

    /// Whether `id` can be this kiosk's ID: one topic level that is also a Home Assistant object id.
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= maxIDLength && id.unicodeScalars.allSatisfy(isIDCharacter)
    }

    /// The host name made into an ID: other characters become '-' (`kiosk.local` → `kiosk-local`).
    static func defaultID(_ hostName: String) -> String {
        let mapped = String(String.UnicodeScalarView(hostName.unicodeScalars.map { isIDCharacter($0) ? $0 : "-" }))
        let cut = String(mapped.prefix(maxIDLength))
        return cut.isEmpty ? "kiosk" : cut
    }

    private static func isIDCharacter(_ c: Unicode.Scalar) -> Bool {
        c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_")
    }
}
