import Foundation
import KioskCore
import KioskMedia
import KioskOutput
import KioskPlayer
import KioskRender

/// `kiosk-bench layout [FRAMES]`: what a layout costs against the same clip full screen. A 1920x1080
/// screen; the layout has a 1280x720 clip region (x264 medium with B-frames, made from real photos), two still
/// regions (photos, slice and meet) and kiosk's clock over the screen; the peer is a one-region layout playing
/// the clip fitted to the whole screen, with the same clock. Each runs in a child process of its own (for its
/// peak RSS), on a virtual clock at 30 fps, every frame finished (glFinish).
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

    /// The child: `frames` frames of the layout `smil` on a virtual clock; prints ms a frame and peak RSS (MiB).
    static func child(_ smil: String, frames: Int) throws {
        var config = PlayerConfig()
        config.size = PixelSize(width: 1920, height: 1080)
        let log = Log(level: .error)
        let file = try SMILFile.load(smil)
        let output = try HeadlessOutput(size: config.size, pacing: nil)
        let renderer = try Renderer(context: output.context)
        let screen = LayoutScreen(file: file, config: config, context: output.context, waitsForDecodes: true, log: log)
        var settings = OverlaySettings()
        settings.clock = try ClockFormat(parsing: "%H:%M:%S")
        let overlays = OverlayState(settings: settings, captions: CaptionSettings(format: .standard, position: .bottom, seconds: nil))
        let painter = try OverlayPainter(family: OverlaySettings.defaultFont, log: log)
        var total = 0.0
        for i in 0..<(frames + 5) {
            let t = Double(i) / 30
            let start = MonotonicClock.seconds()
            var (frame, _) = try screen.frame(at: t)
            let scene = overlays.scene(at: t, context: OverlayContext(canvas: config.size, item: nil,
                                                                      now: Date(timeIntervalSince1970: 1_798_000_000 + t),
                                                                      timeZone: TimeZone(identifier: "UTC") ?? .current))
            frame.overlays += try painter.overlays(for: scene, canvas: config.size).map { o in
                var o = o
                o.z = LayoutScreen.overlayZ
                return o
            }
            try renderer.draw(frame, into: output.target)
            output.context.finish()
            if i >= 5 { total += MonotonicClock.seconds() - start }  // the first frames open the decoders
        }
        print(String(format: "%.3f %.1f", total * 1000 / Double(max(1, frames)), Bench.peakRSSMiB()))
    }
}
