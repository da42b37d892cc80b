import Foundation
import KioskCore
@testable import KioskRemote
import XCTest

/// `kiosk play FOLDER` watching its folder, end to end: a real kiosk process (headless, software GL) looked at
/// over its mpv IPC socket while pictures arrive in and leave the folder. Every wait is bounded.
final class FolderWatchCLITests: XCTestCase {
    /// A small picture, made outside the watched folder.
    private func picture(_ dir: TempDir, _ name: String, hue: Int) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48,hue=h=\(hue)", "-frames:v", "1", path])
        return path
    }

    /// Starts kiosk on `folder` and waits for its socket and for the folder's watcher.
    private func start(_ folder: String, socket: String) throws -> LiveProcess {
        let p = try LiveProcess(["play", "--output", "headless", "--size", "64x48", "--duration", "1", "--transition", "none",
                                 "--settle", "0.5", "--input-ipc-server", socket, "--log-level", "info", folder])
        XCTAssertTrue(p.waitFor("ipc: listening on \(socket)", timeout: 20), p.stderr)
        XCTAssertTrue(p.waitFor("\(folder): watching for changes", timeout: 20), p.stderr)
        return p
    }

    private func stop(_ p: LiveProcess) {
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 15).status, 0, p.stderr)
    }

    /// Asks `get` until `done` holds of its answer, for up to `timeout` seconds.
    private func poll(_ timeout: Double, _ get: () throws -> JSONValue?, until done: (JSONValue?) -> Bool) rethrows -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if done(try get()) { return true }
            usleep(50_000)
        }
        return done(try get())
    }

    private func filenames(_ playlist: JSONValue?) -> [String] {
        guard case .array(let entries) = playlist else { return [] }
        return entries.compactMap { if case .string(let s) = $0["filename"] { return s } else { return nil } }
    }

    func testPicturesArriveInPathOrderAndTheOneOnScreenMovesOnWhenDeleted() throws {
        let source = try TempDir()
        let dir = try TempDir()
        let folder = dir.file("photos")
        Files.mkdir(folder)
        for (name, hue) in [("a.png", 0), ("c.png", 240)] {
            try FileManager.default.copyItem(atPath: try picture(source, name, hue: hue), toPath: folder + "/" + name)
        }
        let b = try picture(source, "b.png", hue: 120)
        let sock = dir.file("ipc.sock")
        let p = try start(folder, socket: sock)
        defer { stop(p) }
        let c = try IPCConnection(path: sock)
        try FileManager.default.copyItem(atPath: b, toPath: folder + "/b.png")
        let sorted = ["a.png", "b.png", "c.png"].map { folder + "/" + $0 }
        XCTAssertTrue(try poll(10, { try c.get("playlist") }) { filenames($0) == sorted }, p.stderr)
        XCTAssertTrue(p.waitFor("showing \(folder)/b.png", timeout: 15), "the new picture is shown: \(p.stderr)")
        // Paused, nothing moves on by itself: the deleted picture on screen leaves at once.
        XCTAssertEqual(try c.request(#"["set_property","pause",true]"#)["error"], .string("success"))
        guard case .string(let shown) = try c.get("path") else { return XCTFail("nothing on screen: \(p.stderr)") }
        Files.remove(shown)
        // Between the deleted item and the next one, nothing may be on screen for a moment: `path` is then
        // unavailable (as in mpv), which is "not yet" here.
        XCTAssertTrue(poll(5, { try? c.get("path") }) { $0 != nil && $0 != .string(shown) }, p.stderr)
        XCTAssertEqual(filenames(try c.get("playlist")), sorted.filter { $0 != shown })
        XCTAssertTrue(p.waitFor("\(folder): 1 file left", timeout: 5), p.stderr)  // read from stderr while kiosk runs
    }

    func testAnEmptyFolderIdlesUntilAPictureArrives() throws {
        let source = try TempDir()
        let dir = try TempDir()
        let folder = dir.file("empty")
        Files.mkdir(folder)
        let sock = dir.file("ipc.sock")
        let p = try start(folder, socket: sock)
        defer { stop(p) }
        let c = try IPCConnection(path: sock)
        XCTAssertTrue(try poll(10, { try c.get("idle-active") }) { $0 == .bool(true) }, p.stderr)
        try FileManager.default.copyItem(atPath: try picture(source, "new.png", hue: 60), toPath: folder + "/new.png")
        XCTAssertTrue(poll(10, { try? c.get("path") }) { $0 == .string(folder + "/new.png") }, p.stderr)
        XCTAssertEqual(try c.get("idle-active"), .bool(false))
        // Without watching, an empty folder is nothing to play, as before.
        Files.mkdir(dir.file("also-empty"))
        let r = try CLITests.run(["play", "--output", "headless", "--no-watch", dir.file("also-empty"), "--length", "1"], timeout: 30)
        XCTAssertNotEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("nothing to play"), r.stderr)
    }

    /// A folder pulled away (a USB stick) takes its pictures with one line: the screen idles; it comes back with
    /// the folder.
    func testAFolderThatGoesIdlesTheScreenUntilItComesBack() throws {
        let source = try TempDir()
        let dir = try TempDir()
        let folder = dir.file("stick")
        Files.mkdir(folder)
        let a = try picture(source, "a.png", hue: 0)
        try FileManager.default.copyItem(atPath: a, toPath: folder + "/a.png")
        let sock = dir.file("ipc.sock")
        let p = try start(folder, socket: sock)
        defer { stop(p) }
        let c = try IPCConnection(path: sock)
        XCTAssertTrue(poll(10, { try? c.get("path") }) { $0 == .string(folder + "/a.png") }, p.stderr)
        Files.remove(folder)
        XCTAssertTrue(poll(5, { try? c.get("idle-active") }) { $0 == .bool(true) }, p.stderr)
        XCTAssertEqual(filenames(try c.get("playlist")), [])
        Files.mkdir(folder)
        try FileManager.default.copyItem(atPath: a, toPath: folder + "/b.png")
        XCTAssertTrue(poll(10, { try? c.get("path") }) { $0 == .string(folder + "/b.png") }, p.stderr)
        XCTAssertEqual(p.stderr.components(separatedBy: "\(folder): folder deleted").count - 1, 1, p.stderr)
    }
}
