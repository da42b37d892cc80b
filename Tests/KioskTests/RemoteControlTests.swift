import Foundation
import KioskCore
@testable import KioskRemote
import XCTest

/// `kiosk play --input-ipc-server` end to end: a real kiosk process (headless, software GL) driven over its
/// socket. Every process is bounded in time and its standard error read while it runs.
final class RemoteControlTests: XCTestCase {
    /// A smooth picture (blurred test pattern) of `size` as a lossless PNG.
    private func picture(_ dir: TempDir, _ name: String, size: String, hue: Int = 0) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size),gblur=sigma=2,hue=h=\(hue)", "-frames:v", "1", path])
        return path
    }

    /// A PNG decoded by ffmpeg into RGBA.
    private func load(_ png: String, _ size: PixelSize) throws -> RGBAImage {
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", png, "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        return RGBAImage(size: size, pixels: [UInt8](data))
    }

    /// Starts kiosk playing `files` with the IPC server on `socket`, and waits for it to listen.
    private func start(_ socket: String, _ files: [String], extra: [String] = []) throws -> LiveProcess {
        let p = try LiveProcess(["play", "--output", "headless", "--size", "320x240", "--duration", "30",
                                 "--transition", "none", "--input-ipc-server", socket, "--log-level", "info"] + extra + files)
        XCTAssertTrue(p.waitFor("ipc: listening on \(socket)", timeout: 20), p.stderr)
        return p
    }

    private func stop(_ p: LiveProcess) {
        p.send(SIGTERM)
        let end = p.finish(timeout: 15)
        XCTAssertEqual(end.status, 0, p.stderr)
    }

    /// The screenshot is the frame as presented: the same pixels `kiosk snapshot` draws for that item.
    func testScreenshotEqualsSnapshotAndCommandsMoveThePlayer() throws {
        let dir = try TempDir()
        let a = try picture(dir, "a.png", size: "640x480")
        let b = try picture(dir, "b.png", size: "480x640", hue: 120)
        let sock = dir.file("ipc.sock")
        let p = try start(sock, [a, b])
        defer { stop(p) }
        let c = try IPCConnection(path: sock)
        XCTAssertEqual(try c.get("playlist-count"), .int(2))
        XCTAssertEqual(try c.request(#"["observe_property",1,"path"]"#)["error"], .string("success"))
        XCTAssertEqual(try c.request(#"["playlist-play-index",1]"#)["error"], .string("success"))
        XCTAssertNotNil(try c.waitForEvent("start-file") { $0["playlist_entry_id"] == .int(2) }, "\(c.events)")
        XCTAssertNotNil(try c.waitForEvent("property-change") { $0["data"] == .string(b) }, "\(c.events)")
        XCTAssertEqual(try c.get("playlist-pos"), .int(1))
        XCTAssertEqual(try c.get("width"), .int(480))
        let shot = dir.file("shot.png")
        XCTAssertEqual(try c.request(#"["screenshot-to-file","\#(shot)"]"#)["error"], .string("success"))
        let snap = dir.file("snap.png")
        let r = try CLITests.run(["snapshot", b, "--output", snap, "--size", "320x240"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let size = PixelSize(width: 320, height: 240)
        let psnr = ImageCompare.psnr(try load(shot, size), try load(snap, size))
        XCTAssertGreaterThanOrEqual(psnr, 40, "screenshot vs snapshot of b")
        let other = ImageCompare.psnr(try load(shot, size), try load(try snapshotOf(a, dir), size))
        XCTAssertLessThan(other, 25, "the screenshot must not match the other item")
        // Pause from the remote holds the item; resume lets it go on.
        XCTAssertEqual(try c.request(#"["set_property","pause",true]"#)["error"], .string("success"))
        XCTAssertEqual(try c.get("pause"), .bool(true))
        XCTAssertEqual(try c.get("kiosk-pause-reasons"), .array([.string("remote")]))
        XCTAssertEqual(try c.request(#"["cycle","pause"]"#)["error"], .string("success"))
        XCTAssertEqual(try c.get("core-idle"), .bool(false))
    }

    private func snapshotOf(_ file: String, _ dir: TempDir) throws -> String {
        let out = dir.file("snap-\((file as NSString).lastPathComponent)")
        let r = try CLITests.run(["snapshot", file, "--output", out, "--size", "320x240"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        return out
    }

    /// A path a live kiosk serves is refused (exit 1, one line naming it); a stale socket file is replaced; the
    /// socket has the mode asked for; the flags are checked.
    func testSocketPathRulesAndFlags() throws {
        let dir = try TempDir()
        let a = try picture(dir, "a.png", size: "64x48")
        let sock = dir.file("ipc.sock")
        let first = try start(sock, [a], extra: ["--ipc-mode", "0660"])
        var st = stat()
        XCTAssertEqual(stat(sock, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o660)
        let second = try CLITests.run(["play", "--output", "headless", "--size", "64x48", "--input-ipc-server", sock, a], timeout: 30)
        XCTAssertEqual(second.status, 1, second.stderr)
        let lines = second.stderr.split(separator: "\n").filter { $0.contains("error") }
        XCTAssertEqual(lines.count, 1, second.stderr)
        XCTAssertTrue(second.stderr.contains(sock) && second.stderr.contains("another server"), second.stderr)
        XCTAssertEqual(try IPCConnection(path: sock).get("playlist-count"), .int(1), "the first server goes on")
        first.send(SIGKILL)  // leaves its socket file behind: stale
        _ = first.finish(timeout: 10)
        XCTAssertEqual(UnixSocketClient.connectErrno(path: sock), ECONNREFUSED)
        let third = try start(sock, [a])
        XCTAssertEqual(stat(sock, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        XCTAssertEqual(try IPCConnection(path: sock).get("playlist-count"), .int(1))
        stop(third)
        XCTAssertEqual(UnixSocketClient.connectErrno(path: sock), ENOENT, "the socket is removed at exit")
        for (args, needle) in [(["--ipc-mode", "0660"], "--ipc-mode needs --input-ipc-server"),
                               (["--input-ipc-server", sock, "--ipc-mode", "0777"], "--ipc-mode"),
                               (["--input-ipc-server", sock, "--media-root", dir.file("none")], "--media-root")] {
            let r = try CLITests.run(["play", "--output", "headless", "--length", "1"] + args + [a], timeout: 30)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(needle), "\(args): \(r.stderr)")
        }
    }

    /// Many clients at once; malformed and overlong lines; a URL; a path outside --media-root.
    func testManyClientsAndBadInput() throws {
        let dir = try TempDir()
        let root = dir.file("media")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let a = try picture(dir, "media/a.png", size: "64x48")
        let outside = try picture(dir, "outside.png", size: "64x48")
        let sock = dir.file("ipc.sock")
        let p = try start(sock, [a], extra: ["--media-root", root])
        defer { stop(p) }
        let clients = try (0..<64).map { _ in try IPCConnection(path: sock) }
        for c in clients { try c.socket.write(#"{"command":["get_property","playlist-count"],"request_id":1}"# + "\n") }
        for c in clients {
            XCTAssertEqual(try c.nextReply(), #"{"data":1,"request_id":1,"error":"success"}"#)
        }
        let c = clients[0]
        try c.socket.write("{\"command\": [\n")
        XCTAssertEqual(try c.nextReply(), #"{"request_id":0,"error":"invalid parameter"}"#)
        XCTAssertEqual(try c.get("playlist-count"), .int(1), "the connection stays open after malformed JSON")
        XCTAssertEqual(try c.request(#"["loadfile","\#(outside)","append"]"#)["error"], .string("loading failed"))
        XCTAssertTrue(p.waitFor("refused: outside --media-root", timeout: 5), p.stderr)
        XCTAssertEqual(try c.request(#"["screenshot-to-file","\#(dir.file("shot.png"))"]"#)["error"], .string("error running command"))
        XCTAssertEqual(try c.request(#"["loadfile","rtmp://example.com/x.jpg","append"]"#)["error"], .string("success"))
        XCTAssertEqual(try c.request(#"["playlist-play-index",1]"#)["error"], .string("success"))
        let failed = try c.waitForEvent("end-file") { $0["reason"] == .string("error") }
        XCTAssertEqual(failed?["file_error"], .string("loading failed"), "\(c.events)")
        XCTAssertTrue(p.waitFor("rtmp://example.com/x.jpg: a URL", timeout: 5), p.stderr)
        let long = clients[1]
        try long.socket.write(Array(repeating: UInt8(ascii: "x"), count: (1 << 20) + 1))
        let end = try long.socket.readToEnd(timeout: 10)
        let replies = String(decoding: end.bytes, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix(#"{"event""#) }
        XCTAssertEqual(replies, [#"{"request_id":0,"error":"invalid parameter"}"#], "then EOF")
        XCTAssertEqual(try clients[2].get("playlist-count"), .int(2), "others go on")
        for c in clients { c.socket.close() }
        XCTAssertFalse(p.stderr.contains("Fatal error"), p.stderr)
    }
}
