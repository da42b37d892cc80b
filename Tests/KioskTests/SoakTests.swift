import Foundation
import KioskCore
@testable import KioskPlayer
import XCTest

/// The soak (issue 10, finding 8): many item changes on a virtual clock through the real decoders and renderer,
/// mixing stills, GIF, WebP, APNG, short clips with sound and a sound file. Resident memory must not grow after the
/// warm-up (≤ 2 %), and every texture, program and framebuffer must be given back. The full 10,000 changes run
/// in `kiosk-bench soak`; this test runs `KIOSK_SOAK_TRANSITIONS` (default 7,000: 10,000 took 142 s on this 2-core machine, over the two minutes a test may take).
final class SoakTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    /// One small file of each kind, made with ffmpeg.
    static func mixedFiles(_ dir: TempDir) throws -> [String] {
        let src = ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=10"]
        let still = dir.file("a.png"), jpeg = dir.file("b.jpg"), gif = dir.file("c.gif"), webp = dir.file("d.webp")
        let apng = dir.file("e.apng"), clip = dir.file("f.mp4"), sound = dir.file("g.wav")
        try FFmpegCLI.ffmpeg(src + ["-frames:v", "1", still])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x180", "-frames:v", "1", jpeg])
        try FFmpegCLI.ffmpeg(src + ["-frames:v", "4", "-loop", "0", gif])
        try FFmpegCLI.ffmpeg(src + ["-frames:v", "4", "-c:v", "libwebp_anim", "-loop", "0", webp])
        try FFmpegCLI.ffmpeg(src + ["-frames:v", "4", "-plays", "0", "-f", "apng", apng])
        try FFmpegCLI.ffmpeg(src + ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "0.3",
                                    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac",
                                    "-shortest", clip])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000", "-t", "0.3", sound])
        return [still, gif, jpeg, webp, apng, clip, sound]
    }

    static func config() -> PlayerConfig {
        var c = PlayerConfig()
        c.size = PixelSize(width: 160, height: 90)
        c.slideshow.duration = 0.3
        c.slideshow.transitionTime = 0.1  // crossfades: two items' textures alive at once
        c.audio.device = "kiosk-soak-no-such-pcm"  // sound items play silently on their clock (no device here)
        return c
    }

    func testSoakReturnsMemoryAndGLObjects() throws {
        let count = Int(ProcessInfo.processInfo.environment["KIOSK_SOAK_TRANSITIONS"] ?? "") ?? 7_000
        let warmup = max(50, count / 10)
        let dir = try TempDir()
        let files = try Self.mixedFiles(dir)
        let report = try PlayerSoak.run(paths: files, transitions: count, warmup: warmup, config: Self.config())
        print(String(format: "soak: %d transitions in %.1f s; RSS after warm-up %.1f MiB, end %.1f MiB (%+.2f %%), peak %.1f MiB (%+.2f %%); GL before %@ after %@, most textures %d",
                     report.transitions, report.seconds, report.rssAfterWarmup, report.rssEnd, report.growth * 100,
                     report.rssPeak, report.peakGrowth * 100, "\(report.glBefore)", "\(report.glAfter)", report.texturesMost))
        XCTAssertEqual(report.transitions, count)
        XCTAssertGreaterThan(report.rssAfterWarmup, 1, "the resident size after the warm-up was measured")
        XCTAssertLessThanOrEqual(report.growth, 0.02, "resident memory grew \(report.rssEnd - report.rssAfterWarmup) MiB after the warm-up")
        XCTAssertLessThanOrEqual(report.peakGrowth, Self.peakGrowthBound,
                                 "resident memory peaked \(report.rssPeak - report.rssAfterWarmup) MiB over the warm-up's")
        XCTAssertTrue(report.glAfter == report.glBefore, "GL objects before \(report.glBefore), after \(report.glAfter)")
        XCTAssertEqual(report.programsEnd, report.programsAfterWarmup, "programs made after the warm-up")
        XCTAssertLessThanOrEqual(report.texturesMost, 8, "textures alive at an item change: two slots of up to three planes, and the target")
    }

    /// The most the resident size may rise over the warm-up's at any item change after it, as a fraction: 7,000
    /// changes peaked +2.37 % and +2.82 % (4.4 and 5.2 MiB over ~184 MiB) in two runs on 2026-12-03.
    static let peakGrowthBound = 0.05

    /// A run too short to have a warm-up and a measured stretch after it is refused, not passed on zeros.
    func testARunWithoutRoomAfterTheWarmupIsRefused() throws {
        let dir = try TempDir()
        let files = try Self.mixedFiles(dir)
        for (transitions, warmup) in [(49, 50), (50, 50), (10, 0)] {
            XCTAssertThrowsError(try PlayerSoak.run(paths: files, transitions: transitions, warmup: warmup, config: Self.config())) {
                XCTAssertEqual($0 as? SoakError, .warmupOutOfRange(warmup: warmup, transitions: transitions))
            }
        }
    }
}
