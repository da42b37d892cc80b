import Foundation
import KioskCore
import XCTest

/// `kiosk record FILE.smil` and `kiosk play FILE.smil`: a layout through the player's loop (its layout mode and
/// frame presenter), the built binary on real files. Recorded frames at set times are held against the same
/// screen composed by ffmpeg (its scaler and overlay).
final class LayoutPlayTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    /// Root 320x180 (#203040): `main` 0,0 200x180 shows a.png for 1 s, then b.png for 1 s (a seq); `side`
    /// 200,0 120x180 shows c.png for the 2 s (a par around both). Every region stretches (fill).
    private func makeLayout(in folder: String, body: String? = nil) throws -> String {
        for (name, hue) in [("a", 0), ("b", 120), ("c", 240)] where !FileManager.default.fileExists(atPath: folder + "/\(name).png") {
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=160x120:r=1,gblur=sigma=3,hue=h=\(hue)", "-frames:v", "1",
                                  folder + "/\(name).png"])
        }
        let smil = folder + "/" + (body == nil ? "two.smil" : "other.smil")
        let layout = """
            <smil><head><layout>
            <root-layout width="320" height="180" backgroundColor="#203040"/>
            <region regionName="main" left="0" top="0" width="200" height="180" fit="fill"/>
            <region regionName="side" left="200" top="0" width="120" height="180" fit="fill"/>
            </layout></head><body>
            """ + (body ?? """
            <par><seq><img src="a.png" region="main" dur="1s"/><img src="b.png" region="main" dur="1s"/></seq>
            <img src="c.png" region="side" dur="2s"/></par>
            """) + "</body></smil>\n"
        try layout.write(toFile: smil, atomically: true, encoding: .utf8)
        return smil
    }

    /// ffmpeg's screen with `main` showing `mainPicture` and `side` c.png, as RGBA.
    private func reference(_ dir: TempDir, main mainPicture: String) throws -> RGBAImage {
        let out = dir.file("ref-\(mainPicture).rgba")
        let graph = "color=c=0x203040:s=320x180:d=1,format=rgba[root];[0:v]scale=200:180:flags=bicubic[m];"
            + "[1:v]scale=120:180:flags=bicubic[s];[root][m]overlay=0:0:format=rgb[r1];[r1][s]overlay=200:0:format=rgb,format=rgba"
        try FFmpegCLI.ffmpeg(["-i", dir.file("\(mainPicture).png"), "-i", dir.file("c.png"), "-filter_complex", graph,
                              "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", out])
        return try RenderTestSupport.loadRawRGBA(URL(fileURLWithPath: out), size: PixelSize(width: 320, height: 180))
    }

    /// Frame `n` of a recording, decoded by ffmpeg into RGBA.
    private func frame(_ n: Int, of recording: String) throws -> RGBAImage {
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", recording, "-vf", "select=eq(n\\,\(n))",
                                                "-frames:v", "1", "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        return RGBAImage(size: PixelSize(width: 320, height: 180), pixels: [UInt8](data))
    }

    func testRecordedLayoutShowsEachRegionsMediumAtItsTime() throws {
        let dir = try TempDir()
        let smil = try makeLayout(in: dir.path)
        let out = dir.file("rec.y4m")
        let r = try CLITests.run(["record", smil, "--output", out, "--size", "320x180", "--fps", "10"], timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        // without --length: one pass of the body (2 s), frame by frame
        let frames = try FFmpegCLI.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                   "stream=nb_read_frames", "-of", "csv=p=0", out])
        XCTAssertEqual(String(decoding: frames, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), "20")
        let withA = try reference(dir, main: "a"), withB = try reference(dir, main: "b")
        for (n, want, other) in [(5, withA, withB), (15, withB, withA)] {
            let got = try frame(n, of: out)
            let psnr = RenderTestSupport.psnr(got, want)
            XCTAssertGreaterThan(psnr, 30, "frame \(n) against ffmpeg's composition: \(psnr) dB")
            let wrong = RenderTestSupport.psnr(got, other)
            XCTAssertLessThan(wrong, psnr - 6, "frame \(n) must show its own picture in main (\(wrong) dB to the other)")
        }
        // the screen's own overlays go over a region only when asked: this layout's regions fill the screen, so a
        // clock with no corner of its own steps aside, and one given --clock-position changes its box, and only that
        let plain = try frame(5, of: out)
        func changedPixels(_ extra: [String]) throws -> Int {
            let clocked = dir.file("clock-\(extra.count).y4m")
            let c = try CLITests.run(["record", smil, "--output", clocked, "--size", "320x180", "--fps", "10", "--clock", "%H:%M"] + extra,
                                     timeout: 120)
            XCTAssertEqual(c.status, 0, c.stderr)
            let withClock = try frame(5, of: clocked)
            var changed = 0
            for i in stride(from: 0, to: plain.pixels.count, by: 4) where abs(Int(plain.pixels[i]) - Int(withClock.pixels[i])) > 24 {
                changed += 1
            }
            return changed
        }
        XCTAssertEqual(try changedPixels([]), 0, "a clock not asked to go over the regions leaves them as they are")
        let asked = try changedPixels(["--clock-position", "top-right"])
        XCTAssertGreaterThan(asked, 100, "the clock asked for is drawn over the regions")
        XCTAssertLessThan(asked, 320 * 180 / 5, "only the clock's box changed (\(asked) pixels)")
    }

    func testPlayingALayoutWithNoLoopEndsAfterOnePass() throws {
        let dir = try TempDir()
        let smil = try makeLayout(in: dir.path)
        let started = Date()
        let r = try CLITests.run(["play", smil, "--output", "headless", "--size", "320x180", "--no-loop", "--log-level", "info"],
                                 timeout: 60)
        let took = Date().timeIntervalSince(started)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("layout: \(smil): 2 regions, 2.00 s a pass"), r.stderr)
        XCTAssertTrue(r.stderr.contains("first frame presented"), r.stderr)
        XCTAssertGreaterThanOrEqual(took, 2, "it plays the 2 s body in real time before it ends")
    }

    func testALayoutPlaysAloneAndRecordNeedsAnEnd() throws {
        let dir = try TempDir()
        let smil = try makeLayout(in: dir.path)
        let mixed = try CLITests.run(["play", smil, dir.file("a.png"), "--output", "headless"], timeout: 60)
        XCTAssertEqual(mixed.status, 2, mixed.stderr)
        XCTAssertEqual(mixed.stderr.split(separator: "\n").count, 1, mixed.stderr)
        XCTAssertTrue(mixed.stderr.contains("\(smil) is a layout and plays alone"), mixed.stderr)
        let endless = try makeLayout(in: dir.path, body: "<img src=\"a.png\" region=\"main\" dur=\"1s\" repeatCount=\"indefinite\"/>")
        let out = dir.file("rec.mp4")
        let r = try CLITests.run(["record", endless, "--output", out, "--size", "320x180"], timeout: 60)
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("has no end"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "no frame, no file")
        let bounded = try CLITests.run(["record", endless, "--output", out, "--size", "320x180", "--fps", "10", "--length", "1.5"],
                                       timeout: 120)
        XCTAssertEqual(bounded.status, 0, bounded.stderr)
        let length = try FFmpegCLI.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", out])
        XCTAssertEqual(Double(String(decoding: length, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0,
                       1.5, accuracy: 0.15, "--length bounds an endless layout")
    }

    /// The region `name` in a `kiosk-regions` reply, as [member: value].
    private func region(_ name: String, in reply: JSONValue?) -> [String: JSONValue] {
        guard case .array(let list)? = reply else { return [:] }
        for case .object(let members) in list where members.contains(where: { $0.0 == "name" && $0.1 == .string(name) }) {
            return Dictionary(members, uniquingKeysWith: { a, _ in a })
        }
        return [:]
    }

    func testIPCTellsTheLayoutAndWhatEachRegionShowsAndScreenshotsIt() throws {
        let dir = try TempDir()
        let smil = try makeLayout(in: dir.path)
        let sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", smil, "--output", "headless", "--size", "320x180", "--no-state",
                                 "--input-ipc-server", sock, "--log-level", "info"])
        XCTAssertTrue(p.waitFor("first frame presented", timeout: 30), p.stderr)
        let c = try IPCConnection(path: sock)
        XCTAssertEqual(try c.get("kiosk-layout"), .string(smil))
        XCTAssertEqual(region("side", in: try c.get("kiosk-regions"))["src"], .string("c.png"))
        XCTAssertEqual(region("side", in: try c.get("kiosk-regions"))["filename"], .string(dir.file("c.png")))
        // main: a.png in the first second of each 2 s pass, b.png in the second
        XCTAssertTrue(try eventually(5) { region("main", in: try c.get("kiosk-regions"))["src"] == .string("b.png") })
        XCTAssertTrue(try eventually(5) { region("main", in: try c.get("kiosk-regions"))["src"] == .string("a.png") },
                      "the layout starts again after its 2 s body")
        // the screenshot is the frame drawn next, the layout's: held against ffmpeg's screen with a.png or b.png
        let shot = dir.file("shot.png")
        XCTAssertEqual(try c.request(#"["screenshot-to-file","\#(shot)"]"#)["error"], .string("success"))
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", shot, "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        let got = RGBAImage(size: PixelSize(width: 320, height: 180), pixels: [UInt8](data))
        let best = max(RenderTestSupport.psnr(got, try reference(dir, main: "a")), RenderTestSupport.psnr(got, try reference(dir, main: "b")))
        XCTAssertGreaterThan(best, 30, "the screenshot against ffmpeg's composition: \(best) dB")
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }

    /// A remote's `loadfile x.smil` plays the layout in place of the playlist; loading a picture again ends it.
    /// With `--media-root`, a medium of the loaded layout outside the root does not play (one line; its region
    /// shows the background), as the gate refuses such a file itself.
    func testARemoteLoadsALayoutAndLeavesIt() throws {
        let dir = try TempDir()
        let root = dir.file("root")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let smil = try makeLayout(in: root, body: """
            <par><img src="a.png" region="main" dur="indefinite"/><img src="../outside.png" region="side" dur="indefinite"/></par>
            """)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=64x64", "-frames:v", "1", dir.file("outside.png")])
        let sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", root + "/b.png", "--output", "headless", "--size", "320x180", "--no-state",
                                 "--no-watch", "--media-root", root, "--input-ipc-server", sock, "--log-level", "info"])
        XCTAssertTrue(p.waitFor("first frame presented", timeout: 30), p.stderr)
        let c = try IPCConnection(path: sock)
        XCTAssertEqual(try c.request(#"["get_property","kiosk-layout"]"#)["error"], .string("property unavailable"))
        XCTAssertEqual(try c.request(#"["loadfile","\#(smil)"]"#)["error"], .string("success"))
        XCTAssertTrue(try eventually(5) { try c.get("kiosk-layout") == .string(smil) }, p.stderr)
        XCTAssertTrue(p.waitFor("outside --media-root", timeout: 10), p.stderr)
        XCTAssertEqual(p.stderr.components(separatedBy: "outside --media-root").count - 1, 1, "one line: \(p.stderr)")
        XCTAssertTrue(try eventually(5) { region("main", in: try c.get("kiosk-regions"))["filename"] == .string(root + "/a.png") })
        // side: the refused medium has no file; the screen shows the root's background there, not the red picture
        XCTAssertNil(region("side", in: try c.get("kiosk-regions"))["filename"])
        let shot = dir.file("shot.png")
        XCTAssertEqual(try c.request(#"["screenshot-to-file","\#(root)/shot.png"]"#)["error"], .string("success"), p.stderr)
        try FileManager.default.moveItem(atPath: root + "/shot.png", toPath: shot)
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", shot, "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        let px = (90 * 320 + 260) * 4
        XCTAssertEqual(Array([UInt8](data)[px..<px + 4]), [0x20, 0x30, 0x40, 255], "side shows the root's background")
        // a picture replacing the playlist ends the layout
        XCTAssertEqual(try c.request(#"["loadfile","\#(root + "/b.png")"]"#)["error"], .string("success"))
        XCTAssertTrue(try eventually(5) {
            try c.request(#"["get_property","kiosk-layout"]"#)["error"] == .string("property unavailable")
        }, p.stderr)
        // the line is read from kiosk's stderr while it runs: it may come in just after the reply
        XCTAssertTrue(p.waitFor("ends: the playlist plays again", timeout: 5), p.stderr)
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }

    /// `playlist-next REGION` moves that region on by itself; without a region it means the first; a region the
    /// layout does not have is refused.
    func testPlaylistNextStepsOneRegion() throws {
        let dir = try TempDir()
        let smil = try makeLayout(in: dir.path, body: """
            <par><seq><img src="a.png" region="main" dur="20s"/><img src="b.png" region="main" dur="20s"/></seq>
            <img src="c.png" region="side" dur="40s"/></par>
            """)
        let sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", smil, "--output", "headless", "--size", "320x180", "--no-state",
                                 "--input-ipc-server", sock, "--log-level", "info"])
        XCTAssertTrue(p.waitFor("first frame presented", timeout: 30), p.stderr)
        let c = try IPCConnection(path: sock)
        XCTAssertEqual(region("main", in: try c.get("kiosk-regions"))["src"], .string("a.png"))
        XCTAssertEqual(try c.request(#"["playlist-next","main"]"#)["error"], .string("success"))
        XCTAssertTrue(try eventually(5) { region("main", in: try c.get("kiosk-regions"))["src"] == .string("b.png") }, p.stderr)
        XCTAssertEqual(region("side", in: try c.get("kiosk-regions"))["src"], .string("c.png"), "side goes on as it was")
        XCTAssertEqual(try c.request(#"["playlist-prev"]"#)["error"], .string("success"), "the first region: main")
        XCTAssertTrue(try eventually(5) { region("main", in: try c.get("kiosk-regions"))["src"] == .string("a.png") }, p.stderr)
        XCTAssertNotEqual(try c.request(#"["playlist-next","nosuch"]"#)["error"], .string("success"))
        XCTAssertTrue(p.waitFor("layout: region main: next medium", timeout: 5), p.stderr)  // read from stderr while kiosk runs
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }

    /// A layout as a playlist item: one pass of its body (2 s), then the next item; `playlist-next` during it
    /// leaves it for the next item (not a region's step).
    func testALayoutInAPlaylistPlaysOnePassAndNextLeavesIt() throws {
        let dir = try TempDir()
        let smil = try makeLayout(in: dir.path)
        let m3u = dir.file("list.m3u")
        try "two.smil\na.png\n".write(toFile: m3u, atomically: true, encoding: .utf8)
        let sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", m3u, "--output", "headless", "--size", "320x180", "--no-state", "--duration", "30",
                                 "--transition", "none", "--input-ipc-server", sock, "--log-level", "info"])
        XCTAssertTrue(p.waitFor("layout: \(smil): 2 regions", timeout: 30), p.stderr)
        XCTAssertTrue(p.waitFor("ends: the playlist goes on", timeout: 10), p.stderr)
        XCTAssertTrue(p.waitFor("showing \(dir.file("a.png"))", timeout: 10), p.stderr)
        let c = try IPCConnection(path: sock)
        XCTAssertEqual(try c.request(#"["playlist-prev"]"#)["error"], .string("success"))
        XCTAssertTrue(p.waitFor("layout: \(smil): 2 regions", count: 2, timeout: 10), p.stderr)
        XCTAssertEqual(try c.request(#"["playlist-next"]"#)["error"], .string("success"))
        XCTAssertTrue(p.waitFor("ends: the next item", timeout: 10), p.stderr)
        XCTAssertTrue(p.waitFor("showing \(dir.file("a.png"))", count: 2, timeout: 10), p.stderr)
        p.send(SIGTERM)
        XCTAssertEqual(p.finish(timeout: 20).status, 0, p.stderr)
    }
}
