import Foundation
import KioskCore
import XCTest

/// The web page served by a real kiosk, driven by curl and Python's own HTTP client: uploads streamed into the
/// media folder and played, refused past the cap or when not media with nothing left behind, the security
/// headers on every answer, a slow-loris client cut off while others are served, 200 clients at once for 10 s,
/// HTTPS, and bad flags.
final class WebServerTests: WebServerTestCase {
    func testAnUploadIsStoredListedAndPlayedAndTheGuardsHold() throws {
        let p = try start(["--http-upload-mb", "1"])
        let csrf = try logIn()
        let jpeg = dir.file("New photo.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x180", "-frames:v", "1", jpeg])
        let up = try curl(["-H", "X-CSRF-Token: \(csrf)", "-F", "files=@\(jpeg)", base + "/api/upload"])
        XCTAssertEqual(up.status, 200, up.body)
        XCTAssertTrue(FileManager.default.fileExists(atPath: media + "/New photo.jpg"))
        let list = try curl([base + "/api/media"])
        XCTAssertTrue(list.body.contains(#""name":"New photo.jpg","kind":"image""#), list.body)
        // its thumbnail, made as the grid makes its tiles (360 px, through its disk cache): a JPEG ffprobe reads
        let thumb = dir.file("thumb.jpg")
        let got = try BoundedProcess.run("/usr/bin/curl", ["-s", "-b", dir.file("cookies"), "-o", thumb, "-w", "%{http_code} %{content_type}",
                                                          base + "/thumb/New%20photo.jpg"], timeout: 30)
        XCTAssertEqual(String(decoding: got.stdout, as: UTF8.self), "200 image/jpeg")
        let probe = try FFmpegCLI.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", thumb])
        XCTAssertEqual(String(decoding: probe, as: UTF8.self), "mjpeg,360,360\n")
        // the file itself, sent from disk by the server: byte for byte what was uploaded
        let copy = dir.file("copy.jpg")
        let sent = try BoundedProcess.run("/usr/bin/curl", ["-s", "-b", dir.file("cookies"), "-o", copy, "-w", "%{http_code} %{content_type}",
                                                           base + "/media/New%20photo.jpg"], timeout: 30)
        XCTAssertEqual(String(decoding: sent.stdout, as: UTF8.self), "200 image/jpeg")
        XCTAssertEqual(FileManager.default.contents(atPath: copy), FileManager.default.contents(atPath: jpeg))
        let head = try curl(["-I", base + "/media/New%20photo.jpg"])
        XCTAssertEqual(head.status, 200, head.headers)
        XCTAssertTrue(head.headers.contains("Content-Length: \(FileManager.default.contents(atPath: jpeg)?.count ?? -1)"), head.headers)
        // the folder watcher sees the whole file and the slideshow plays it
        XCTAssertTrue(p.waitFor("showing \(media)/New photo.jpg", timeout: 30), p.stderr)
        // without the CSRF token: 403 and nothing stored
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x90", "-frames:v", "1", dir.file("b.jpg")])
        XCTAssertEqual(try curl(["-F", "files=@\(dir.file("b.jpg"))", base + "/api/upload"]).status, 403)
        // over the cap (1 MiB): 413, and nothing left in the folder, not even the temporary file
        var generator = SeededGenerator(seed: 28)
        try Data((0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: dir.file("big.jpg")))
        let big = try curl(["-H", "X-CSRF-Token: \(csrf)", "-F", "files=@\(dir.file("big.jpg"))", base + "/api/upload"])
        XCTAssertEqual(big.status, 413, big.body)
        // sent without a length up front (chunked): cut at the cap as it streams. The server answers 413 and closes;
        // curl, still sending, may see the reset before it reads the answer (it then says 100, the Continue it had).
        let chunked = try curl(["-H", "X-CSRF-Token: \(csrf)", "-H", "Transfer-Encoding: chunked", "-F", "files=@\(dir.file("big.jpg"))",
                                base + "/api/upload"])
        XCTAssertTrue([413, 100].contains(chunked.status), "\(chunked.status) \(chunked.body)")
        // not media: refused after the probe; a name that climbs is cleaned to a plain name
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: dir.file("fake.jpg")))
        let fake = try curl(["-H", "X-CSRF-Token: \(csrf)", "-F", "files=@\(dir.file("fake.jpg"))", base + "/api/upload"])
        XCTAssertEqual(fake.status, 415, fake.body)
        let climb = try curl(["-H", "X-CSRF-Token: \(csrf)", "-F", "files=@\(dir.file("b.jpg"));filename=../../../.b.jpg", base + "/api/upload"])
        XCTAssertEqual(climb.status, 200, climb.body)
        let names = try FileManager.default.contentsOfDirectory(atPath: media).sorted()
        XCTAssertEqual(names, ["New photo.jpg", "a.png", "b.jpg"], "nothing else, no .kiosk-upload leftovers")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("b.jpg.copy")))
        // every answer carries the security headers, a refusal as a page
        for (args, status) in [([base + "/"], 200), ([base + "/nothing"], 404), (["-X", "DELETE", base + "/api/media/a.png"], 403)] {
            let r = try curl(args)
            XCTAssertEqual(r.status, status, "\(args)")
            for h in ["Content-Security-Policy: default-src 'self'", "X-Frame-Options: DENY", "X-Content-Type-Options: nosniff", "Referrer-Policy: same-origin"] {
                XCTAssertTrue(r.headers.contains(h), "\(args): \(h) in \(r.headers)")
            }
        }
        // the script's way in: a bearer token, no cookie, no CSRF token
        let next = try BoundedProcess.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)",
                                                           "-H", "Content-Type: application/json", "-d", #"["playlist-next"]"#, base + "/api/command"],
                                          timeout: 30)
        XCTAssertEqual(String(decoding: next.stdout, as: UTF8.self), "200")
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }

    func testASlowLorisClientIsCutOffWhileOthersAreServed() throws {
        try assertCutOff("slowloris", within: 16, "cut off within the 10 s allowed for headers (and the watch's tick)")
    }

    /// A body trickled a byte every 2 s (a login's: no session needed) holds its connection no longer than the 20 s a
    /// body is given; before that limit it held it for as long as the client liked.
    func testASlowBodyIsCutOffWhileOthersAreServed() throws {
        try assertCutOff("slowbody", within: 26, "cut off within the 20 s allowed for a body (and the watch's tick)")
    }

    /// Runs `web-guards.py MODE`, which trickles a request, while another client is served at once; the trickler must
    /// have been cut off within `seconds`.
    func assertCutOff(_ mode: String, within seconds: Double, _ why: String) throws {
        let p = try start()
        let slow = try LiveProcess([Self.guards, mode, "127.0.0.1", String(port), String(Int(seconds) + 8)], executable: "/usr/bin/python3")
        Thread.sleep(forTimeInterval: 3)  // the slow client is holding its connection now
        let normal = try curl(["-H", "Authorization: Bearer \(token)", base + "/api/status"])
        XCTAssertEqual(normal.status, 200, normal.body)
        _ = slow.finish(timeout: seconds + 25)
        let out = try JSONValue.parse(Array(slow.stdout.utf8))
        guard let closed = out["closed_after"]?.number else { return XCTFail("the \(mode) client was never cut off: \(slow.stdout) \(slow.stderr)") }
        XCTAssertLessThan(closed, seconds, why)
        XCTAssertGreaterThan(closed, seconds - 10, "not cut off before its time: \(why)")
        XCTAssertTrue(p.isRunning)
    }

    func testTwoHundredClientsForTenSecondsNeitherCrashNorGrow() throws {
        let p = try start()
        _ = try curl(["-H", "Authorization: Bearer \(token)", base + "/api/status"])
        let before = rss(p)
        let load = try BoundedProcess.run("/usr/bin/python3", [Self.guards, "load", "127.0.0.1", String(port), "200", "10", token],
                                          timeout: 60)
        let totals = try JSONValue.parse([UInt8](load.stdout))
        let after = rss(p)
        XCTAssertTrue(p.isRunning, p.stderr)
        guard case .int(let ok)? = totals["ok"], case .int(let requests)? = totals["requests"] else { return XCTFail(totals.text) }
        XCTAssertGreaterThan(ok, 500, "most clients were answered: \(totals.text)")
        // a client afterwards is served at once
        XCTAssertEqual(try curl(["-H", "Authorization: Bearer \(token)", base + "/api/status"]).status, 200)
        XCTAssertLessThan(after - before, 48, "RSS \(before) -> \(after) MiB over \(requests) requests (\(totals.text))")
        let statuses = totals["statuses"]?.text ?? ""
        print("web load: \(requests) requests by 200 clients in 10 s, \(ok) answered 200; RSS \(before) -> \(after) MiB; \(statuses)")
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }

    /// Requests without a body share one keep-alive connection (the live view asks every 2 s; over TLS each new
    /// connection is a handshake); a body refused at its head is answered at once and its connection closed, so the
    /// body is never read.
    func testRequestsKeepTheirConnectionAndARefusedBodyClosesIt() throws {
        let p = try start()
        let urls = [base + "/api/status", base + "/app.css", base + "/api/media"]
        let kept = try BoundedProcess.run("/usr/bin/curl", ["-s", "-H", "Authorization: Bearer \(token)", "-w", "%{http_code}:%{num_connects} "]
                                          + urls.flatMap { ["-o", "/dev/null", $0] }, timeout: 30)
        XCTAssertEqual(String(decoding: kept.stdout, as: UTF8.self), "200:1 200:0 200:0 ", "one connection for the three")
        let refused = try BoundedProcess.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-D", "-", "-F", "files=@\(media)/a.png", base + "/api/upload"],
                                             timeout: 30)
        let head = String(decoding: refused.stdout, as: UTF8.self)
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 401"), head)
        XCTAssertTrue(head.lowercased().contains("connection: close"), head)
        XCTAssertTrue(p.isRunning)
    }

    /// A schedule saved from the page may name only what lies in --media-root (a link out, or an entry of a playlist
    /// it names, however deep, counts as out), as IPC's loadfile may; check-config's other rules still hold, and
    /// nothing is saved with a problem.
    func testAScheduleSavedFromThePageStaysInTheMediaFolder() throws {
        let schedule = dir.file("schedule"), outside = dir.file("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        _ = try ColourPictures.make(dir, "outside/b.png", "blue")
        try FileManager.default.createSymbolicLink(atPath: media + "/out", withDestinationPath: outside)
        try "#EXTM3U\n\(outside)/b.png\n".write(toFile: media + "/p.m3u", atomically: true, encoding: .utf8)
        try "#EXTM3U\na.png\np.m3u\n".write(toFile: media + "/outer.m3u", atomically: true, encoding: .utf8)  // p.m3u inside it
        // the operator's own file names a playlist whose inner playlist leads out: served from the page, the player
        // loads the schedule's targets as a remote's, so that picture is skipped (check-config finds the same below)
        let initial = "fallback \(media)/outer.m3u\n"
        try initial.write(toFile: schedule, atomically: true, encoding: .utf8)
        let p = try start(["--schedule", schedule])
        XCTAssertTrue(p.waitFor("\(outside)/b.png: skipped: outside --media-root", timeout: 20), p.stderr)
        func save(_ text: String) throws -> (status: Int, body: String) {
            let json = JSONValue.object([("text", .string(text))]).text
            let r = try curl(["-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json", "--data-binary", json, base + "/api/schedule"])
            return (r.status, r.body)
        }
        for (text, what) in [("fallback \(outside)\n", outside), ("fallback \(media)/out\n", media + "/out"), ("fallback \(media)/p.m3u\n", "\(outside)/b.png"),
                             ("fallback \(media)/outer.m3u\n", "\(outside)/b.png")] {
            let r = try save(text)
            XCTAssertEqual(r.status, 422, r.body)
            XCTAssertTrue(r.body.contains("outside the media folder"), r.body)
            XCTAssertTrue(r.body.contains(what), "names \(what): \(r.body)")
        }
        XCTAssertEqual(try String(contentsOfFile: schedule, encoding: .utf8), initial, "nothing saved")
        XCTAssertEqual(try save("fallback \(media)/a.png\n").status, 200)
        XCTAssertEqual(try String(contentsOfFile: schedule, encoding: .utf8), "fallback \(media)/a.png\n")
    }

    func testHTTPSWithACertificate() throws {
        let key = dir.file("key.pem"), cert = dir.file("cert.pem")
        let made = try BoundedProcess.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                                                              "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                                          timeout: 60)
        XCTAssertEqual(made.status, 0, String(decoding: made.stderr, as: UTF8.self))
        let p = try start(["--http-tls-cert", cert, "--http-tls-key", key])
        XCTAssertTrue(p.stderr.contains("https://127.0.0.1:\(port)/"), p.stderr)
        let https = "https://127.0.0.1:\(port)"
        let login = try curl(["--cacert", cert, "--data-urlencode", "password=\(password)", https + "/login"])
        XCTAssertEqual(login.status, 303, login.body)
        XCTAssertTrue(login.headers.contains("Secure"), login.headers)
        XCTAssertEqual(try curl(["--cacert", cert, https + "/api/status"]).status, 200)
        // plain HTTP to the TLS port gets no page
        XCTAssertNotEqual(try curl([base + "/api/status"]).status, 200)
    }

    func testBadFlagsAreOneLineAndExit2() throws {
        let pw = dir.file("password")
        for (args, says) in [
            (["--http", "0.0.0.0:\(MQTTTools.freePort())"], "an address other than loopback needs --http-password-file"),
            (["--http", "kiosk.local:80"], "'kiosk.local' is not an IP address"),
            (["--http", "127.0.0.1"], "'127.0.0.1' is not ADDR:PORT"),
            (["--http", "127.0.0.1:8080", "--http-tls-cert", pw], "--http-tls-cert and --http-tls-key go together"),
            // no password: every local user reaches the page, so what it plays and writes must stay in a folder
            (["--http", "127.0.0.1:8080"], "--http 127.0.0.1:8080 without --http-password-file needs --media-root DIR"),
            (["--http", "[::1]:8080", "--http-token-file", dir.file("token")], "without --http-password-file needs --media-root DIR"),
            (["--http", "127.0.0.1:8080", "--http-password-file", dir.file("none")], "--http-password-file: cannot read"),
            (["--http", "127.0.0.1:8080", "--http-password-file", dir.file("media/a.png")], "cannot read"),
            (["--http-password-file", pw], "--http-password-file needs --http ADDR:PORT"),
            (["--http", "127.0.0.1:8080", "--http-upload-mb", "-5"], "--http-upload-mb: -5 is out of range 1...1000000"),
            (["--http", "127.0.0.1:8080", "--http-upload-mb", "99999999999999999999"], "--http-upload-mb: '99999999999999999999' is not a whole number"),
            (["--http", "127.0.0.1:8080", "--http-upload-mb", "9223372036854775807"], "out of range 1...1000000"),
        ] {
            let r = try CLITests.run(["play", "--output", "headless", "--no-state"] + args + [media], timeout: 30)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(says), "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
        // a port another server holds: one line, exit 1
        let p = try start()
        let taken = try CLITests.run(["play", "--output", "headless", "--no-state", "--http", "127.0.0.1:\(port)", "--media-root", media, media],
                                     timeout: 30)
        XCTAssertEqual(taken.status, 2, taken.stderr)
        XCTAssertTrue(taken.stderr.contains("cannot serve on 127.0.0.1:\(port)"), taken.stderr)
        XCTAssertTrue(p.isRunning)
    }
}

/// The session and request guards at the socket, with curl: the cookie's attributes, CSRF on a command, the login
/// limit's 429, and headers and bodies over their limits.
final class WebServerGuardTests: WebServerTestCase {
    func testTheGuardsAtTheSocket() throws {
        try start()
        // the session cookie as the browser gets it
        let login = try curl(["--data-urlencode", "password=\(password)", base + "/login"])
        XCTAssertEqual(login.status, 303)
        let cookie = login.headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") } ?? ""
        XCTAssertTrue(cookie.contains("kiosk_session=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), String(cookie))
        let csrf = try XCTUnwrap(try JSONValue.parse(Array(try curl([base + "/api/session"]).body.utf8))["csrf"]?.string)
        // a command needs the CSRF token with the cookie
        let json = ["-H", "Content-Type: application/json", "-d", #"["playlist-next"]"#, base + "/api/command"]
        XCTAssertEqual(try curl(json).status, 403)
        XCTAssertEqual(try curl(["-H", "X-CSRF-Token: \(csrf)"] + json).status, 200)
        // a body over 256 KiB: 413; headers over 64 KiB: refused before any handler runs
        try Data(("[\"" + String(repeating: "x", count: 300 * 1024) + "\"]").utf8).write(to: URL(fileURLWithPath: dir.file("big.json")))
        XCTAssertEqual(try curl(["-H", "X-CSRF-Token: \(csrf)", "-H", "Content-Type: application/json", "--data-binary", "@" + dir.file("big.json"),
                                 base + "/api/command"]).status, 413)
        let huge = try curl(["-H", "X-Padding: " + String(repeating: "y", count: 70 * 1024), base + "/api/status"])
        XCTAssertTrue([431, 413, 400, 0].contains(huge.status), "status \(huge.status)")
        // five wrong passwords in a minute: 429 with Retry-After, even for the right one
        var statuses: [Int] = []
        for _ in 0..<5 { statuses.append(try curl(["--data-urlencode", "password=wrong", base + "/login"]).status) }
        XCTAssertEqual(statuses, [401, 401, 401, 401, 429])
        let blocked = try curl(["--data-urlencode", "password=\(password)", base + "/login"])
        XCTAssertEqual(blocked.status, 429)
        XCTAssertTrue(blocked.headers.contains("Retry-After: "), blocked.headers)
        XCTAssertEqual(kiosk?.stderr.components(separatedBy: "http: a wrong password from 127.0.0.1").count, 6, kiosk?.stderr ?? "")
    }
}
