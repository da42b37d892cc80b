import Foundation
import KioskCore
@testable import KioskWeb
import XCTest

/// While a layout plays instead of the playlist, the status says it plays, and what (issue 37, item 3): `kiosk ctl
/// status`, the IPC properties and the web page's `/api/status` read the same board, which said `idle`.
final class LayoutStatusTests: XCTestCase {
    func testCtlStatusAndPropertiesSayTheLayoutPlays() throws {
        let dir = try TempDir()
        _ = try ColourPictures.make(dir, "a.png", "green")
        let smil = dir.file("still.smil")
        try """
            <smil><head><layout><root-layout width="320" height="180"/><region regionName="a"/></layout></head>
            <body><img src="a.png" region="a" dur="30s"/></body></smil>
            """.write(toFile: smil, atomically: true, encoding: .utf8)
        let sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", smil, "--output", "headless", "--size", "160x90", "--no-state", "--no-watch",
                                 "--input-ipc-server", sock, "--log-level", "info"])
        XCTAssertTrue(p.waitFor("first frame presented", timeout: 30), p.stderr)
        let c = try IPCConnection(path: sock)
        XCTAssertEqual(try c.get("idle-active"), .bool(false))
        XCTAssertEqual(try c.get("path"), .string(smil))
        let status = try CLITests.run(["ctl", "--socket", sock, "status"], timeout: 20)
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.hasPrefix("playing "), status.stdout)
        XCTAssertTrue(status.stdout.contains(smil), status.stdout)
        XCTAssertTrue(status.stdout.contains("/30.0 s"), "the pass's length: \(status.stdout)")
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }

    func testTheWebStatusSaysTheLayoutPlays() {
        var s = PlayerStatus()
        s.layout = "/srv/shop.smil"  // as the player posts it while the layout plays: not idle
        let json = WebStatusJSON.status(s)
        XCTAssertEqual(json["state"], .string("playing"))
        XCTAssertEqual(json["path"], .string("/srv/shop.smil"))
        // a remote's load lists the file: its entry is the current one
        s.playlist = [PlayerStatus.Entry(id: 3, path: "/srv/shop.smil", title: "Shop")]
        XCTAssertEqual(WebStatusJSON.status(s)["item"], .string("Shop"))
    }
}
