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
                 bearer: String? = nil, client: String = "127.0.0.1", secure: Bool = false, headers more: [String: String] = [:]) -> WebRequest {
        var headers = more
        if headers["host"] == nil { headers["host"] = "127.0.0.1:8080" }  // as every HTTP/1.1 client sends it
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

    /// An IPv6 host picks any address of its /64, so failures count by /64; the limiter forgets what has expired.
    func testLoginFailuresCountByIPv6SlashSixtyFourAndAreForgotten() throws {
        let app = try app()
        for i in 1...4 {
            XCTAssertEqual(send(app, request("POST", "/login", form: "password=nope", client: "2001:db8:1:2::\(i)")).status, 401)
        }
        XCTAssertEqual(send(app, request("POST", "/login", form: "password=nope", client: "2001:db8:1:2:ffff:1:2:3")).status, 429, "the same /64")
        XCTAssertEqual(send(app, request("POST", "/login", form: "password=correct+horse+battery", client: "2001:db8:1:3::1")).status, 303,
                       "the next /64 is another host")
        XCTAssertEqual(LoginLimiter.key("::ffff:10.0.0.9"), "10.0.0.9", "IPv4 mapped into IPv6 counts as itself")
        XCTAssertEqual(LoginLimiter.key("2001:DB8:1:2::7"), LoginLimiter.key("2001:db8:1:2:a:b:c:d"))
        let limiter = LoginLimiter()
        for i in 0..<3000 {
            for _ in 0..<5 { limiter.record("10.\(i / 256).\(i % 256).1", succeeded: false, now: 0) }
        }
        XCTAssertEqual(limiter.remembered, 3000)
        XCTAssertNotNil(limiter.wait("10.0.7.1", now: 30))
        limiter.record("10.99.0.1", succeeded: false, now: 60 + 900 + 1)
        XCTAssertEqual(limiter.remembered, 1, "3,000 blocks over and past their memory are forgotten")
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

    /// Without a password only this machine, by its own name, is served: a page elsewhere whose name is rebound to
    /// 127.0.0.1 (DNS rebinding) reaches the server from loopback but with its own name in Host.
    func testWithoutAPasswordOnlyLoopbackByItsOwnNameIsServed() throws {
        let app = try app(password: nil)
        let allowed = ["127.0.0.1:8080", "127.0.0.1", "localhost", "LocalHost:8080", "[::1]:8080", "[::1]", "127.1.2.3:80"]
        let refused = ["evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.1.nip.io", "[::1]x", "localhost:abc",
                       "localhost:", "127.0.0.256", "[::2]:8080", "192.168.1.5:8080", "", "127.+0.0.1", "localhost:+80"]
        for host in allowed {
            XCTAssertEqual(send(app, request("GET", "/api/status", headers: ["host": host])).status, 200, host)
        }
        for host in refused {
            let r = send(app, request("GET", "/api/session", headers: ["host": host]))
            XCTAssertEqual(r.status, 403, host)
            XCTAssertNil(r.header("Set-Cookie"), "no session for '\(host)'")
        }
        XCTAssertEqual(send(app, request("GET", "/", client: "192.168.1.7", headers: ["host": "127.0.0.1:8080"])).status, 403, "a client elsewhere")
        var noHost = request("GET", "/api/session")
        noHost.headers["host"] = nil
        XCTAssertEqual(send(app, noHost).status, 403, "no Host at all (HTTP/1.0)")
        XCTAssertEqual(send(app, request("GET", "/", client: "::ffff:127.0.0.1", headers: ["host": "localhost:8080"])).status, 200)
        // with a password, any name (the box's LAN name) reaches the login
        let guarded = try self.app()
        XCTAssertEqual(send(guarded, request("GET", "/login", client: "192.168.1.7", headers: ["host": "kiosk.lan:8080"])).status, 200)
    }

    /// A change sent by a page from another site is refused by its Origin, before anything else; the page's own
    /// Origin passes.
    func testAChangeFromAnotherOriginIsRefused() throws {
        let app = try app()
        let (cookie, csrf) = try logIn(app)
        func command(_ origin: String, host: String = "127.0.0.1:8080", secure: Bool = false) -> Int {
            send(app, request("POST", "/api/command", cookie: cookie, csrf: csrf, json: #"["playlist-next"]"#, secure: secure,
                              headers: ["host": host, "origin": origin])).status
        }
        XCTAssertEqual(command("http://127.0.0.1:8080"), 200)
        XCTAssertEqual(command("https://kiosk.lan", host: "kiosk.lan", secure: true), 200)
        XCTAssertEqual(command("https://kiosk.lan:443", host: "KIOSK.lan", secure: true), 200)
        for origin in ["http://evil.example", "http://127.0.0.1:8081", "https://127.0.0.1:8080", "null", "http://127.0.0.1:8080/x", "http://127.0.0.1"] {
            XCTAssertEqual(command(origin), 403, origin)
        }
        XCTAssertEqual(sent.commands.count, 3, "only the page's own origin ran commands")
        XCTAssertEqual(send(app, request("GET", "/api/status", cookie: cookie, headers: ["origin": "http://evil.example"])).status, 200,
                       "a read is not a change (and the browser keeps its answer from the other page)")
    }

    /// A body for a route that needs a login is refused at its head when nobody is logged in, so it is never read;
    /// the login's own body is read.
    func testAnAnonymousBodyIsRefusedAtItsHead() throws {
        let app = try app()
        for path in ["/logout", "/api/command", "/api/caption", "/api/playlist", "/api/schedule", "/api/restart", "/api/upload"] {
            guard case .respond(let r) = app.admit(request("POST", path, json: "{}")) else { return XCTFail("\(path): its body would be read") }
            XCTAssertEqual(r.status, 401, path)
        }
        guard case .body = app.admit(request("POST", "/login", form: "password=x")) else { return XCTFail("the login's body is read") }
        let (cookie, _) = try logIn(app)
        guard case .body = app.admit(request("POST", "/api/command", cookie: cookie, json: "[]")) else {
            return XCTFail("a session's body is read (its CSRF token may be in it)")
        }
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

    /// A caption is read only from a small regular file: a link (to a file elsewhere, to /dev/zero), a FIFO (which
    /// would block its reader) and a file over 4 KiB are no caption, and reading them neither hangs nor fills memory.
    func testCaptionsAreReadOnlyFromSmallRegularFiles() throws {
        let app = try app()
        let (cookie, _) = try logIn(app)
        let media = dir.file("media")
        for name in ["plain", "linked", "zero", "fifo", "big"] { _ = try ColourPictures.make(dir, "media/\(name).png", "red") }
        try "Spring sale\n".write(toFile: media + "/plain.png.txt", atomically: true, encoding: .utf8)
        try "secret\n".write(toFile: dir.file("secret.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: media + "/linked.png.txt", withDestinationPath: dir.file("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: media + "/zero.png.txt", withDestinationPath: "/dev/zero")
        XCTAssertEqual(mkfifo(media + "/fifo.png.txt", 0o600), 0)
        try String(repeating: "x", count: 4097).write(toFile: media + "/big.png.txt", atomically: true, encoding: .utf8)
        // listed on a thread of its own, so that a read stuck on the FIFO fails the test instead of hanging it
        final class Box: @unchecked Sendable { var body: [UInt8] = [] }
        let box = Box(), listed = DispatchSemaphore(value: 0), r = request("GET", "/api/media", cookie: cookie)
        Thread {
            if case .respond(let answer) = app.admit(r) { box.body = answer.body }  // a GET is answered at its head
            listed.signal()
        }.start()
        guard listed.wait(timeout: .now() + 20) == .success else { return XCTFail("the listing hung (on the FIFO?)") }
        let list = try JSONValue.parse(box.body)
        guard case .array(let files)? = list["files"] else { return XCTFail("\(list)") }
        let captions = Dictionary(uniqueKeysWithValues: files.compactMap { f in f["name"]?.string.map { ($0, f["caption"]?.string) } })
        XCTAssertEqual(captions, ["big.png": nil, "fifo.png": nil, "linked.png": nil, "plain.png": "Spring sale", "zero.png": nil])
    }

    /// A name with `%` in it is found: libmicrohttpd decodes the path once, and the page does not decode it again.
    /// A media file is sent from disk by the server, not read into the answer.
    func testANameWithAPercentSignIsServed() throws {
        let app = try app()
        let (cookie, csrf) = try logIn(app)
        _ = try ColourPictures.make(dir, "media/100%25 off.png", "red")
        let r = send(app, request("GET", "/media/100%25 off.png", cookie: cookie))
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(send(app, request("HEAD", "/media/100%25 off.png", cookie: cookie)).file, r.file, "HEAD answers as GET")
        XCTAssertEqual(r.file, dir.file("media") + "/100%25 off.png")
        XCTAssertTrue(r.body.isEmpty, "the server sends the file itself")
        XCTAssertEqual(send(app, request("GET", "/media/100% off.png", cookie: cookie)).status, 404, "decoded twice it would be this name")
        XCTAssertEqual(send(app, request("DELETE", "/api/media/100%25 off.png", cookie: cookie, csrf: csrf)).status, 200)
    }

    /// An upload's plain fields stay short however many pieces they come in: one that grows over 4 KiB is dropped,
    /// with the rest of it, and a short one is joined whole.
    func testAnUploadsTextFieldsAreCappedInAll() throws {
        let writer = WebUploadWriter(folder: dir.file("media"))
        func piece(_ key: String, _ text: String, at offset: Int) {
            let bytes = Array(text.utf8).map { CChar(bitPattern: $0) }
            XCTAssertTrue(bytes.withUnsafeBufferPointer { writer.part(key: key, filename: nil, data: $0.baseAddress, offset: UInt64(offset), size: bytes.count) })
        }
        piece("csrf", "abc", at: 0)
        piece("csrf", "def", at: 3)
        let chunk = String(repeating: "x", count: 1000)
        for i in 0..<20 { piece("note", chunk, at: i * 1000) }  // 20,000 bytes in pieces of 1,000, each under the old per-piece cap
        XCTAssertEqual(writer.finish(), [])
        XCTAssertEqual(writer.fields, ["csrf": "abcdef"], "the 20,000-byte field is dropped, not kept growing")
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
