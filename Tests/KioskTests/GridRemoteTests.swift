import Foundation
import KioskCore
import XCTest

/// The grid in a real `kiosk play` process, driven over mpv's JSON IPC: `kiosk-view` opens and closes it, a
/// remote's keypresses move its focus and open an item; its thumbnails come from the disk cache the second time
/// (nothing decoded); and scrolling through 5,000 items keeps the memory within the thumbnail cache's bound.
final class GridRemoteTests: XCTestCase {
    /// A small JPEG and `count` hard links to it under distinct names (distinct items, one file's bytes).
    private func folder(_ dir: TempDir, count: Int) throws -> String {
        let source = dir.file("source.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=480x360,gblur=sigma=2", "-frames:v", "1", "-q:v", "3", source])
        let folder = dir.file("media")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for i in 0..<count {
            XCTAssertEqual(link(source, folder + "/" + String(format: "p%05d.jpg", i)), 0)
        }
        return folder
    }

    private func start(_ socket: String, _ args: [String]) throws -> LiveProcess {
        let p = try LiveProcess(["play", "--output", "headless", "--size", "1280x720", "--duration", "30", "--transition", "none",
                                 "--no-watch", "--no-state", "--input-ipc-server", socket, "--log-level", "info"] + args)
        XCTAssertTrue(p.waitFor("ipc: listening on \(socket)", timeout: 30), p.stderr)
        return p
    }

    private func stop(_ p: LiveProcess) {
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }

    /// Resident memory of a process, in KiB.
    private func rss(_ pid: Int32) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func testKioskViewKeypressesAndTheDiskCache() throws {
        let dir = try TempDir()
        let media = try folder(dir, count: 30)
        let cache = dir.file("thumbs")
        let sock = dir.file("ipc.sock")
        for run in 0..<2 {
            let p = try start(sock, ["--thumb-cache-dir", cache, media])
            let c = try IPCConnection(path: sock)
            XCTAssertEqual(try c.get("kiosk-view"), .string("slideshow"))
            XCTAssertEqual(try c.request(#"["set_property","kiosk-view","grid"]"#)["error"], .string("success"))
            XCTAssertEqual(try c.get("kiosk-view"), .string("grid"))
            XCTAssertEqual(try c.get("kiosk-pause-reasons"), .array([.string("grid")]))
            XCTAssertTrue(p.waitFor("tiles ready", timeout: 30), p.stderr)
            let ready = p.stderr.split(separator: "\n").first { $0.contains("tiles ready") }.map(String.init) ?? ""
            if run == 0 {
                XCTAssertFalse(ready.contains("decoded 0,"), "the first open decodes: \(ready)")
                // the rows around the screen load after it: wait until all 12 wanted tiles (4 rows of 3) are on disk
                var entries = 0
                for _ in 0..<200 where entries < 12 {
                    entries = ((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).filter { $0.hasSuffix(".thumb") }.count
                    usleep(100_000)
                }
                XCTAssertGreaterThanOrEqual(entries, 12, "the disk cache holds the screen and the rows around it")
            } else {
                XCTAssertTrue(ready.contains("decoded 0,") && !ready.contains("from disk 0,"),
                              "the second open takes every thumbnail from the disk cache: \(ready)")
            }
            XCTAssertEqual(try c.get("kiosk-grid-focus"), .string(media + "/p00000.jpg"))
            for k in ["RIGHT", "RIGHT", "DOWN"] {
                XCTAssertEqual(try c.request(#"["keypress","\#(k)"]"#)["error"], .string("success"))
            }
            guard case .string(let focus)? = try c.get("kiosk-grid-focus"), let n = Int(focus.suffix(9).prefix(5)) else {
                return XCTFail("no focus after the keys")
            }
            let columns = n - 2  // right twice from the first tile, then down a row
            XCTAssertGreaterThanOrEqual(columns, 3, "down moved by a row")
            XCTAssertEqual(try c.request(#"["keypress","ENTER"]"#)["error"], .string("success"))
            XCTAssertEqual(try c.get("kiosk-view"), .string("slideshow"), "OK opened the focused item")
            var pos: JSONValue?
            for _ in 0..<100 where pos != .int(Int64(2 + columns)) {  // once its picture is decoded
                pos = try c.get("playlist-pos")
                usleep(50_000)
            }
            XCTAssertEqual(pos, .int(Int64(2 + columns)))
            XCTAssertEqual(try c.get("kiosk-pause-reasons"), .array([]))
            XCTAssertEqual(try c.request(#"["set_property","kiosk-view","wall"]"#)["error"], .string("unsupported format for accessing property"))
            XCTAssertEqual(try c.request(#"["set_property","kiosk-grid-filter","videos"]"#)["error"], .string("success"))
            XCTAssertEqual(try c.get("kiosk-grid-filter"), .string("videos"))
            stop(p)
        }
    }

    func testScrollingThroughFiveThousandItemsStaysWithinTheCacheBound() throws {
        let dir = try TempDir()
        let media = try folder(dir, count: 5000)
        let sock = dir.file("ipc.sock")
        let budgetMB = 8
        let p = try start(sock, ["--thumb-cache-mb", "\(budgetMB)", "--no-thumb-cache", media])
        defer { stop(p) }
        let c = try IPCConnection(path: sock)
        XCTAssertEqual(try c.get("playlist-count"), .int(5000))
        XCTAssertEqual(try c.request(#"["set_property","kiosk-view","grid"]"#)["error"], .string("success"))
        XCTAssertTrue(p.waitFor("tiles ready", timeout: 30), p.stderr)
        let base = rss(p.pid)
        var peak = base
        // 250 pages down (about 3,000 tiles past the screen), each held long enough for some of its tiles to decode.
        for i in 0..<250 {
            XCTAssertEqual(try c.request(#"["keypress","PGDWN"]"#)["error"], .string("success"))
            usleep(i % 10 == 0 ? 150_000 : 30_000)
            peak = max(peak, rss(p.pid))
        }
        XCTAssertEqual(try c.request(#"["set_property","kiosk-view","slideshow"]"#)["error"], .string("success"))
        XCTAssertTrue(p.waitFor("thumbnails since it opened", timeout: 10), p.stderr)
        let line = p.stderr.split(separator: "\n").first { $0.contains("thumbnails since it opened") }.map(String.init) ?? ""
        let decoded = Int(line.components(separatedBy: "decoded ").last?.split(separator: ",").first ?? "") ?? 0
        XCTAssertGreaterThan(decoded, 200, "enough thumbnails decoded to overflow the cache many times: \(line)")
        // Without the bound, each 230-pixel thumbnail would keep about 210 KiB: 200 of them alone are 40 MiB.
        let fixed = 32 * 1024
        print("grid scroll: RSS \(base / 1024) MiB after opening, peak \(peak / 1024) MiB over 250 pages; \(line)")
        XCTAssertLessThanOrEqual(peak - base, budgetMB * 1024 + fixed,
                                 "RSS grew \((peak - base) / 1024) MiB over \(base / 1024) MiB scrolling; \(line)")
    }
}
