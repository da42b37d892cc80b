import Foundation
import KioskCore
import KioskMedia
@testable import KioskWeb
import XCTest

/// What the page may remove, save and store, and how long its cookie lasts: only files the media list shows are
/// deleted (not a play log or schedule kept in the folder), a schedule with a NUL is refused, an upload the player
/// would refuse (over `--max-pixels`) is not stored, a session in use has its cookie renewed, and thumbnails are
/// made one at a time.
extension WebAppTests {
    func testDeleteRemovesOnlyWhatTheMediaListShows() throws {
        let app = try app()
        let (cookie, csrf) = try logIn(app)
        let media = dir.file("media")
        _ = try ColourPictures.make(dir, "media/a.png", "red")
        try "Spring sale\n".write(toFile: media + "/a.png.txt", atomically: true, encoding: .utf8)
        try "#EXTM3U\na.png\n".write(toFile: media + "/p.m3u", atomically: true, encoding: .utf8)
        try Data("SQLite format 3\u{0}".utf8).write(to: URL(fileURLWithPath: media + "/play.db"))
        try "fallback \(media)\n".write(toFile: media + "/kiosk.schedule", atomically: true, encoding: .utf8)
        try "notes\n".write(toFile: media + "/notes.txt", atomically: true, encoding: .utf8)
        let list = try JSONValue.parse(send(app, request("GET", "/api/media", cookie: cookie)).body)
        XCTAssertEqual(Self.names(list["files"]), ["a.png"])
        XCTAssertEqual(Self.names(list["playlists"]), ["p.m3u"])
        for name in ["play.db", "kiosk.schedule", "notes.txt", "a.png.txt"] {
            let r = send(app, request("DELETE", "/api/media/" + name, cookie: cookie, csrf: csrf))
            XCTAssertEqual(r.status, 404, "\(name): \(String(decoding: r.body, as: UTF8.self))")
            XCTAssertTrue(FileManager.default.fileExists(atPath: media + "/" + name), "\(name) is still there")
        }
        XCTAssertEqual(send(app, request("DELETE", "/api/media/p.m3u", cookie: cookie, csrf: csrf)).status, 200)
        XCTAssertEqual(send(app, request("DELETE", "/api/media/a.png", cookie: cookie, csrf: csrf)).status, 200)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: media).sorted(), ["kiosk.schedule", "notes.txt", "play.db"])
    }

    func testAScheduleWithANulIsRefusedAndNotSaved() throws {
        let schedule = dir.file("schedule")
        try "fallback /srv/a\n".write(toFile: schedule, atomically: true, encoding: .utf8)
        let sent = self.sent, clock = self.clock
        var backend = WebBackend(status: { PlayerStatus() }, command: { sent.commands.append($0); return .object([("error", .string("success"))]) },
                                 screenshot: { [0xFF, 0xD8, 0xFF] }, reports: PlayReports(), mediaRoot: dir.file("media"), probe: { _ in nil })
        // a check that finds nothing wrong: what stops the NUL is the page's own rule
        backend.schedule = WebSchedule(path: schedule, check: { _ in .success([]) }, reload: {})
        let app = WebApp(backend: backend, security: WebSecurity(passwordHash: try WebPassword.hash("correct horse battery"), token: nil,
                                                                 uploadLimit: 1 << 20), log: Log(level: .error), clock: { clock.now })
        let (cookie, csrf) = try logIn(app)
        let json = JSONValue.object([("text", .string("fallback /srv/a\nfallback /srv/b\u{0}c\n"))]).text
        let r = send(app, request("POST", "/api/schedule", cookie: cookie, csrf: csrf, json: json))
        XCTAssertEqual(r.status, 400)
        let body = String(decoding: r.body, as: UTF8.self)
        XCTAssertTrue(body.contains("NUL") && body.contains("line 2"), body)
        XCTAssertEqual(try String(contentsOfFile: schedule, encoding: .utf8), "fallback /srv/a\n", "nothing saved")
        let ok = send(app, request("POST", "/api/schedule", cookie: cookie, csrf: csrf, json: JSONValue.object([("text", .string("fallback /srv/b\n"))]).text))
        XCTAssertEqual(ok.status, 200)
        XCTAssertEqual(try String(contentsOfFile: schedule, encoding: .utf8), "fallback /srv/b\n")
    }

    /// The session lives 30 min from its last request; its cookie must too, so each answer to a session renews it.
    func testASessionInUseHasItsCookieRenewed() throws {
        let app = try app()
        let (cookie, _) = try logIn(app)
        for step in 1...3 {
            clock.now += 1500  // under the 1800 s a session lives idle, 4500 s in all: past a cookie set only at login
            for path in ["/api/status", "/", "/app.css"] {
                let r = send(app, request("GET", path, cookie: cookie))
                XCTAssertEqual(r.status, 200, "\(path) after \(step * 1500) s")
                let set = try XCTUnwrap(r.header("Set-Cookie"), "\(path): the cookie is renewed")
                XCTAssertTrue(set.hasPrefix("kiosk_session=\(cookie);") && set.contains("Max-Age=1800") && set.contains("HttpOnly"), set)
            }
        }
        // an anonymous request gets no cookie; one after logout gets none back either
        XCTAssertNil(send(app, request("GET", "/app.css")).header("Set-Cookie"))
        clock.now += 1801
        XCTAssertEqual(send(app, request("GET", "/api/status", cookie: cookie)).status, 401, "idle past 30 min: gone")
    }

    /// An upload over `--max-pixels` would be stored and never shown: it is refused, naming the limit.
    func testAnUploadOverMaxPixelsIsRefusedAndNotStored() throws {
        let media = dir.file("media")
        let folder = WebMedia(root: media, probe: { path in
            (try? MediaFile.probe(path)).map { MediaSummary(kind: $0.kind.rawValue, width: $0.width, height: $0.height) }
        }, maxPixels: 10_000)
        for (n, size) in [(1, "320x180"), (2, "100x90")] {  // as the upload's writer leaves them: hidden temporary files
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size)", "-frames:v", "1", dir.file("\(n).png")])
            try FileManager.default.moveItem(atPath: dir.file("\(n).png"), toPath: media + "/.kiosk-upload-\(n)")
        }
        let r = folder.claim([UploadedFile(name: "big.png", temporary: media + "/.kiosk-upload-1", size: 1, refused: nil),
                              UploadedFile(name: "small.png", temporary: media + "/.kiosk-upload-2", size: 1, refused: nil)])
        XCTAssertEqual(r.status, 200)
        let json = try JSONValue.parse(r.body)
        XCTAssertEqual(Self.names(json["stored"]), ["small.png"])
        guard case .array(let refused)? = json["refused"] else { return XCTFail(json.text) }
        let why = refused.first?["reason"]?.string ?? ""
        XCTAssertTrue(why.contains("320x180") && why.contains("--max-pixels 10000"), why)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: media), ["small.png"], "nothing else kept")
    }

    /// Thumbnails are made one at a time: a second request while one is being made waits for it, and past 3 s gets
    /// 503 with Retry-After (its server thread is not held longer); once the first is done the next is made.
    func testThumbnailsAreMadeOneAtATime() throws {
        _ = try ColourPictures.make(dir, "media/a.png", "red")
        _ = try ColourPictures.make(dir, "media/b.png", "blue")
        let folder = WebMedia(root: dir.file("media"), probe: { _ in MediaSummary(kind: "image") })
        final class Count: @unchecked Sendable {
            let lock = NSLock()
            var now = 0, most = 0
            func change(_ by: Int) { lock.lock(); now += by; most = max(most, now); lock.unlock() }
        }
        let count = Count()
        let slow: @Sendable (String) -> [UInt8]? = { _ in
            count.change(1)
            Thread.sleep(forTimeInterval: 4)
            count.change(-1)
            return [0xFF, 0xD8]
        }
        let first = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            XCTAssertEqual(folder.thumbnail("a.png", make: slow).status, 200)
            first.signal()
        }
        Thread.sleep(forTimeInterval: 0.3)  // the first is being made
        let busy = folder.thumbnail("b.png", make: slow)
        XCTAssertEqual(busy.status, 503)
        XCTAssertEqual(busy.header("Retry-After"), "2")
        XCTAssertEqual(first.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(folder.thumbnail("b.png", make: { _ in [0xFF, 0xD8] }).status, 200)
        XCTAssertEqual(count.most, 1, "never two at once")
    }

    /// The `name` of each object in a JSON array.
    static func names(_ value: JSONValue?) -> [String] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { $0["name"]?.string }
    }
}
