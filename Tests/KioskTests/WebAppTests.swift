import Foundation
import KioskCore
import KioskMedia
@testable import KioskWeb
import XCTest

/// The web page's rules, without a socket: the login and its session cookie, CSRF on every change, the login
/// limit, idle expiry, bearer tokens, upload names, and paths that must stay in the media folder. The password is
/// hashed by libxcrypt's crypt(3), media is probed by kiosk's real probe (ffmpeg), on files ffmpeg made.
final class WebAppTests: XCTestCase {
    /// The test's clock (monotonic seconds), moved by hand.
    final class Clock: @unchecked Sendable {
        var now = 1000.0
    }

    final class Sent: @unchecked Sendable {
        var commands: [JSONValue] = []
    }

    var dir: TempDir!
    let clock = Clock()
    let sent = Sent()

    override func setUpWithError() throws {
        dir = try TempDir()
        try FileManager.default.createDirectory(atPath: dir.file("media"), withIntermediateDirectories: true)
    }

    func app(password: String? = "correct horse battery", token: String? = nil, uploadLimit: Int64 = 1 << 20) throws -> WebApp {
        let sent = self.sent, clock = self.clock
        let backend = WebBackend(status: { PlayerStatus() }, command: { sent.commands.append($0); return .object([("error", .string("success"))]) },
                                 screenshot: { [0xFF, 0xD8, 0xFF] }, reports: PlayReports(), mediaRoot: dir.file("media"),
                                 probe: { path in (try? MediaFile.probe(path)).map { MediaSummary(kind: $0.kind.rawValue) } })
        let security = WebSecurity(passwordHash: try password.map { try WebPassword.hash($0) }, token: token, uploadLimit: uploadLimit)
        return WebApp(backend: backend, security: security, log: Log(level: .error), clock: { clock.now })
    }

    /// A request as a browser sends it.
    func request(_ method: String, _ path: String, cookie: String? = nil, csrf: String? = nil, form: String? = nil, json: String? = nil,
                 bearer: String? = nil, client: String = "127.0.0.1", secure: Bool = false) -> WebRequest {
        var headers: [String: String] = [:]
        if let cookie { headers["cookie"] = "kiosk_session=\(cookie)" }
        if let csrf { headers["x-csrf-token"] = csrf }
        if let bearer { headers["authorization"] = "Bearer \(bearer)" }
        var body: [UInt8] = []
        if let form { headers["content-type"] = "application/x-www-form-urlencoded"; body = Array(form.utf8) }
        if let json { headers["content-type"] = "application/json"; body = Array(json.utf8) }
        return WebRequest(method: method, path: path, headers: headers, client: client, body: body, secure: secure)
    }

    /// Runs `r` as the server does: its head admitted, then (with a body) answered.
    func send(_ app: WebApp, _ r: WebRequest) -> WebResponse {
        switch app.admit(r) {
        case .respond(let response): return response
        case .body, .upload: return app.respond(r)
        }
    }

    /// Logs in; the session cookie's value and the CSRF token.
    func logIn(_ app: WebApp, secure: Bool = false) throws -> (cookie: String, csrf: String) {
        let r = send(app, request("POST", "/login", form: "password=correct+horse+battery", secure: secure))
        XCTAssertEqual(r.status, 303)
        let set = try XCTUnwrap(r.header("Set-Cookie"))
        let cookie = String(set.split(separator: ";")[0].dropFirst("kiosk_session=".count))
        let s = send(app, request("GET", "/api/session", cookie: cookie))
        let csrf = try XCTUnwrap(try JSONValue.parse(s.body)["csrf"]?.string)
        return (cookie, csrf)
    }

