import Foundation
import KioskCore
@testable import KioskRemote
import XCTest

/// `kiosk play --schedule`: the folder of what plays now is watched, and only that one. A real kiosk process
/// (headless, software GL) starts four seconds before a window's end; files copied into the window's folder join
/// while it plays, and after the edge the fallback (the command line's folder) is watched instead. Bounded waits.
final class ScheduleWatchCLITests: XCTestCase {
    private func picture(_ dir: TempDir, _ name: String, hue: Int) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48,hue=h=\(hue)", "-frames:v", "1", path])
        return path
    }

    private func filenames(_ playlist: JSONValue?) -> [String] {
        guard case .array(let entries) = playlist else { return [] }
        return entries.compactMap { if case .string(let s) = $0["filename"] { return s } else { return nil } }
    }

    private func poll(_ timeout: Double, _ c: IPCConnection, until done: ([String]) -> Bool) throws -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if done(filenames(try c.get("playlist"))) { return true }
            usleep(50_000)
        }
        return done(filenames(try c.get("playlist")))
    }

    func testTheWindowsFolderIsWatchedThenTheFallbacksAfterTheEdge() throws {
        let made = try TempDir()
        let dir = try TempDir()
        let day = dir.file("day"), cli = dir.file("cli")
        Files.mkdir(day)
        Files.mkdir(cli)
        try FileManager.default.copyItem(atPath: try picture(made, "a.png", hue: 0), toPath: day + "/a.png")
        try FileManager.default.copyItem(atPath: try picture(made, "x.png", hue: 200), toPath: cli + "/x.png")
        let schedule = dir.file("schedule")
        try "*  08:00-09:00  \(day)\n".write(toFile: schedule, atomically: true, encoding: .utf8)
        let sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", "--output", "headless", "--size", "64x48", "--duration", "1", "--transition", "none",
                                 "--settle", "0.3", "--schedule", schedule, "--timezone", "UTC",
                                 "--start-time", "2026-12-24T08:59:54", "--input-ipc-server", sock, "--log-level", "info", cli])
        defer {
            p.send(SIGTERM)
            XCTAssertEqual(p.finish(timeout: 15).status, 0, p.stderr)
        }
        XCTAssertTrue(p.waitFor("ipc: listening on \(sock)", timeout: 20), p.stderr)
        XCTAssertTrue(p.waitFor("\(day): watching for changes", timeout: 20), p.stderr)
        let c = try IPCConnection(path: sock)
        try FileManager.default.copyItem(atPath: try picture(made, "b.png", hue: 120), toPath: day + "/b.png")
        XCTAssertTrue(try poll(4, c) { $0 == [day + "/a.png", day + "/b.png"] }, "a file copied into the window's folder joins: \(p.stderr)")
        // The window ends at 09:00 (six seconds after start): the fallback plays and its folder is watched.
        XCTAssertTrue(p.waitFor("\(cli): watching for changes", timeout: 20), p.stderr)
        XCTAssertTrue(try poll(5, c) { $0 == [cli + "/x.png"] }, p.stderr)
        try FileManager.default.copyItem(atPath: try picture(made, "c.png", hue: 60), toPath: day + "/c.png")
        try FileManager.default.copyItem(atPath: try picture(made, "y.png", hue: 300), toPath: cli + "/y.png")
        XCTAssertTrue(try poll(5, c) { $0 == [cli + "/x.png", cli + "/y.png"] }, p.stderr)
        usleep(1_000_000)  // the window's folder is no longer watched: its new file stays out
        XCTAssertEqual(filenames(try c.get("playlist")), [cli + "/x.png", cli + "/y.png"], p.stderr)
        XCTAssertEqual(p.stderr.components(separatedBy: "\(day): 1 file arrived").count - 1, 1,
                       "only b.png arrived while the window's folder was watched: \(p.stderr)")
    }
}
