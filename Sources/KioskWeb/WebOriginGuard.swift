import Foundation

/// Who may reach the page at all, read from a request's head before anything else: the client's address, the
/// `Host` it asked for and, on a request that changes something, the `Origin` of the page that sent it.
///
/// Without a password the page trusts whoever reaches it, so it must be reached only from this machine, by its
/// own name: a client on loopback asking for `127.x.x.x`, `[::1]` or `localhost` (any port), in a `Host` header
/// (which HTTP/1.1 requires). Checking the address
/// alone is not enough: a web page elsewhere whose name is rebound to 127.0.0.1 (DNS rebinding) is fetched by the
/// user's own browser, from loopback, but with its own name in `Host`. An SSH tunnel (`ssh -L 8080:127.0.0.1:8080`)
/// keeps working, since the browser asks for `localhost:8080`.
///
/// With a password any name is allowed (the box is reached by its LAN name or address), since nothing is served
/// without logging in. Either way, a request that changes something and says which page sent it (`Origin`, as
/// every browser does on a POST) must come from this very page: its `Origin` names the `Host` it was sent to.
enum WebOriginGuard {
    /// Why the head `r` is refused (403), or nil to go on. `passwordless`: the page runs without a password.
    static func refusal(_ r: WebRequest, passwordless: Bool) -> WebResponse? {
        if passwordless {
            guard isLoopbackClient(r.client) else {
                return .error(403, "this page has no password, so it answers only on this machine (set --http-password-file)")
            }
            guard let host = r.headers["host"], isLoopbackHost(host) else {
                return .error(403, "without a password the page answers only to 127.0.0.1, [::1] or localhost, not '\(cut(r.headers["host"] ?? ""))'")
            }
        }
        let changes = !(r.method == "GET" || r.method == "HEAD")
        if changes, let origin = r.headers["origin"], !sameOrigin(origin, host: r.headers["host"], secure: r.secure) {
            return .error(403, "a change sent from another site ('\(cut(origin))') is refused")
        }
        return nil
    }

    /// Whether the client's address is this machine's (127.0.0.0/8, ::1, or 127.x mapped into IPv6).
    static func isLoopbackClient(_ address: String) -> Bool {
        let a = address.lowercased()
        return a == "::1" || a.hasPrefix("127.") || a.hasPrefix("::ffff:127.")
    }

    /// Whether a `Host` value names loopback: `127.x.x.x`, `[::1]` or `localhost`, each with an optional port.
    static func isLoopbackHost(_ host: String) -> Bool {
        guard let (name, _) = split(host) else { return false }
        if name == "localhost" || name == "[::1]" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { p in p.count <= 3 && digits(p) && UInt8(p) != nil }
    }

    /// `name[:port]` in lower case, the port all digits; nil when it is neither.
    static func split(_ host: String) -> (String, String?)? {
        let h = host.lowercased()
        let end = h.hasPrefix("[") ? h.firstIndex(of: "]").map { h.index(after: $0) } : h.firstIndex(of: ":")
        guard let end else { return h.isEmpty || h.hasPrefix("[") ? nil : (h, nil) }
        let name = String(h[..<end]), rest = h[end...]
        if rest.isEmpty { return (name, nil) }
        let port = rest.dropFirst()
        guard rest.first == ":", !port.isEmpty, port.count <= 5, digits(port), UInt16(port) != nil else { return nil }
        return (name, String(port))
    }

    /// Whether `s` is all ASCII digits (no sign: `UInt8("+1")` would parse).
    private static func digits(_ s: Substring) -> Bool {
        s.unicodeScalars.allSatisfy { $0.value >= 48 && $0.value <= 57 }
    }

    /// Whether `origin` (`http://HOST[:PORT]`) names the page at `host`, the request's `Host` (on a TLS connection
    /// when `secure`): the same scheme, name and port.
    static func sameOrigin(_ origin: String, host: String?, secure: Bool) -> Bool {
        guard let host, let mark = origin.range(of: "://") else { return false }
        let scheme = origin[..<mark.lowerBound].lowercased(), given = origin[mark.upperBound...]
        guard scheme == (secure ? "https" : "http"), !given.contains("/"), let a = split(String(given)), let b = split(host) else { return false }
        let standard = secure ? "443" : "80"
        return a.0 == b.0 && (a.1 ?? standard) == (b.1 ?? standard)
    }

    /// A client's text, cut for a log line or an answer.
    private static func cut(_ s: String) -> String {
        String(s.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.prefix(80).map(Character.init))
    }
}