    func testPagesNeedALoginAndTheCookieIsAStrictHttpOnlyRandomToken() throws {
        let app = try app()
        XCTAssertEqual(send(app, request("GET", "/")).header("Location"), "/login")
        XCTAssertEqual(send(app, request("GET", "/api/status")).status, 401)
        XCTAssertEqual(send(app, request("POST", "/login", form: "password=wrong")).status, 401)
        let ok = send(app, request("POST", "/login", form: "password=correct+horse+battery"))
        XCTAssertEqual(ok.status, 303)
        let cookie = try XCTUnwrap(ok.header("Set-Cookie"))
        XCTAssertTrue(cookie.contains("; HttpOnly") && cookie.contains("; SameSite=Strict") && !cookie.contains("Secure"), cookie)
        let token = String(cookie.split(separator: ";")[0].dropFirst("kiosk_session=".count))
        XCTAssertEqual(token.count, 64)
        XCTAssertTrue(token.allSatisfy(\.isHexDigit), token)
        XCTAssertNotEqual(try logIn(app).cookie, token, "each login is a new random token")
        XCTAssertEqual(send(app, request("GET", "/", cookie: token)).status, 200)
        // under TLS the cookie is Secure too
        let tls = send(app, request("POST", "/login", form: "password=correct+horse+battery", secure: true))
        XCTAssertTrue(tls.header("Set-Cookie")?.contains("; Secure") ?? false)
        // a forged cookie is nobody
        XCTAssertEqual(send(app, request("GET", "/api/status", cookie: String(repeating: "a", count: 64))).status, 401)
    }

    func testEveryChangeNeedsTheSessionsCSRFToken() throws {
        let app = try app(token: "a-long-token-for-scripts-1234")
        let (cookie, csrf) = try logIn(app)
        let next = #"["playlist-next"]"#
        XCTAssertEqual(send(app, request("POST", "/api/command", cookie: cookie, json: next)).status, 403)
        XCTAssertEqual(send(app, request("POST", "/api/command", cookie: cookie, csrf: String(repeating: "0", count: 64), json: next)).status, 403)
        XCTAssertEqual(send(app, request("DELETE", "/api/media/a.jpg", cookie: cookie)).status, 403)
        XCTAssertEqual(send(app, request("POST", "/logout", cookie: cookie)).status, 403)
        XCTAssertTrue(sent.commands.isEmpty)
        XCTAssertEqual(send(app, request("POST", "/api/command", cookie: cookie, csrf: csrf, json: next)).status, 200)
        XCTAssertEqual(sent.commands, [.array([.string("playlist-next")])])
        // a script's bearer token needs no CSRF token; a wrong one is nobody
        XCTAssertEqual(send(app, request("POST", "/api/command", json: next, bearer: "a-long-token-for-scripts-1234")).status, 200)
        XCTAssertEqual(send(app, request("POST", "/api/command", json: next, bearer: "a-long-token-for-scripts-1235")).status, 401)
        // the scheme in any case and more than one space are still the token (RFC 7235 §2.1); anything around the token is not
        var spelled = request("POST", "/api/command", json: next)
        for (value, status) in [("bearer a-long-token-for-scripts-1234", 200), ("BEARER \t a-long-token-for-scripts-1234", 200),
                                ("Bearer a-long-token-for-scripts-1234 x", 401), ("Bearer a-long-token-for-scripts-12345", 401),
                                ("Bearer\u{2003}a-long-token-for-scripts-1234", 401), ("Bearera-long-token-for-scripts-1234", 401),
                                ("Basic a-long-token-for-scripts-1234", 401), ("Bearer", 401)] {
            spelled.headers["authorization"] = value
            XCTAssertEqual(send(app, spelled).status, status, value)
        }
        XCTAssertEqual(sent.commands.count, 4, "one by the session, one by the bearer, two by the bearer spelled otherwise")
        // a form can only send text: the command must be JSON
        XCTAssertEqual(send(app, request("POST", "/api/command", cookie: cookie, csrf: csrf, form: "x=1")).status, 415)
        // the upload is refused at its head, before any byte of the body is read
        guard case .respond(let refused) = app.admit(request("POST", "/api/upload", cookie: cookie)) else { return XCTFail("admitted") }
        XCTAssertEqual(refused.status, 403)
        // logging out ends the session
        XCTAssertEqual(send(app, request("POST", "/logout", cookie: cookie, csrf: csrf)).status, 303)
        XCTAssertEqual(send(app, request("GET", "/api/status", cookie: cookie)).status, 401)
    }

