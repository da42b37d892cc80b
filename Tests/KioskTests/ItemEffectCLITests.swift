import Foundation
import KioskCore
import XCTest

/// `#EXTKIOSK:effect=…`: an item's own picture effect while it shows, and the player's (none here) before and after
/// it: a recording's frames against `kiosk snapshot` of each item with and without the effect.
final class ItemEffectCLITests: XCTestCase {
    private let size = PixelSize(width: 160, height: 90)

    private func picture(_ dir: TempDir, _ name: String, _ source: String) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "\(source),scale=160:90", "-frames:v", "1", path])
        return path
    }

    private func snapshot(_ path: String, _ extra: [String], dir: TempDir, name: String) throws -> RGBAImage {
        let out = dir.file(name)
        let r = try CLITests.run(["snapshot", path, "--size", "160x90", "--output", out] + extra, timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try OverlayOCR.load(out, size: size)
    }

    func testAnItemsOwnEffectShowsWithItAndThePlayersComesBack() throws {
        let dir = try TempDir()
        let a = try picture(dir, "a.png", "testsrc2=size=320x180")
        let b = try picture(dir, "b.png", "mandelbrot=size=320x180")
        let c = try picture(dir, "c.png", "smptebars=size=320x180")
        try """
        #EXTM3U
        a.png
        #EXTKIOSK:effect=mosaic:tile=8:bar=0
        b.png
        c.png
        """.write(toFile: dir.file("list.m3u"), atomically: true, encoding: .utf8)
        let out = dir.file("rec.y4m")
        let r = try CLITests.run(["record", dir.file("list.m3u"), "--duration", "1", "--transition", "none", "--no-loop",
                                  "--no-overlays", "--size", "160x90", "--fps", "4", "--output", out, "--log-level", "info"],
                                 timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        let frames = try FFmpegCLI.referenceFrames(out, size: size)
        XCTAssertEqual(frames.count, 12, r.stderr)
        guard frames.count == 12 else { return }
        let plainB = try snapshot(b, [], dir: dir, name: "b.png")
        let mosaicB = try snapshot(b, ["--effect", "mosaic:tile=8:bar=0"], dir: dir, name: "b-mosaic.png")
        XCTAssertLessThan(ImageCompare.psnr(plainB, mosaicB), 30, "the effect changes the picture")
        // RGB only (alpha no longer pads it): 39.51 dB measured, less 0.5; the mosaic scores under 30.
        XCTAssertGreaterThan(ImageCompare.psnr(frames[2], try snapshot(a, [], dir: dir, name: "a-ref.png")), 39, "a: no effect")
        // The recording is 4:2:0: the mosaic's sharp coloured tile edges lose to chroma subsampling (about 29 dB);
        // what counts is that the frame is the mosaic, clearly nearer it than the plain picture.
        let toMosaic = ImageCompare.psnr(frames[6], mosaicB), toPlain = ImageCompare.psnr(frames[6], plainB)
        XCTAssertGreaterThan(toMosaic, 27, "b: its own effect")
        XCTAssertGreaterThan(toMosaic, toPlain + 4, "b: nearer the mosaic (\(toMosaic) dB) than plain b (\(toPlain) dB)")
        XCTAssertGreaterThan(ImageCompare.psnr(frames[10], try snapshot(c, [], dir: dir, name: "c-ref.png")), 40,
                             "c: the player's effect (none) is back")
    }

    func testABadEffectInAPlaylistIsOneLineAndTheItemShowsWithoutIt() throws {
        let dir = try TempDir()
        _ = try picture(dir, "a.png", "testsrc2=size=320x180")
        try "#EXTKIOSK:effect=mosaic:tile=zero\na.png\n".write(toFile: dir.file("list.m3u"), atomically: true, encoding: .utf8)
        let r = try CLITests.run(["record", dir.file("list.m3u"), "--duration", "1", "--transition", "none", "--no-loop",
                                  "--size", "160x90", "--fps", "4", "--output", dir.file("rec.y4m")], timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("effect=mosaic:tile=zero") }
        XCTAssertEqual(lines.count, 1, r.stderr)
        XCTAssertTrue(lines.first?.contains("a.png") ?? false, r.stderr)
    }
}
