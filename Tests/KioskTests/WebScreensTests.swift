import Foundation
import KioskCore
import XCTest

/// The web page's API addresses a screen of several (issue 40), driven by curl against a real kiosk: `/api/screens`
/// lists them, first first; `?screen=NAME` on `/api/status`, `/api/command` and `/api/screenshot.jpg` reads and drives
/// that screen alone (none, or the first one's name: the first); a name that is not a screen is a 404 naming the
/// screens there are.
final class WebScreensTests: WebServerTestCase {
    func testTheAPIAddressesEachScreen() throws {
        _ = try startTwoScreens(["--http-token-file", dir.file("token")])
        let auth = ["-H", "Authorization: Bearer \(token)"]
        func json(_ path: String) throws -> JSONValue {
            let r = try curl(auth + [base + path])
            XCTAssertEqual(r.status, 200, "\(path): \(r.body)")
            return try JSONValue.parse(Array(r.body.utf8))
        }
        XCTAssertEqual(try json("/api/screens")["screens"], .array([.string("door"), .string("lobby")]))
        XCTAssertEqual(try json("/api/status")["count"], .int(1), "the first screen: the media folder's one picture")
        XCTAssertEqual(try json("/api/status?screen=door")["count"], .int(1))
        XCTAssertEqual(try json("/api/status?screen=lobby")["count"], .int(2))
        XCTAssertEqual(try json("/api/status?screen=lobby")["index"], .int(0))
        let next = try curl(auth + ["-H", "Content-Type: application/json", "--data-binary", #"["playlist-next"]"#,
                                    base + "/api/command?screen=lobby"])
        XCTAssertEqual(next.status, 200, next.body)
        XCTAssertTrue(try eventually(5) { (try? json("/api/status?screen=lobby")["index"]) == .int(1) }, "lobby stepped on")
        XCTAssertEqual(try json("/api/status")["index"], .int(0), "door did not")
        // each screen's screenshot: door's red, lobby's blue (its second picture now)
        for (query, colour) in [("", (255, 0, 0)), ("?screen=lobby", (0, 0, 255))] {
            let jpeg = dir.file("shot\(query.isEmpty ? "-door" : "-lobby").jpg")
            let r = try BoundedProcess.run("/usr/bin/curl", ["-s", "-o", jpeg, "-w", "%{http_code}"] + auth + [base + "/api/screenshot.jpg" + query],
                                           timeout: 30)
            XCTAssertEqual(String(decoding: r.stdout, as: UTF8.self), "200", query)
            let px = try FFmpegCLI.referenceRGBA(jpeg, size: PixelSize(width: 1, height: 1), filter: "crop=16:16:152:82").pixels
            XCTAssertEqual(Double(px[0]), Double(colour.0), accuracy: 40, "\(query) red")
            XCTAssertEqual(Double(px[2]), Double(colour.2), accuracy: 40, "\(query) blue")
        }
        let missing = try curl(auth + [base + "/api/status?screen=hall"])
        XCTAssertEqual(missing.status, 404)
        XCTAssertTrue(missing.body.contains("no screen 'hall' (screens: door, lobby)"), missing.body)
    }

    /// The dashboard's choice of screen in Debian's chromium (selenium): it offers both screens, and Next on the
    /// second steps that screen alone.
    func testTheDashboardChoosesTheScreenInARealBrowser() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver"] where !FileManager.default.fileExists(atPath: tool) {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("\(tool) is missing (Kiosk/setup.sh installs it)") }
            throw XCTSkip("\(tool) is missing (Kiosk/setup.sh installs chromium and chromium-driver)")
        }
        let p = try startTwoScreens(["--http-password-file", dir.file("password")])
        let script = URL(fileURLWithPath: Self.guards).deletingLastPathComponent().appendingPathComponent("browser-screens.py").path
        let r = try BoundedProcess.run("/usr/bin/python3", [script, base, password], timeout: 180)
        XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self).suffix(3000) + "\n" + p.stderr.suffix(2000))
        let seen = try JSONValue.parse([UInt8](r.stdout))
        XCTAssertEqual(seen["offered"], .array([.string("door"), .string("lobby")]), seen.text)
        XCTAssertEqual(seen["now_before"], .string("b.png"), seen.text)
        XCTAssertEqual(seen["now_after"], .string("c.png"), seen.text)
        XCTAssertEqual(seen["second_index"], .int(1), seen.text)
        XCTAssertEqual(seen["first_index"], .int(0), "door untouched: \(seen.text)")
        XCTAssertEqual(seen["console_errors"], .array([]), seen.text)
    }

    /// kiosk with screen door on the media folder (a red picture) and screen lobby on a folder of a green and a blue
    /// one, the page on a free port with `login`'s way in; returns once the page serves and lobby shows.
    private func startTwoScreens(_ login: [String]) throws -> LiveProcess {
        let lobby = dir.file("lobby")
        try FileManager.default.createDirectory(atPath: lobby, withIntermediateDirectories: true)
        _ = try ColourPictures.make(dir, "lobby/b.png", "green")
        _ = try ColourPictures.make(dir, "lobby/c.png", "blue")
        port = MQTTTools.freePort()
        let p = try LiveProcess(["play", "--output", "headless", "--size", "320x180", "--no-state", "--duration", "60", "--transition", "none",
                                 "--http", "127.0.0.1:\(port)", "--media-root", dir.path, "--log-level", "info",
                                 "--screen", "door:HDMI-A-1:\(media)", "--screen", "lobby:HDMI-A-2:\(lobby)"] + login)
        kiosk = p
        XCTAssertTrue(p.waitFor("http: serving the web page on", timeout: 30), p.stderr)
        XCTAssertTrue(p.waitFor("screen lobby: showing", timeout: 30), p.stderr)
        return p
    }
}
