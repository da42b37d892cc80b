import Foundation
import KioskCore
import XCTest

/// `kiosk snapshot` and `kiosk record` of several screens (issue 40), through the real binary, against references
/// ffmpeg composes: one file per screen at its own size; a span's parts are its picture scaled across the whole
/// canvas (the bezel between them hidden) and cut, as ffmpeg's `scale,crop` cuts them; `--side-by-side` is the
/// per-screen pictures as ffmpeg's `pad,hstack` lays them; a recording per screen (a mirror's per output) with
/// ffprobe's frame count and size, and a span's recording cut into its panels as ffmpeg cuts its canvas.
final class ScreenJobsTests: XCTestCase {
    private func photo(_ dir: TempDir, _ name: String, _ source: String) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", source, "-frames:v", "1", path])
        return path
    }

    func testSnapshotWritesEachScreenAndCutsASpanAsFFmpegDoes() throws {
        let dir = try TempDir()
        let a = try photo(dir, "a.png", "testsrc2=size=320x240")
        let w = try photo(dir, "w.png", "mandelbrot=size=400x100")
        let conf = dir.file("kiosk.conf")
        try "fit = fill\nsize = 64x36\n[screen door]\nsize = 48x48\n".write(toFile: conf, atomically: true, encoding: .utf8)
        let out = dir.file("shot.png")
        let r = try CLITests.run(["snapshot", "--config", conf, "--screen", "door:HDMI-A-1:\(a)", "--screen", "wall:DP-1+DP-2:\(w)",
                                  "--bezel", "8", "--output", out], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let door = dir.file("shot-door.png"), left = dir.file("shot-wall-DP-1.png"), right = dir.file("shot-wall-DP-2.png")
        for f in [door, left, right] { XCTAssertTrue(FileManager.default.fileExists(atPath: f), f) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "one file per output, none at OUT itself")
        let part = PixelSize(width: 64, height: 36)
        // the span's canvas: two 64 px panels and the 8 px bezel, 136x36, the picture filling it
        let refLeft = try FFmpegCLI.referenceRGBA(w, size: part, filter: "scale=136:36:flags=bicubic,crop=64:36:0:0")
        let refRight = try FFmpegCLI.referenceRGBA(w, size: part, filter: "scale=136:36:flags=bicubic,crop=64:36:72:0")
        let gotLeft = try FFmpegCLI.referenceRGBA(left, size: part), gotRight = try FFmpegCLI.referenceRGBA(right, size: part)
        XCTAssertGreaterThan(RenderTestSupport.psnr(gotLeft, refLeft), 28, "DP-1 shows the canvas's left 64 px")
        XCTAssertGreaterThan(RenderTestSupport.psnr(gotRight, refRight), 28, "DP-2 shows the part right of the bezel")
        XCTAssertLessThan(RenderTestSupport.psnr(gotRight, try FFmpegCLI.referenceRGBA(w, size: part, filter: "scale=128:36:flags=bicubic,crop=64:36:64:0")),
                          RenderTestSupport.psnr(gotRight, refRight), "the bezel's 8 px are skipped, not shown")
        let refDoor = try FFmpegCLI.referenceRGBA(a, size: PixelSize(width: 48, height: 48))
        XCTAssertGreaterThan(RenderTestSupport.psnr(try FFmpegCLI.referenceRGBA(door, size: PixelSize(width: 48, height: 48)), refDoor), 28,
                             "screen door at its section's 48x48")
        XCTAssertEqual(try FFmpegCLI.probe(door, "stream=width,height").description, "48")

        // side by side: the three outputs left to right, top-aligned on black, as ffmpeg pads and stacks them
        let both = dir.file("both.png")
        let s = try CLITests.run(["snapshot", "--config", conf, "--screen", "door:HDMI-A-1:\(a)", "--screen", "wall:DP-1+DP-2:\(w)",
                                  "--bezel", "8", "--side-by-side", "--output", both], timeout: 60)
        XCTAssertEqual(s.status, 0, s.stderr)
        let size = PixelSize(width: 48 + 64 + 64, height: 48)
        let stacked = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", door, "-i", left, "-i", right, "-filter_complex",
                                                  "[1]pad=64:48:0:0:black[l];[2]pad=64:48:0:0:black[r];[0][l][r]hstack=3,format=rgba",
                                                  "-frames:v", "1", "-f", "rawvideo", "-"])
        XCTAssertEqual(try FFmpegCLI.referenceRGBA(both, size: size).pixels, [UInt8](stacked), "pixel for pixel ffmpeg's hstack")
    }

    func testRecordWritesEachScreenAndEachMirroredOutput() throws {
        let dir = try TempDir()
        let a = try photo(dir, "a.png", "gradients=size=320x240:seed=7,format=rgb24")  // smooth: H.264 at 64x36 keeps it
        let clip = dir.file("clip.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-t", "2", "-c:v", "libx264", "-bf", "2",
                              "-pix_fmt", "yuv420p", clip])
        let out = dir.file("rec.mp4")
        let r = try CLITests.run(["record", "--screen", "door:HDMI-A-1:\(a)", "--screen", "menu:HDMI-A-2,HDMI-A-3:\(clip)",
                                  "--size", "64x36", "--fit", "fill", "--fps", "10", "--length", "1", "--output", out], timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        for f in ["rec-door.mp4", "rec-menu-HDMI-A-2.mp4", "rec-menu-HDMI-A-3.mp4"] {
            let path = dir.file(f)
            XCTAssertEqual(try FFmpegCLI.probe(path, "stream=nb_read_frames", countFrames: true), "10", f)
            XCTAssertEqual(try FFmpegCLI.probe(path, "stream=width"), "64", f)
        }
        // the clip's screen shows the clip, the picture's screen the picture (last frames against each other)
        let size = PixelSize(width: 64, height: 36)
        let door = try FFmpegCLI.referenceFrames(dir.file("rec-door.mp4"), size: size)
        let menu = try FFmpegCLI.referenceFrames(dir.file("rec-menu-HDMI-A-2.mp4"), size: size)
        XCTAssertGreaterThan(RenderTestSupport.psnr(try XCTUnwrap(door.last), try FFmpegCLI.referenceRGBA(a, size: size)), 25)
        XCTAssertLessThan(RenderTestSupport.psnr(try XCTUnwrap(menu.last), try XCTUnwrap(door.last)), 20, "each screen its own")

    }

    func testRecordOfASpanWritesEachPanelItsPartOfTheCanvas() throws {
        let dir = try TempDir()
        let w = try photo(dir, "w.png", "gradients=size=400x100:seed=3,format=rgb24")
        let out = dir.file("rec.mp4")
        let r = try CLITests.run(["record", "--screen", "wall:DP-1+DP-2:\(w)", "--bezel", "8", "--size", "64x36", "--fit", "fill",
                                  "--fps", "10", "--length", "1", "--output", out], timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "one file per panel, none at OUT itself")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("rec-wall.mp4")), "no file of the whole canvas")
        let part = PixelSize(width: 64, height: 36)
        // the canvas is two 64 px panels and the 8 px bezel, 136x36, the picture filling it, as ffmpeg scales and cuts it
        let cuts = ["DP-1": "crop=64:36:0:0", "DP-2": "crop=64:36:72:0"]
        for (connector, crop) in cuts {
            let file = dir.file("rec-wall-\(connector).mp4")
            XCTAssertEqual(try FFmpegCLI.probe(file, "stream=nb_read_frames", countFrames: true), "10", file)
            XCTAssertEqual(try FFmpegCLI.probe(file, "stream=width"), "64", file)
            let last = try XCTUnwrap(try FFmpegCLI.referenceFrames(file, size: part).last)
            let own = try FFmpegCLI.referenceRGBA(w, size: part, filter: "scale=136:36:flags=bicubic," + crop)
            XCTAssertGreaterThan(RenderTestSupport.psnr(last, own), 25, "\(connector) shows its part of the canvas")
            let other = try FFmpegCLI.referenceRGBA(w, size: part, filter: "scale=136:36:flags=bicubic," + (cuts.first { $0.key != connector }?.value ?? ""))
            XCTAssertLessThan(RenderTestSupport.psnr(last, other), RenderTestSupport.psnr(last, own) - 3, "\(connector) is not the other panel's part")
        }
    }
}
