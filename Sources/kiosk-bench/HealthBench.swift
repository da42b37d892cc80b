import Foundation

/// `kiosk-bench health KIOSK` (issue 41): what health and proof of display cost the player. A slideshow of real
/// photos (Debian's lomiri wallpapers), 1 s each with the default transition, on a 1920x1080 headless canvas for
/// 15 s real time: CPU seconds per second (the children's rusage), health read every 10 s (the default) and the
/// play log with its proof of display (a thumbnail read back per showing) against health read once
/// (`--health-interval 3600`) and no play log; 5 runs of each, interleaved, median. Then the same for the 1080p30
/// clip made from photos (x264 `medium`, B-frames; the screens benchmark's, made once), 10 s: health's thread and
/// one thumbnail for the clip's showing. The target: at most 2 % more.
enum HealthBench {
    static func run(bench: Bench, kiosk: String) throws {
        let dir = NSTemporaryDirectory() + "kiosk-bench-health"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir + "/pictures", withIntermediateDirectories: true)
        for photo in RealClip.photos where FileManager.default.fileExists(atPath: photo) {
            try FileManager.default.copyItem(atPath: photo, toPath: dir + "/pictures/" + (photo as NSString).lastPathComponent)
        }
        let common = ["play", "--output", "headless", "--size", "1920x1080", "--duration", "1", "--length", "15", "--no-state",
                      "--log-level", "info", dir + "/pictures"]
        let on = common + ["--play-log", dir + "/plays.sqlite", "--play-log-batch", "0"]
        let off = common + ["--health-interval", "3600", "--no-play-log"]
        var cpu: [String: [Double]] = [:], fps: [String: [Double]] = [:]
        for _ in 0..<5 {
            for (name, args) in [("on", on), ("off", off)] {
                let before = ScreensBench.childCPU()
                let r = try bench.run(kiosk, args, env: ["LIBGL_ALWAYS_SOFTWARE": "1"])
                cpu[name, default: []].append((ScreensBench.childCPU() - before) / 15)
                fps[name, default: []].append(ScreensBench.presentedFPS(r.err) ?? -1)
            }
        }
        let (cOn, cOff) = (ScreensBench.median(cpu["on"] ?? []), ScreensBench.median(cpu["off"] ?? []))
        print(String(format: "health: a 1-s slideshow of photos, 1920x1080 headless, 15 s, median of 5: CPU %.3f s/s with health every "
                     + "10 s and the play log's proof of display against %.3f without (%+.1f %%, target ≤ +2 %%); frames shown "
                     + "per second %.1f against %.1f; CPU s/s each run: on %@, off %@", cOn, cOff, 100 * (cOn / max(cOff, 1e-9) - 1),
                     ScreensBench.median(fps["on"] ?? []), ScreensBench.median(fps["off"] ?? []), list(cpu["on"]), list(cpu["off"])))
        try clip(bench: bench, kiosk: kiosk, dir: dir)
    }

    /// The same comparison on the 1080p30 photo clip, 10 s.
    private static func clip(bench: Bench, kiosk: String, dir: String) throws {
        let folder = NSTemporaryDirectory() + "kiosk-bench-screens"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let clip = folder + "/clip-1080p30.mp4"
        guard let real = RealClip.all.first(where: { $0.label == "1080p30" }) else { throw BenchError("no 1080p30 clip kind") }
        if !FileManager.default.fileExists(atPath: clip) { try real.make(clip, bench: bench) }
        let common = ["play", clip, "--output", "headless", "--size", "1920x1080", "--length", "10", "--no-state", "--log-level", "info"]
        let on = common + ["--play-log", dir + "/clip-plays.sqlite", "--play-log-batch", "0"]
        let off = common + ["--health-interval", "3600", "--no-play-log"]
        var cpu: [String: [Double]] = [:]
        for _ in 0..<5 {
            for (name, args) in [("on", on), ("off", off)] {
                let before = ScreensBench.childCPU()
                _ = try bench.run(kiosk, args, env: ["LIBGL_ALWAYS_SOFTWARE": "1"])
                cpu[name, default: []].append((ScreensBench.childCPU() - before) / 10)
            }
        }
        let (cOn, cOff) = (ScreensBench.median(cpu["on"] ?? []), ScreensBench.median(cpu["off"] ?? []))
        print(String(format: "health: the 1080p30 photo clip, 1920x1080 headless, 10 s, median of 5: CPU %.3f s/s with health and proof "
                     + "against %.3f without (%+.1f %%, target ≤ +2 %%); CPU s/s each run: on %@, off %@", cOn, cOff,
                     100 * (cOn / max(cOff, 1e-9) - 1), list(cpu["on"]), list(cpu["off"])))
    }

    /// `values` to 3 places, comma-separated.
    private static func list(_ values: [Double]?) -> String {
        (values ?? []).map { String(format: "%.3f", $0) }.joined(separator: ", ")
    }
}