    func testFiveWrongPasswordsAMinuteAre429WithABackoff() throws {
        let app = try app()
        for _ in 0..<4 { XCTAssertEqual(send(app, request("POST", "/login", form: "password=nope", client: "10.0.0.9")).status, 401) }
        let fifth = send(app, request("POST", "/login", form: "password=nope", client: "10.0.0.9"))
        XCTAssertEqual(fifth.status, 429)
        XCTAssertEqual(fifth.header("Retry-After"), "60")
        // blocked even with the right password, while another address may log in
        XCTAssertEqual(send(app, request("POST", "/login", form: "password=correct+horse+battery", client: "10.0.0.9")).status, 429)
        XCTAssertEqual(send(app, request("POST", "/login", form: "password=correct+horse+battery", client: "10.0.0.10")).status, 303)
        clock.now += 61
        XCTAssertEqual(send(app, request("POST", "/login", form: "password=nope", client: "10.0.0.9")).status, 429, "a failure soon after the block blocks again")
        XCTAssertEqual(send(app, request("POST", "/login", form: "password=nope", client: "10.0.0.9")).header("Retry-After"), "120",
                       "the wait doubles")
        clock.now += 121
        XCTAssertEqual(send(app, request("POST", "/login", form: "password=correct+horse+battery", client: "10.0.0.9")).status, 303)
    }

    func testASessionEndsAfterItsIdleTime() throws {
        let app = try app()
        let (cookie, _) = try logIn(app)
        clock.now += 1700
        XCTAssertEqual(send(app, request("GET", "/api/status", cookie: cookie)).status, 200, "used: its idle time starts again")
        clock.now += 1801
        XCTAssertEqual(send(app, request("GET", "/api/status", cookie: cookie)).status, 401)
    }

