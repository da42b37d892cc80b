import Foundation
import KioskCore
import XCTest

/// The `kiosk` command end to end: the built binary, real files made with ffmpeg, real shaders on llvmpipe,
/// checked against ffmpeg's scaler and ffprobe.
final class CLITests: XCTestCase {
    /// The `kiosk` binary next to the test bundle.
    static var kiosk: String {
        let dir = URL(fileURLWithPath: CommandLine.arguments.first { $0.hasSuffix(".xctest") } ?? CommandLine.arguments[0])
            .deletingLastPathComponent()
        return dir.appendingPathComponent("kiosk").path
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var seconds: Double
    }

    /// Runs kiosk with a time bound; a hang fails the test instead of hanging the suite.
    @discardableResult
    func kiosk(_ args: [String], timeout: Double = 60, environment: [String: String] = [:]) throws -> Run {
        try Self.run(args, timeout: timeout, environment: environment)
    }

    /// Runs the kiosk binary (software GL), bounded in time: a hang fails the test instead of hanging the suite.
    /// stdout and stderr are read while it runs, so any amount of output is fine. `directory` is its working
    /// folder; `sample`, when given, is called with the child's pid about every 50 ms while it runs (to read /proc).
    static func run(_ args: [String], timeout: Double, environment: [String: String] = [:],
                    directory: String? = nil, sample: ((Int32) -> Void)? = nil,
                    file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        let r = try BoundedProcess.run(kiosk, args, environment: environment.merging(["LIBGL_ALWAYS_SOFTWARE": "1"]) { a, _ in a },
                                       timeout: timeout, directory: directory, sample: sample, file: file, line: line)
        return Run(status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self),
                   stderr: String(decoding: r.stderr, as: UTF8.self), seconds: r.seconds)
    }

    /// A smooth picture (blurred test pattern) of `size` as a lossless PNG.
    func picture(_ dir: TempDir, _ name: String, size: String, hue: Int = 0) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size),gblur=sigma=2,hue=h=\(hue)", "-frames:v", "1", path])
        return path
    }

    /// Decodes a PNG written by kiosk with ffmpeg (an outside decoder) into RGBA.
    func load(_ png: String, _ size: PixelSize) throws -> RGBAImage {
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", png, "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        return RGBAImage(size: size, pixels: [UInt8](data))
    }

    // MARK: snapshot

    func testSnapshotFitModesMatchFFmpegScaler() throws {
        let dir = try TempDir()
        let src = try picture(dir, "src.png", size: "800x600")
        let cases: [(FitMode, PixelSize, String)] = [
            (.contain, PixelSize(width: 400, height: 400), "scale=400:300:flags=bicubic,pad=400:400:0:50:color=0x102030"),
            (.cover, PixelSize(width: 300, height: 450), "scale=600:450:flags=bicubic,crop=300:450:150:0"),
            (.fill, PixelSize(width: 500, height: 250), "scale=500:250:flags=bicubic"),
        ]
        for (fit, size, filter) in cases {
            let out = dir.file("snap-\(fit).png")
            let r = try kiosk(["snapshot", src, "--output", out, "--size", size.description, "--fit", fit.rawValue,
                               "--background", "#102030"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(try FFmpegCLI.probe(out, "stream=width"), String(size.width))
            XCTAssertEqual(try FFmpegCLI.probe(out, "stream=height"), String(size.height))
            let ours = try load(out, size)
            let ref = RGBAImage(size: size, pixels: [UInt8](try FFmpegCLI.run("ffmpeg", [
                "-v", "error", "-nostdin", "-i", src, "-vf", filter, "-pix_fmt", "rgba", "-f", "rawvideo", "-"])))
            let psnr = ImageCompare.psnr(ours, ref)
            XCTAssertGreaterThanOrEqual(psnr, 30, "\(fit): PSNR \(psnr) dB against ffmpeg's scaler")
        }
    }

    func testSnapshotAppliesAllExifOrientations() throws {
        let dir = try TempDir()
        let stored = dir.file("stored.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240,gblur=sigma=1.5", "-frames:v", "1", "-q:v", "2", stored])
        let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: stored)))
        for orientation in 1...8 {
            let path = dir.file("o\(orientation).jpg")
            try Data(MediaOrientationTests.withOrientation(jpeg, orientation)).write(to: URL(fileURLWithPath: path))
            let size = orientation >= 5 ? PixelSize(width: 240, height: 320) : PixelSize(width: 320, height: 240)
            let out = dir.file("o\(orientation).png")
            let r = try kiosk(["snapshot", path, "--output", out, "--size", size.description, "--fit", "fill"])
            XCTAssertEqual(r.status, 0, r.stderr)
            var vf = "scale=\(size.width):\(size.height)"
            if let f = MediaOrientationTests.filters[orientation], let f { vf = f + "," + vf }
            let ref = RGBAImage(size: size, pixels: [UInt8](try FFmpegCLI.run("ffmpeg", [
                "-v", "error", "-nostdin", "-i", stored, "-vf", vf, "-pix_fmt", "rgba", "-f", "rawvideo", "-"])))
            let psnr = ImageCompare.psnr(try load(out, size), ref)
            XCTAssertGreaterThanOrEqual(psnr, 30, "orientation \(orientation): PSNR \(psnr)")
        }
    }

    func testSnapshotZoomAndCenterShowTheRightQuarter() throws {
        let dir = try TempDir()
        let src = try picture(dir, "src.png", size: "400x300")
        let out = dir.file("zoom.png")
        // zoom 2 about the top-left corner: clamped so the canvas shows exactly the top-left quarter
        let r = try kiosk(["snapshot", src, "--output", out, "--size", "400x300", "--zoom", "2", "--center", "0,0"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let ref = RGBAImage(size: PixelSize(width: 400, height: 300), pixels: [UInt8](try FFmpegCLI.run("ffmpeg", [
            "-v", "error", "-nostdin", "-i", src, "-vf", "crop=200:150:0:0,scale=400:300:flags=bicubic", "-pix_fmt", "rgba", "-f", "rawvideo", "-"])))
        XCTAssertGreaterThanOrEqual(ImageCompare.psnr(try load(out, PixelSize(width: 400, height: 300)), ref), 30)
    }

    func testSnapshotAtPicksTheAnimationFrame() throws {
        let dir = try TempDir()
        let gif = dir.file("a.gif")
        // 4 frames, 0.25 s each: solid red, green, blue, white
        for (i, c) in ["red", "lime", "blue", "white"].enumerated() {
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=\(c):size=32x32", "-frames:v", "1", dir.file("f\(i + 1).png")])
        }
        try FFmpegCLI.ffmpeg(["-framerate", "4", "-i", dir.file("f%d.png"), "-loop", "0", gif])
        let expected: [(Double, [UInt8])] = [(0.1, [255, 0, 0]), (0.3, [0, 255, 0]), (0.6, [0, 0, 255]), (0.9, [255, 255, 255]), (1.1, [255, 0, 0])]
        for (at, rgb) in expected {
            let out = dir.file("f\(at).png")
            XCTAssertEqual(try kiosk(["snapshot", gif, "--output", out, "--size", "32x32", "--at", String(at)]).status, 0)
            let img = try load(out, PixelSize(width: 32, height: 32))
            let px = Array(img.pixels[(16 * 32 + 16) * 4..<(16 * 32 + 16) * 4 + 3])
            for c in 0..<3 { XCTAssertEqual(Double(px[c]), Double(rgb[c]), accuracy: 8, "at \(at): \(px)") }
        }
    }

    // MARK: probe

    func testProbeReportsFieldsAndErrors() throws {
        let dir = try TempDir()
        let png = try picture(dir, "p.png", size: "64x48")
        let gif = dir.file("g.gif")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=40x30:rate=10:duration=0.5", "-loop", "0", gif])
        let bad = dir.file("bad.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).write(to: URL(fileURLWithPath: bad))
        let r = try kiosk(["probe", png, gif, bad])
        XCTAssertEqual(r.status, 1, "an error in any file exits 1")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3)
        let objs = try lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertEqual(objs[0]["kind"] as? String, "image")
        XCTAssertEqual(objs[0]["width"] as? Int, 64)
        XCTAssertEqual(objs[0]["height"] as? Int, 48)
        XCTAssertEqual(objs[0]["orientation"] as? Int, 1)
        XCTAssertEqual(objs[1]["kind"] as? String, "animation")
        XCTAssertEqual(objs[1]["frames"] as? Int, 5)
        XCTAssertEqual(objs[1]["duration"] as? Double, 0.5)
        XCTAssertEqual(objs[1]["loops"] as? Int, 0)
        XCTAssertEqual(objs[2]["path"] as? String, bad)
        XCTAssertNotNil(objs[2]["error"] as? String)
        XCTAssertNil(objs[2]["kind"])
        XCTAssertEqual(try kiosk(["probe", png]).status, 0)
    }

    // MARK: record

    func testRecordDurationsMatchTheSchedule() throws {
        let dir = try TempDir()
        for i in 0..<3 { _ = try picture(dir, "s\(i).png", size: "160x120", hue: i * 90) }
        let out = dir.file("three.mp4")
        let r = try kiosk(["record", dir.path, "--output", out, "--size", "160x120", "--fps", "10", "--duration", "1.5", "--no-loop"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(Double(try FFmpegCLI.probe(out, "format=duration")) ?? 0, 4.5, accuracy: 0.001)
        XCTAssertEqual(try FFmpegCLI.probe(out, "stream=nb_frames"), "45")

        // an animation of 0.7 s loops with --duration 1 plays two whole loops: 1.4 s
        let gif = dir.file("anim/a.gif")
        try FileManager.default.createDirectory(atPath: dir.file("anim"), withIntermediateDirectories: true)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=40x30:rate=10:duration=0.7", "-loop", "0", gif])
        let y4m = dir.file("anim.y4m")
        let a = try kiosk(["record", gif, "--output", y4m, "--size", "40x30", "--fps", "10", "--duration", "1", "--no-loop"])
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertEqual(try FFmpegCLI.probe(y4m, "stream=nb_read_frames", countFrames: true), "14")

        // --length cuts a looping slideshow
        let cut = dir.file("cut.mp4")
        XCTAssertEqual(try kiosk(["record", dir.path, "--output", cut, "--size", "160x120", "--fps", "10", "--length", "2"]).status, 0)
        XCTAssertEqual(Double(try FFmpegCLI.probe(cut, "format=duration")) ?? 0, 2, accuracy: 0.001)
    }

    func testRecordedCrossfadeBlendsMidway() throws {
        let dir = try TempDir()
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=black:size=32x32", "-frames:v", "1", dir.file("a.png")])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=white:size=32x32", "-frames:v", "1", dir.file("b.png")])
        let y4m = dir.file("x.y4m")
        let r = try kiosk(["record", dir.path, "--output", y4m, "--size", "32x32", "--fps", "10", "--duration", "2",
                           "--transition-time", "1", "--no-loop"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // frame 25 is t = 2.5 s: half way through the fade from black to white
        let data = [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-i", y4m, "-vf", "select=eq(n\\,25)", "-frames:v", "1",
                                                        "-pix_fmt", "gray", "-f", "rawvideo", "-"]))
        XCTAssertEqual(Double(data[16 * 32 + 16]), 128, accuracy: 12)
    }

    // MARK: play and bad input

    func testPlaySkipsBadFilesAndGoesOn() throws {
        let dir = try TempDir()
        _ = try picture(dir, "1-good.png", size: "64x48")
        try Data().write(to: URL(fileURLWithPath: dir.file("2-empty.jpg")))
        let good = try Data(contentsOf: URL(fileURLWithPath: try picture(dir, "full.png", size: "64x48")))
        try good.prefix(good.count / 2).write(to: URL(fileURLWithPath: dir.file("3-truncated.png")))
        try FileManager.default.removeItem(atPath: dir.file("full.png"))
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }).write(to: URL(fileURLWithPath: dir.file("4-random.gif")))
        try "not a picture".write(toFile: dir.file("5-text.mp4"), atomically: true, encoding: .utf8)
        _ = try picture(dir, "6-good.png", size: "64x48", hue: 120)
        let r = try kiosk(["play", dir.path, "--size", "64x48", "--duration", "0.3", "--no-loop", "--transition", "none", "--log-level", "info"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for bad in ["2-empty.jpg", "3-truncated.png", "4-random.gif", "5-text.mp4"] {
            let lines = r.stderr.split(separator: "\n").filter { $0.contains(bad) }
            XCTAssertEqual(lines.count, 1, "one line for \(bad): \(r.stderr)")
            XCTAssertTrue(lines.first?.contains("skipped") ?? false, "\(lines)")
        }
        XCTAssertTrue(r.stderr.contains("showing \(dir.file("6-good.png"))"), "the slideshow went on to the last good file")
    }

    func testNothingPlayableExitsOne() throws {
        let dir = try TempDir()
        try Data().write(to: URL(fileURLWithPath: dir.file("empty.png")))
        try "x".write(toFile: dir.file("bad.jpg"), atomically: true, encoding: .utf8)
        let r = try kiosk(["play", dir.path, "--size", "64x48", "--no-watch"])  // a watched folder waits for more
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("nothing playable"), r.stderr)
        let none = try kiosk(["play", dir.file("missing-folder")])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("missing-folder"), none.stderr)
    }

    func testAnEmptyPlaylistWithAnIdleImageIdlesInsteadOfExiting() throws {
        let dir = try TempDir()
        try FileManager.default.createDirectory(atPath: dir.file("empty"), withIntermediateDirectories: true)
        let idle = try picture(dir, "idle.png", size: "64x48")
        let r = try kiosk(["play", dir.file("empty"), "--output", "headless", "--size", "64x48", "--idle-image", idle,
                           "--length", "1", "--log-level", "info"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("idle: nothing to play; waiting for items"), r.stderr)
        XCTAssertFalse(r.stderr.contains("nothing playable"), r.stderr)
        let broken = try kiosk(["play", dir.file("empty"), "--output", "headless", "--size", "64x48",
                                "--idle-image", dir.file("no-such.png"), "--length", "0.5"])
        XCTAssertEqual(broken.status, 0, broken.stderr)
        let lines = broken.stderr.split(separator: "\n").filter { $0.contains("no-such.png") }
        XCTAssertEqual(lines.count, 1, broken.stderr)
        XCTAssertTrue(lines.first?.hasPrefix("kiosk: warn: --idle-image: ") ?? false, "\(lines)")
    }

    /// A FIFO with no writer named like a picture (opening it would block forever) is refused before any open or
    /// read, with one line naming it, and the show goes on. A read that really blocks: StuckReadTests.
    func testAFIFOIsRefusedBeforeAnyOpenAndTheShowGoesOn() throws {
        let dir = try TempDir()
        _ = try picture(dir, "b.png", size: "64x48")
        XCTAssertEqual(mkfifo(dir.file("a-stuck.jpg"), 0o644), 0)
        let r = try kiosk(["play", dir.path, "--size", "64x48", "--duration", "0.3", "--no-loop", "--decode-timeout", "20",
                           "--log-level", "info"], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr.split(separator: "\n").filter { $0.hasSuffix("a-stuck.jpg: not a regular file (a FIFO); skipped") }.count,
                       1, r.stderr)
        XCTAssertTrue(r.stderr.contains("showing \(dir.file("b.png"))"), r.stderr)
        XCTAssertFalse(r.stderr.contains("decode took longer"), "refused at once, not waited out: \(r.stderr)")
    }

    func testOutputPastThePipeBufferIsReadWhileKioskRuns() throws {
        // 3,000 missing files: one warning each, about 250 KiB on stderr, far past the 64 KiB a pipe holds. A test that
        // reads only after exit deadlocks here (kiosk blocks writing, the test waits for the exit) until its timeout.
        let dir = try TempDir()
        let png = try picture(dir, "z.png", size: "32x24")
        let missing = (0..<3000).map { dir.file(String(format: "missing-%05d-with-a-longer-name-for-the-warning.png", $0)) }
        let list = dir.file("list.m3u")
        try (missing + [png]).joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let r = try kiosk(["play", list, "--output", "headless", "--size", "32x24", "--duration", "0.1", "--no-loop",
                           "--log-level", "info"], timeout: 60)
        XCTAssertEqual(r.status, 0, String(r.stderr.suffix(500)))
        XCTAssertGreaterThan(r.stderr.utf8.count, 65_536, "the case must overflow a pipe to test anything")
        XCTAssertTrue(r.stderr.contains("missing-02999"), String(r.stderr.suffix(500)))
        XCTAssertTrue(r.stderr.contains("showing \(png)"), String(r.stderr.suffix(500)))
    }

    func testAFolderRemovedWhilePlayingGoesOnWithWhatIsDecodedOneLinePerMissingFile() throws {
        let dir = try TempDir()
        let media = dir.file("media")
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        for (name, hue) in [("a.png", 0), ("b.png", 120), ("c.png", 240)] {
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48,hue=h=\(hue)", "-frames:v", "1", media + "/" + name])
        }
        // The folder goes as soon as b is showing (seen on stderr while kiosk runs); kiosk plays 5 s more.
        final class Removal: @unchecked Sendable {
            let lock = NSLock()
            var done = false
        }
        let removal = Removal()
        let r = try BoundedProcess.run(CLITests.kiosk, ["play", media, "--output", "headless", "--size", "64x48",
                                                        "--duration", "0.5", "--transition", "none", "--length", "6",
                                                        "--log-level", "info", "--no-watch"],  // watched, its items leave
                                       environment: ["LIBGL_ALWAYS_SOFTWARE": "1"], timeout: 60) { text in
            guard String(decoding: text, as: UTF8.self).contains("showing \(media)/b.png") else { return }
            removal.lock.lock(); defer { removal.lock.unlock() }
            guard !removal.done else { return }
            removal.done = true
            try? FileManager.default.removeItem(atPath: media)  // asserted below: the folder is gone
        }
        let err = String(decoding: r.stderr, as: UTF8.self)
        XCTAssertTrue(removal.lock.withLock { removal.done }, "b never showed: \(err)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: media))
        XCTAssertEqual(r.status, 0, err)
        let lines = err.split(separator: "\n").map(String.init)
        let missing = lines.filter { $0.contains(": no such file") }
        XCTAssertFalse(missing.isEmpty, err)
        XCTAssertEqual(missing.count, Set(missing).count, "one line per missing file: \(missing)")
        let afterRemoval = lines.drop { !$0.contains("showing \(media)/b.png") }.dropFirst()
        XCTAssertGreaterThan(afterRemoval.filter { $0.contains("showing ") }.count, 2, "the slideshow went on: \(err)")
    }

    func testBadFlagsExitTwoNamingTheFlag() throws {
        let cases: [([String], String)] = [
            (["play", "--duration", "soon"], "--duration"),
            (["play", "--fit", "squash"], "--fit"),
            (["play", "--wobble"], "--wobble"),
            (["play", "--size", "0x10"], "--size"),
            (["play", "--background", "#12345"], "--background"),
            (["snapshot", "a.png", "--size", "10x10"], "--output"),
            (["snapshot", "--output", "x.png"], "INPUT"),
            (["snapshot", "a.png", "--output", "x.png", "--zoom", "5"], "--zoom"),
            (["record", "--output", "x.gif"], "--output"),
            (["record", "--fps", "0", "--output", "x.mp4"], "--fps"),
            (["probe"], "FILE"),
            (["dance"], "dance"),
        ]
        for (args, flag) in cases {
            let r = try kiosk(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(args): one line: \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(flag), "\(args) names \(flag): \(r.stderr)")
        }
        for cmd in ["play", "record", "snapshot", "probe"] {
            let h = try kiosk([cmd, "--help"])
            XCTAssertEqual(h.status, 0)
            XCTAssertTrue(h.stdout.contains("usage: kiosk \(cmd)"), h.stdout)
        }
    }

    func testSnapshotOfBadFileIsOneLineExitOne() throws {
        let dir = try TempDir()
        try "junk".write(toFile: dir.file("x.png"), atomically: true, encoding: .utf8)
        let r = try kiosk(["snapshot", dir.file("x.png"), "--output", dir.file("o.png"), "--size", "32x32"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains(dir.file("x.png")), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("o.png")))
    }

    func testDemoPlaysFromTheSourceTree() throws {
        let dir = try TempDir()
        let out = dir.file("demo.mp4")
        let r = try kiosk(["record", "--output", out, "--size", "320x180", "--fps", "5", "--log-level", "info"], timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        let playlist = try String(contentsOf: DemoTourTests.root.appendingPathComponent("Kiosk/demo/demo.m3u"), encoding: .utf8)
        let names = playlist.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init)
        XCTAssertGreaterThanOrEqual(names.count, 6, playlist)
        for name in names {
            XCTAssertTrue(r.stderr.contains("/" + name + " at "), "demo shows \(name)")
        }
        XCTAssertFalse(r.stderr.contains("skipped"), r.stderr)
    }
}

/// Ken Burns end to end: the recorded frames move, and the same seed records the same video.
extension CLITests {
    func testKenBurnsMovesAndRepeatsExactlyForASeed() throws {
        let dir = try TempDir()
        let src = try picture(dir, "p.png", size: "320x240")
        var outputs: [[UInt8]] = []
        for (i, seed) in ["5", "5", "6"].enumerated() {
            let y4m = dir.file("kb\(i).y4m")
            let r = try kiosk(["record", src, "--output", y4m, "--size", "160x120", "--fps", "5", "--duration", "2",
                                   "--no-loop", "--ken-burns", "--seed", seed])
            XCTAssertEqual(r.status, 0, r.stderr)
            outputs.append([UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-i", y4m, "-pix_fmt", "gray", "-f", "rawvideo", "-"])))
        }
        let frame = 160 * 120
        XCTAssertEqual(outputs[0].count, frame * 10)
        XCTAssertEqual(outputs[0], outputs[1], "same seed, same frames")
        XCTAssertNotEqual(outputs[0], outputs[2], "another seed, another path")
        let first = Array(outputs[0][0..<frame]), last = Array(outputs[0][(9 * frame)..<(10 * frame)])
        XCTAssertLessThan(ImageCompare.psnr(first, last), 40, "the view moved between the first and last frame")
    }
}
