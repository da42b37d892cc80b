import Foundation
import KioskCore
import XCTest

/// A real kiosk's page against clients that send what a browser would not, from Python's raw sockets
/// (Fixtures/web/web-probe.py): half-sent requests from many loopback addresses, queries of too many arguments,
/// paths that climb out of the media folder as they are (`--path-as-is`), a change from a foreign `Origin`, and a
/// rebound `Host` on a page without a password.
final class WebServerHostileTests: WebServerTestCase {
    /// 300 connections from 30 addresses (127.0.0.2 to 127.0.0.31) each send half a request and wait: a fresh client
    /// from 127.0.0.1 is still answered at once. Before the budget it waited past 15 s (the 64 slots were held until
    /// the header time cut them off, and the next half-sent ones in the backlog took them again).
    func testAFreshClientIsAnsweredWhileThreeHundredHalfSentRequestsWait() throws {
        let p = try start()
        let r = try probe(["crowd", "127.0.0.1", String(port), "30", "10"])
        XCTAssertEqual(r["opened"]?.number, 300, r.text)
        XCTAssertEqual(r["status"]?.number, 200, r.text)
        let after = try XCTUnwrap(r["answered_after"]?.number, r.text)
        XCTAssertLessThan(after, 2, "a fresh client answered within 2 s: \(r.text)")
        XCTAssertEqual(try curl(["-H", "Authorization: Bearer \(token)", base + "/api/status"]).status, 200)
        XCTAssertTrue(p.isRunning, p.stderr)
    }

