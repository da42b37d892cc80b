import Foundation
import KioskCore

/// The web page's routes and their guards: pages (HTML), assets, and the JSON API under `/api/`. A request is
/// authorized by its session cookie (pages; state changes need the session's CSRF token in `X-CSRF-Token`) or by
/// `Authorization: Bearer TOKEN` (scripts). Pure apart from the backend and the media folder, so that every
/// rule is tested (and fuzzed) without a socket.
public final class WebApp: WebHandler, @unchecked Sendable {
    let backend: WebBackend
    let security: WebSecurity
    let sessions: WebSessions
    let logins = LoginLimiter()
    let log: Log
    let clock: @Sendable () -> Double
    let media: WebMedia?
    /// The session cookie's name.
    static let cookie = "kiosk_session"

    /// The page for `backend`, guarded by `security`.
    public init(backend: WebBackend, security: WebSecurity, sessions: WebSessions = WebSessions(), log: Log,
                clock: @escaping @Sendable () -> Double = { MonotonicClock.seconds() }) {
        self.backend = backend
        self.security = security
        self.sessions = sessions
        self.log = log
        self.clock = clock
        media = backend.mediaRoot.map { WebMedia(root: $0, probe: backend.probe, maxPixels: backend.maxPixels) }
    }

    /// Who is asking.
    enum Caller {
        /// A script with the bearer token.
        case bearer
        /// A browser session: its token and CSRF token.
        case session(token: String, csrf: String)
        /// Nobody known.
        case anonymous
    }

    func caller(_ r: WebRequest) -> Caller {
        if let auth = r.headers["authorization"], let given = Self.bearerToken(auth) {
            if let token = security.token, WebSessions.same(given, token) { return .bearer }
            return .anonymous
        }
        if let token = r.cookies[Self.cookie], let csrf = sessions.csrf(for: token, now: clock()) {
            return .session(token: token, csrf: csrf)
        }
        return .anonymous
    }

    /// The token of an `Authorization: Bearer TOKEN` value, or nil for another scheme. The scheme is matched in any
    /// case and may be followed by several spaces or tabs (RFC 7235 §2.1, RFC 6750 §2.1); the token is the one word
    /// after it, so a value with a third word carries no token.
    static func bearerToken(_ value: String) -> String? {
        let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let scheme = words.first, scheme.lowercased() == "bearer" else { return nil }
        return words.count == 2 ? String(words[1]) : ""
    }

    /// Why a request that changes something is refused (401 nobody, 403 a missing or wrong CSRF token); nil: go on.
    func guardChange(_ r: WebRequest) -> WebResponse? {
        switch caller(r) {
        case .bearer: return nil
        case .anonymous: return .error(401, "log in first (or send Authorization: Bearer TOKEN)")
        case .session(_, let csrf):
            guard let given = r.headers["x-csrf-token"] ?? r.form["csrf"] ?? r.urlEncodedForm["csrf"], WebSessions.same(given, csrf) else {
                return .error(403, "the CSRF token is missing or wrong (reload the page)")
            }
            return nil
        }
    }

    // MARK: - WebHandler

    public func admit(_ head: WebRequest) -> WebAdmission {
        if let refused = WebOriginGuard.refusal(head, passwordless: security.passwordHash == nil) { return .respond(refused) }
        switch (head.method, head.path) {
        case ("POST", "/login"):
            return .body(limit: WebLimits.smallBody)
        case ("POST", "/logout"), ("POST", "/api/command"), ("POST", "/api/caption"), ("POST", "/api/playlist"), ("POST", "/api/schedule"),
             ("POST", "/api/restart"):
            // nobody known: refused before its body is read, so an anonymous client cannot hold a connection with one
            // (the CSRF token, which may come in the body, is checked once it is in)
            if case .anonymous = caller(head) { return .respond(.error(401, "log in first (or send Authorization: Bearer TOKEN)")) }
            return .body(limit: WebLimits.smallBody)
        case ("POST", "/api/upload"):
            if let refused = guardChange(head) { return .respond(refused) }
            guard let media else { return .respond(.error(404, "uploads need --media-root DIR (the folder they go into)")) }
            return .upload(folder: media.root, limit: security.uploadLimit)
        case ("GET", _), ("HEAD", _), ("DELETE", _):
            return .respond(respond(head))
        default:
            return .respond(.error(405, "\(head.method) \(head.path) is not something this page does"))
        }
    }

