import Foundation
import KioskCore
import KioskMedia
import KioskOutput
import KioskPlayer

/// `kiosk-bench layout [FRAMES]`: what a layout costs against the same clip full screen. A 1920x1080
/// screen; the layout has a 1280x720 clip region (x264 medium with B-frames, made from real photos), two still
/// regions (photos, slice and meet) and kiosk's clock over the screen; the peer is a one-region layout playing
/// the clip fitted to the whole screen, with the same clock. Each runs in a child process of its own (for its
/// peak RSS): `kiosk`'s player on a virtual clock at 30 fps, every frame finished (glFinish).
enum LayoutBench {
    static func run(bench: Bench, frames: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-layout")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let clip = dir.appendingPathComponent("clip-720p30.mp4").path
        if !FileManager.default.fileExists(atPath: clip) {
            try RealClip(label: "720p30", kind: "H.264 x264 medium crf 20, B-frames", width: 1280, height: 720,
                         encode: ["-c:v", "libx264", "-preset", "medium", "-crf", "20", "-pix_fmt", "yuv420p"]).make(clip, bench: bench)
        }
        let photos = RealClip.photos
        let regions = """
        <smil><head><layout><root-layout width="1920" height="1080" backgroundColor="#101010"/>
        <region regionName="clip" left="0" top="0" width="1280" height="720" fit="meet"/>
        <region regionName="side" left="1280" top="0" width="640" height="720" fit="slice" mediaAlign="center"/>
        <region regionName="band" left="0" top="720" width="1920" height="360" fit="meet" mediaAlign="center"/>
        </layout></head><body><par>
        <video src="\(clip)" region="clip"/><img src="\(photos[1])" region="side" dur="indefinite"/>
        <img src="\(photos[2])" region="band" dur="indefinite"/>
        </par></body></smil>
        """
        let full = """
        <smil><head><layout><root-layout width="1920" height="1080"/><region regionName="clip" fit="meet"/></layout></head>
        <body><video src="\(clip)" region="clip"/></body></smil>
        """
        var results: [String: (ms: Double, rss: Double)] = [:]
        for (name, text) in [("full", full), ("regions", regions)] {
            let smil = dir.appendingPathComponent("\(name).smil").path
            try text.write(toFile: smil, atomically: true, encoding: .utf8)
            let me = CommandLine.arguments[0]
            let out = try bench.run(me, ["layout-child", smil, String(frames)], env: ["LIBGL_ALWAYS_SOFTWARE": "1"]).out
            let words = out.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
            guard words.count >= 2, let ms = Double(words[0]), let rss = Double(words[1]) else { throw BenchError("layout-child said: \(out)") }
            results[name] = (ms, rss)
        }
        guard let f = results["full"], let r = results["regions"] else { return }
        print(String(format: "layout, 1920x1080, %d frames at 30 fps: a 1280x720 clip region + two photo regions + clock %.1f ms a frame, peak %.0f MiB; the clip full screen + clock %.1f ms, %.0f MiB: %.2fx the time, %+.0f MiB (targets 1.3x, +40 MiB)",
                     frames, r.ms, r.rss, f.ms, f.rss, r.ms / max(f.ms, 1e-9), r.rss - f.rss))
    }

    /// The child: `frames` frames of the layout `smil` played by the player (its layout mode and frame presenter,
    /// the clock overlay on), on a virtual clock at 30 fps with every frame finished; prints ms a frame (the first
    /// 5 frames, which open the decoders, left out) and peak RSS (MiB).
    static func child(_ smil: String, frames: Int) throws {
        var config = PlayerConfig()
        config.size = PixelSize(width: 1920, height: 1080)
        config.overlays.clock = try ClockFormat(parsing: "%H:%M:%S")
        let log = Log(level: .error)
        let clock = VirtualClock()
        let output = try VirtualTimeOutput(size: config.size, fps: 30, clock: clock, sink: nil)
        let player = try Player(items: [], config: config, output: output, clock: clock, log: log, waitForDecodes: true)
        player.playsSound = false
        try player.play(layout: try SMILFile.load(smil))
        let warmUp = 5.0 / 30
        var start: Double?
        player.onLoopTurn = { if start == nil && clock.now >= warmUp { start = MonotonicClock.seconds() } }
        let report = try player.run(length: warmUp + Double(frames) / 30)
        let elapsed = MonotonicClock.seconds() - (start ?? MonotonicClock.seconds())
        guard report.framesPresented >= frames else { throw BenchError("the player presented \(report.framesPresented) of \(frames + 5) frames") }
        print(String(format: "%.3f %.1f", elapsed * 1000 / Double(max(1, frames)), Bench.peakRSSMiB()))
    }
}