    /// libmicrohttpd keeps each query argument in the connection's 64 KiB: about 950 ran it out and the connection
    /// died without an answer, and so did 256 with a 47,000-byte header beside them. Past 64 the answer is 414 with
    /// one line; up to 64, with headers of any size, there is always an answer (431 once the headers are too big).
    func testAQueryOfTooManyArgumentsIsAnswered() throws {
        let p = try start()
        for (count, pad, statuses) in [(10, 0, [200]), (64, 0, [200]), (65, 0, [414]), (256, 0, [414]), (950, 0, [414]), (5000, 0, [414]),
                                       (256, 47_000, [414])] + stride(from: 44_000, through: 52_000, by: 500).map({ (64, $0, [200, 431]) }) {
            let query = (0..<count).map { "a\($0)=\($0)" }.joined(separator: "&")
            let r = try raw("GET /api/status?\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                            + "X-Pad: \(String(repeating: "p", count: pad))\r\n\r\n")
            XCTAssertTrue(statuses.contains(Int(r["status"]?.number ?? -1)), "\(count) arguments, \(pad) bytes of header: \(r.text)")
            if statuses == [414] {
                let body = r["body"]?.string ?? ""
                XCTAssertTrue(body.contains("more than 64 arguments"), body)
                XCTAssertEqual(body.split(separator: "\n").count, 1, body)
            }
        }
        XCTAssertTrue(p.isRunning, p.stderr)
    }

    /// Paths sent as they are, not cleaned by a client: none reaches a file outside the media folder (the token file
    /// lies beside it), logged in or not.
    func testPathsThatClimbAreRefusedAsTheyAre() throws {
        try start()
        _ = try logIn()
        let cookie = try sessionCookie()
        for path in ["/media/../token", "/media/%2e%2e/token", "/media/..%2ftoken", "/media/..%2Ftoken", "/thumb/../token", "/media/./../token",
                     "/media/../../../../etc/passwd", "/media//token", "/../token", "/media/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/app.css/../token"] {
            for auth in ["Cookie: kiosk_session=\(cookie)\r\n", ""] {
                let r = try raw("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(auth)\r\n")
                let status = Int(r["status"]?.number ?? -1)
                XCTAssertTrue([401, 404].contains(status), "\(path) (\(auth.isEmpty ? "anonymous" : "logged in")): \(r.text)")
                XCTAssertFalse((r["body"]?.string ?? "").contains(token), "\(path): the token file was served")
                XCTAssertFalse((r["body"]?.string ?? "").contains("root:"), "\(path): /etc/passwd was served")
            }
        }
    }

    /// A change sent from another site's page (its `Origin`) is refused even with the session and its CSRF token;
    /// from the page's own origin it runs.
    func testAChangeFromAForeignOriginIsRefusedAtTheSocket() throws {
        try start()
        let csrf = try logIn()
        let cookie = try sessionCookie()
        let body = #"["playlist-next"]"#
        func command(_ origin: String?) throws -> JSONValue {
            try raw("POST /api/command HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: kiosk_session=\(cookie)\r\nX-CSRF-Token: \(csrf)\r\n"
                    + (origin.map { "Origin: \($0)\r\n" } ?? "") + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        }
        for origin in ["http://evil.example", "http://127.0.0.1:\(port + 1)", "https://127.0.0.1:\(port)", "null", "http://127.0.0.1.evil.example:\(port)"] {
            let r = try command(origin)
            XCTAssertEqual(r["status"]?.number, 403, "\(origin): \(r.text)")
            XCTAssertTrue((r["body"]?.string ?? "").contains("another site"), r.text)
        }
        XCTAssertEqual(try command("http://127.0.0.1:\(port)")["status"]?.number, 200)
    }

    /// Without a password the page answers only to its own loopback names: a page elsewhere whose name was rebound to
    /// 127.0.0.1 is fetched from loopback but with its own name in `Host`, and gets 403; so does a request with none.
    func testAReboundHostGetsNothingFromAPageWithoutAPassword() throws {
        try start(password: false)
        // with no Host, HTTP/1.1 is malformed: libmicrohttpd may answer 400 before kiosk's 403
        for (host, statuses) in [("Host: evil.example:\(port)\r\n", [403]), ("Host: evil.example\r\n", [403]),
                                 ("Host: 127.0.0.1.nip.io:\(port)\r\n", [403]), ("Host: localhost.evil.example\r\n", [403]), ("", [400, 403]),
                                 ("Host: 127.0.0.1:\(port)\r\n", [200]), ("Host: localhost:\(port)\r\n", [200]), ("Host: [::1]:\(port)\r\n", [200])] {
            let r = try raw("GET / HTTP/1.1\r\n\(host)\r\n")
            XCTAssertTrue(statuses.contains(Int(r["status"]?.number ?? -1)), "'\(host)': \(r.text)")
        }
    }

    /// A page without a password is open to every local user, so it runs only with --media-root, and what it writes
    /// stays there: a screenshot into another folder is refused and nothing is written; into the folder it is taken.
    func testAPageWithoutAPasswordWritesOnlyInTheMediaFolder() throws {
        try start(password: false)
        let session = try curl(["-H", "Host: 127.0.0.1:\(port)", base + "/api/session"])
        let csrf = try XCTUnwrap(try JSONValue.parse(Array(session.body.utf8))["csrf"]?.string, session.body)
        func screenshot(_ path: String) throws -> (status: Int, headers: String, body: String) {
            let json = JSONValue.array([.string("screenshot-to-file"), .string(path)]).text
            return try curl(["-H", "X-CSRF-Token: \(csrf)", "-H", "Content-Type: application/json", "--data-binary", json, base + "/api/command"])
        }
        let outside = dir.file("outside.png")
        let refused = try screenshot(outside)
        XCTAssertEqual(refused.status, 400, refused.body)
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside), "nothing written outside --media-root")
        let inside = media + "/shot.png"
        XCTAssertEqual(try screenshot(inside).status, 200)
        XCTAssertTrue(FileManager.default.fileExists(atPath: inside))
    }

    /// Sends `request` as it is and returns web-probe's `{status, closed, body}`.
    func raw(_ request: String) throws -> JSONValue {
        let file = dir.file("request-\(UUID().uuidString)")
        try Data(request.utf8).write(to: URL(fileURLWithPath: file))
        defer { unlink(file) }
        return try probe(["raw", "127.0.0.1", String(port), file])
    }

    /// The session cookie curl holds in its jar (a `#HttpOnly_` line, tab-separated, the value last).
    func sessionCookie() throws -> String {
        let jar = try String(contentsOfFile: dir.file("cookies"), encoding: .utf8)
        let fields = jar.split(separator: "\n").map { $0.split(separator: "\t") }.first { $0.count == 7 && $0[5] == "kiosk_session" }
        return try XCTUnwrap(fields.map { String($0[6]) }, jar)
    }
}