    public func respond(_ r: WebRequest) -> WebResponse {
        var response = route(r)
        // a session in use lives on (`WebSessions.csrf` starts its idle time again), and so must its cookie: the
        // browser gets it again with a fresh Max-Age, or it would drop a session kiosk still holds
        if response.header("Set-Cookie") == nil, case .session(let token, _) = caller(r) {
            response.headers.append(("Set-Cookie", cookie(token, secure: r.secure)))
        }
        return response
    }

    /// The answer to `r` by its method and path.
    private func route(_ r: WebRequest) -> WebResponse {
        if r.method == "HEAD" {  // answered as a GET: libmicrohttpd sends the head alone
            var get = r
            get.method = "GET"
            return route(get)
        }
        if r.path.hasPrefix("/api/") { return noStore(api(r)) }
        switch (r.method, r.path) {
        case ("GET", "/app.css"): return WebResponse(type: "text/css; charset=utf-8", body: Array((WebAssets.css + WebHealthPanel.css).utf8))
        case ("GET", "/app.js"): return WebResponse(type: "text/javascript; charset=utf-8", body: Array((WebAssets.js + WebHealthPanel.js).utf8))
        case ("GET", "/favicon.svg"): return WebResponse(type: "image/svg+xml", body: Array(WebAssets.icon.utf8))
        case ("GET", "/login"): return WebPages.login(error: nil, status: 200)
        case ("POST", "/login"): return login(r)
        case ("POST", "/logout"):
            if let refused = guardChange(r) { return refused }
            if case .session(let token, _) = caller(r) { sessions.end(token) }
            return .redirect("/login", headers: [("Set-Cookie", "\(Self.cookie)=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict")])
        case ("GET", let path) where WebPages.names.contains(path):
            return noStore(page(path, r))
        case ("GET", let path) where path.hasPrefix("/thumb/"):
            guard case .session = caller(r) else { return .error(401, "log in first") }
            return media?.thumbnail(String(path.dropFirst(7)), make: backend.thumbnail) ?? .error(404, "no media folder")
        case ("GET", let path) where path.hasPrefix("/media/"):
            guard case .session = caller(r) else { return .error(401, "log in first") }
            return media?.file(String(path.dropFirst(7))) ?? .error(404, "no media folder")
        default:
            return .error(404, "nothing at \(r.path)")
        }
    }

    private func noStore(_ r: WebResponse) -> WebResponse {
        var r = r
        r.headers.append(("Cache-Control", "no-store"))
        return r
    }

    /// A page for a session; without a password (loopback only) the first visit starts one.
    private func page(_ path: String, _ r: WebRequest) -> WebResponse {
        var extra: [(String, String)] = []
        let csrf: String
        switch caller(r) {
        case .session(_, let c):
            csrf = c
        case .bearer, .anonymous:
            guard security.passwordHash == nil else { return .redirect("/login") }
            let s = sessions.create(now: clock())
            csrf = s.csrf
            extra.append(("Set-Cookie", cookie(s.token, secure: r.secure)))
        }
        var response = WebPages.page(path, csrf: csrf, app: self)
        response.headers += extra
        return response
    }

    func cookie(_ token: String, secure: Bool) -> String {
        "\(Self.cookie)=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(Int(sessions.idle))" + (secure ? "; Secure" : "")
    }

    /// The login form's POST: a session cookie and the dashboard, or the form again; 429 after too many failures.
    private func login(_ r: WebRequest) -> WebResponse {
        let now = clock()
        if let wait = logins.wait(r.client, now: now) {
            var response = WebPages.login(error: "Too many wrong passwords. Try again in \(Int(saturating: wait, rounding: .up)) s.", status: 429)
            response.headers.append(("Retry-After", String(Int(saturating: wait, rounding: .up))))
            return response
        }
        let given = r.urlEncodedForm["password"] ?? ""
        let ok: Bool
        if let hash = security.passwordHash {
            ok = WebPassword.verify(given, hash: hash)
        } else {
            ok = true  // loopback without a password: the form only starts a session
        }
        logins.record(r.client, succeeded: ok, now: now)
        guard ok else {
            log.warn("http: a wrong password from \(r.client)")
            if let wait = logins.wait(r.client, now: now) {
                var response = WebPages.login(error: "Too many wrong passwords. Try again in \(Int(saturating: wait, rounding: .up)) s.", status: 429)
                response.headers.append(("Retry-After", String(Int(saturating: wait, rounding: .up))))
                return response
            }
            return WebPages.login(error: "Wrong password.", status: 401)
        }
        let s = sessions.create(now: now)
        log.info("http: \(r.client) logged in")
        return .redirect("/", headers: [("Set-Cookie", cookie(s.token, secure: r.secure))])
    }
}