    func testWithoutAPasswordAFirstVisitStartsASession() throws {
        let app = try app(password: nil)
        let page = send(app, request("GET", "/"))
        XCTAssertEqual(page.status, 200)
        XCTAssertNotNil(page.header("Set-Cookie"))
        XCTAssertEqual(send(app, request("GET", "/api/status")).status, 200, "reads are open on loopback without a password")
        XCTAssertEqual(send(app, request("POST", "/api/command", json: #"["playlist-next"]"#)).status, 401, "changes are not")
    }

    func testUploadNamesAreCleaned() {
        let cases: [(String, String?)] = [
            ("../../etc/evil.jpg", "evil.jpg"), ("C:\\Users\\me\\Photo.JPG", "Photo.JPG"), (".hidden.png", "hidden.png"),
            ("a\u{0}b\u{7}c.jpg", "abc.jpg"), ("Cafe\u{301}.jpg", "Caf\u{E9}.jpg"), ("line\u{2028}break.png", "linebreak.png"),
            ("  spaced .jpg", "spaced .jpg"), ("pf \u{202E}\u{70F}/", nil), ("a\u{70F}/b.png", "b.png"), ("x/\u{301}y.png", "\u{301}y.png"), (".\u{301}hidden.png", "\u{301}hidden.png"), (" \u{2002}.p \u{2028}.\u{1a} ", "p ."), ("", nil), ("..", nil), ("/", nil), ("...", nil), ("\u{202E}gpj.exe", "gpj.exe"),
        ]
        for (given, want) in cases {
            switch WebUploadName.clean(given) {
            case .success(let name): XCTAssertEqual(name, want, given.debugDescription)
            case .failure: XCTAssertNil(want, given.debugDescription)
            }
        }
        // found by fuzzing (Kiosk/fuzz.sh web-name): a long "extension" (everything after the last dot) left no stem to cut
        guard case .success(let odd) = WebUploadName.clean(".\u{0}\u{FFFD}..\u{0}" + String(repeating: "\u{FFFD}", count: 120)) else { return XCTFail("odd") }
        XCTAssertLessThanOrEqual(odd.utf8.count, 200)
        XCTAssertEqual(WebUploadName.clean(odd), .success(odd), "cleaning twice changes nothing")
        guard case .success(let long) = WebUploadName.clean(String(repeating: "é", count: 300) + ".jpeg") else { return XCTFail("long") }
        XCTAssertLessThanOrEqual(long.utf8.count, 200)
        XCTAssertTrue(long.hasSuffix("é.jpeg"), long)
    }

    func testMediaPathsStayInTheFolder() throws {
        let app = try app()
        let (cookie, csrf) = try logIn(app)
        let media = dir.file("media")
        _ = try ColourPictures.make(dir, "media/a.png", "red")
        let outside = try ColourPictures.make(dir, "secret.png", "blue")
        try FileManager.default.createSymbolicLink(atPath: media + "/link.png", withDestinationPath: outside)
        XCTAssertEqual(send(app, request("GET", "/media/a.png", cookie: cookie)).status, 200)
        for name in ["link.png", "..%2Fsecret.png", "../secret.png", ".", ""] {
            XCTAssertEqual(send(app, request("GET", "/media/" + name, cookie: cookie)).status, 404, name)
            XCTAssertEqual(send(app, request("DELETE", "/api/media/" + name, cookie: cookie, csrf: csrf)).status, 404, name)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: outside))
        // the listing shows media, not the link's target nor text files; a playlist only of files in the folder
        let list = try JSONValue.parse(send(app, request("GET", "/api/media", cookie: cookie)).body)
        guard case .array(let files)? = list["files"] else { return XCTFail("\(list)") }
        XCTAssertEqual(files.compactMap { $0["name"]?.string }, ["a.png"])
        XCTAssertEqual(send(app, request("POST", "/api/playlist", cookie: cookie, csrf: csrf,
                                         json: #"{"name": "p.m3u", "items": ["a.png", "../secret.png"]}"#)).status, 400)
        XCTAssertEqual(send(app, request("POST", "/api/playlist", cookie: cookie, csrf: csrf,
                                         json: #"{"name": "p.m3u", "items": ["a.png"]}"#)).status, 200)
        XCTAssertEqual(try String(contentsOfFile: media + "/p.m3u", encoding: .utf8), "#EXTM3U\na.png\n")
        XCTAssertEqual(send(app, request("POST", "/api/caption", cookie: cookie, csrf: csrf, json: #"{"name": "a.png", "caption": "Spring sale"}"#)).status, 200)
        XCTAssertEqual(try String(contentsOfFile: media + "/a.png.txt", encoding: .utf8), "Spring sale\n")
        XCTAssertEqual(send(app, request("DELETE", "/api/media/a.png", cookie: cookie, csrf: csrf)).status, 200)
        XCTAssertFalse(FileManager.default.fileExists(atPath: media + "/a.png"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: media + "/a.png.txt"), "its caption goes with it")
    }

    func testAPasswordHashIsCrypt3sYescrypt() throws {
        let hash = try WebPassword.hash("correct horse battery")
        XCTAssertTrue(hash.hasPrefix("$y$"), hash)
        XCTAssertTrue(WebPassword.verify("correct horse battery", hash: hash))
        XCTAssertFalse(WebPassword.verify("correct horse batterY", hash: hash))
        XCTAssertNotEqual(try WebPassword.hash("correct horse battery"), hash, "a fresh salt each time")
        // Python's crypt module (the C library's crypt(3), not kiosk's code) agrees
        let r = try BoundedProcess.run("/usr/bin/python3", ["-W", "ignore", "-c",
            "import crypt,sys; print(crypt.crypt(sys.argv[1], sys.argv[2]) == sys.argv[2])", "correct horse battery", hash], timeout: 30)
        XCTAssertEqual(String(decoding: r.stdout, as: UTF8.self), "True\n", String(decoding: r.stderr, as: UTF8.self))
    }
}
