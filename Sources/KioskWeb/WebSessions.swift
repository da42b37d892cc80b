import Foundation
import Glibc
import KioskCore

/// The web page's logged-in sessions: each a random 256-bit token (the cookie) with its own CSRF token, forgotten
/// after `idle` seconds without a request. At most `limit` are kept (the oldest goes first). Thread-safe: the server's
/// threads share it.
public final class WebSessions: @unchecked Sendable {
    /// One session: its CSRF token and when it was last used (monotonic seconds).
    struct Session {
        let csrf: String
        var lastSeen: Double
    }

    private let lock = NSLock()
    private var sessions: [String: Session] = [:]
    /// Seconds a session lives without a request.
    public let idle: Double
    private let limit: Int

    /// Sessions that expire after `idle` seconds unused.
    public init(idle: Double = 1800, limit: Int = 256) {
        self.idle = idle
        self.limit = limit
    }

    /// A new session: its token (the cookie's value) and its CSRF token.
    public func create(now: Double) -> (token: String, csrf: String) {
        let token = Self.randomToken(), csrf = Self.randomToken()
        lock.lock()
        defer { lock.unlock() }
        sessions = sessions.filter { now - $0.value.lastSeen < idle }
        if sessions.count >= limit, let oldest = sessions.min(by: { $0.value.lastSeen < $1.value.lastSeen })?.key {
            sessions[oldest] = nil
        }
        sessions[token] = Session(csrf: csrf, lastSeen: now)
        return (token, csrf)
    }

    /// The CSRF token of the live session `token` (and the session's idle time starts again); nil when there is none.
    public func csrf(for token: String, now: Double) -> String? {
        lock.lock()
        defer { lock.unlock() }
        guard var s = sessions[token] else { return nil }
        guard now - s.lastSeen < idle else {
            sessions[token] = nil
            return nil
        }
        s.lastSeen = now
        sessions[token] = s
        return s.csrf
    }

    /// Logs `token` out.
    public func end(_ token: String) {
        lock.lock()
        sessions[token] = nil
        lock.unlock()
    }

    /// 32 bytes (256 bits) from the kernel's CSPRNG, as 64 hex digits.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()  // getrandom(2) on Linux: the kernel's CSPRNG
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `a` and `b` are equal, in time that does not depend on where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in x.indices { diff |= x[i] ^ y[i] }
        return diff == 0
    }
}

/// Login attempts per address: after `allowed` failures within a minute, 429 for 60 s; a failure within 15 min of
/// that blocks again for twice as long (at most 15 min). A success clears the address. An IPv6 client counts by its
/// /64 (one host holds a whole /64 and may pick any address in it); what has expired is forgotten once a minute.
public final class LoginLimiter: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [String: [Double]] = [:]
    private var blockedUntil: [String: Double] = [:]
    private var strikes: [String: Int] = [:]
    private var pruned = -Double.infinity
    private let allowed: Int
    /// How long a block is remembered after it ends: a failure within it blocks again, for longer.
    private static let memory = 900.0

    /// A limiter of `allowed` failures a minute.
    public init(allowed: Int = 5) { self.allowed = allowed }

    /// Seconds `address` must wait before trying again; nil when it may try now.
    public func wait(_ address: String, now: Double) -> Double? {
        let key = Self.key(address)
        lock.lock()
        defer { lock.unlock() }
        guard let until = blockedUntil[key], until > now else { return nil }
        return until - now
    }

    /// Records an attempt from `address`.
    public func record(_ address: String, succeeded: Bool, now: Double) {
        let key = Self.key(address)
        lock.lock()
        defer { lock.unlock() }
        prune(now)
        if succeeded {
            failures[key] = nil
            strikes[key] = nil
            blockedUntil[key] = nil
            return
        }
        var recent = (failures[key] ?? []).filter { $0 > now - 60 }
        recent.append(now)
        failures[key] = recent
        // an address blocked within the last 15 min is blocked again at its next failure, for twice as long
        let repeat_ = (strikes[key] ?? 0) > 0 && now - (blockedUntil[key] ?? -.infinity) < Self.memory
        guard recent.count >= allowed || repeat_ else { return }
        let n = (repeat_ ? strikes[key] ?? 0 : 0) + 1
        strikes[key] = n
        blockedUntil[key] = now + min(Self.memory, 60 * pow(2, Double(n - 1)))
    }

    /// How many addresses it remembers (for tests: expired ones are forgotten).
    var remembered: Int {
        lock.lock()
        defer { lock.unlock() }
        return Set(failures.keys).union(blockedUntil.keys).union(strikes.keys).count
    }

    /// Forgets failures over a minute old and blocks over `memory` past their end: once a minute, or at once when
    /// the tables hold over 10,000 addresses (many addresses failing at once).
    private func prune(_ now: Double) {
        guard now - pruned >= 60 || failures.count > 10_000 || blockedUntil.count > 10_000 else { return }
        pruned = now
        failures = failures.filter { ($0.value.last ?? -.infinity) > now - 60 }
        blockedUntil = blockedUntil.filter { $0.value > now - Self.memory }
        strikes = strikes.filter { blockedUntil[$0.key] != nil }
    }

    /// The key an address counts under: an IPv4 address itself (also mapped into IPv6), an IPv6 address's /64.
    static func key(_ address: String) -> String {
        let a = address.lowercased()
        if a.hasPrefix("::ffff:"), a.contains(".") { return String(a.dropFirst(7)) }
        var v6 = in6_addr()
        guard a.contains(":"), inet_pton(AF_INET6, a, &v6) == 1 else { return a }
        let prefix = withUnsafeBytes(of: &v6) { Array($0.prefix(8)) }
        return prefix.map { String(format: "%02x", $0) }.joined() + "::/64"
    }
}
