import Foundation
import KioskCore
import XCTest

/// The full-screen slideshow is the one-region layout: remote clients see region `main` showing the playlist's
/// item, `playlist-next main` and `playlist-prev main` step the playlist, and a region it does not have is
/// refused as a layout's would be. The frames are the slideshow's as before (its own tests hold them to ffmpeg).
final class SlideshowRegionTests: XCTestCase {
    /// `kiosk-regions` as [[member: value]].
    private func regions(_ c: IPCConnection) throws -> [[String: JSONValue]] {
        guard case .array(let list)? = try c.get("kiosk-regions") else { return [] }
        return list.compactMap { entry in
            guard case .object(let members) = entry else { return nil }
            return Dictionary(members, uniquingKeysWith: { a, _ in a })
        }
    }

    func testTheSlideshowIsRegionMainOverIPC() throws {
        let dir = try TempDir()
        let files = try [("a.png", "red"), ("b.png", "green"), ("c.png", "blue")].map { try ColourPictures.make(dir, $0.0, $0.1) }
        let sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", "--output", "headless", "--size", "320x180", "--no-state", "--no-watch",
                                 "--duration", "60", "--transition", "none", "--input-ipc-server", sock, "--log-level", "info"] + files)
        XCTAssertTrue(p.waitFor("first frame presented", timeout: 30), p.stderr)
        let c = try IPCConnection(path: sock)
        XCTAssertEqual(try c.request(#"["get_property","kiosk-layout"]"#)["error"], .string("property unavailable"), "no SMIL file")
        let first = try regions(c)
        XCTAssertEqual(first.count, 1, "\(first)")
        XCTAssertEqual(first.first?["name"], .string("main"))
        XCTAssertEqual(first.first?["filename"], .string(files[0]))
        XCTAssertEqual(first.first?["frozen"], .bool(false))
        // region main's time runs with the item's
        XCTAssertTrue(try eventually(5) {
            guard case .double(let t)? = try regions(c).first?["time-pos"] else { return false }
            return t > 0.2
        }, "time-pos moves: \((try? regions(c)) ?? [])")
        XCTAssertEqual(try c.request(#"["playlist-next","main"]"#)["error"], .string("success"))
        XCTAssertTrue(try eventually(5) { try regions(c).first?["filename"] == .string(files[1]) }, p.stderr)
        XCTAssertEqual(try c.get("filename"), .string("b.png"), "the playlist stepped with its region")
        XCTAssertEqual(try c.request(#"["playlist-prev","main"]"#)["error"], .string("success"))
        XCTAssertTrue(try eventually(5) { try regions(c).first?["filename"] == .string(files[0]) }, p.stderr)
        XCTAssertEqual(try c.request(#"["playlist-next","side"]"#)["error"], .string("invalid parameter"),
                       "the slideshow has no region side")
        XCTAssertEqual(try regions(c).first?["filename"], .string(files[0]), "a refused step moves nothing")
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }
}
