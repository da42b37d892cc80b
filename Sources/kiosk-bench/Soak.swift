import Foundation
import KioskCore
import KioskPlayer

/// `kiosk-bench soak [COUNT]`: the full soak (default 10,000 item changes) through the real decoders and renderer
/// on a virtual clock, over one small file of each kind made with ffmpeg: stills, GIF, WebP, APNG, a clip with
/// sound and a sound file. Prints RSS after the warm-up, at the end and at its peak, and the GL object counts.
enum SoakBench {
    static func run(count: Int) throws {
        let dir = NSTemporaryDirectory() + "kiosk-soak-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try makeFiles(dir)
        var config = PlayerConfig()
        config.size = PixelSize(width: 160, height: 90)
        config.slideshow.duration = 0.3
        config.slideshow.transitionTime = 0.1
        config.audio.device = "kiosk-soak-no-such-pcm"
        let warmup = max(50, count / 10)
        let report = try PlayerSoak.run(paths: files, transitions: count, warmup: warmup, config: config) { n, rss in
            if n % 1000 == 0 { print(String(format: "  %6d transitions: RSS %.1f MiB", n, rss)) }
        }
        print(String(format: "soak: %d transitions in %.1f s (virtual clock); RSS after %d warm-up transitions %.1f MiB, at the end %.1f MiB (%+.2f %%), peak %.1f MiB (%+.2f %%)",
                     report.transitions, report.seconds, warmup, report.rssAfterWarmup, report.rssEnd, report.growth * 100,
                     report.rssPeak, report.peakGrowth * 100))
        print("soak: GL objects (textures, programs, framebuffers) before \(report.glBefore), after \(report.glAfter); most textures at a change \(report.texturesMost)")
        let ok = report.growth <= 0.02 && report.glAfter == report.glBefore
        print(ok ? "soak: ok" : "soak: FAILED (growth over 2 % or GL objects not given back)")
        if !ok { exit(1) }
    }

    private static func ffmpeg(_ args: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        p.arguments = ["-y", "-v", "error", "-nostdin"] + args
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw BenchError("ffmpeg \(args.joined(separator: " ")) failed") }
    }

    private static func makeFiles(_ dir: String) throws -> [String] {
        let src = ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=10"]
        let names = ["a.png", "c.gif", "b.jpg", "d.webp", "e.apng", "f.mp4", "g.wav"].map { dir + "/" + $0 }
        try ffmpeg(src + ["-frames:v", "1", names[0]])
        try ffmpeg(src + ["-frames:v", "4", "-loop", "0", names[1]])
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x180", "-frames:v", "1", names[2]])
        try ffmpeg(src + ["-frames:v", "4", "-c:v", "libwebp_anim", "-loop", "0", names[3]])
        try ffmpeg(src + ["-frames:v", "4", "-plays", "0", "-f", "apng", names[4]])
        try ffmpeg(src + ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "0.3", "-c:v", "libx264",
                          "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", names[5]])
        try ffmpeg(["-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000", "-t", "0.3", names[6]])
        return names
    }
}
