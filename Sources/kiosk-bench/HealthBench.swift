import Foundation

/// `kiosk-bench health KIOSK` (issue 41): what health and proof of display cost the player. A slideshow of real
/// photos (Debian's lomiri wallpapers), 1 s each with the default transition, on a 1920x1080 headless canvas for
/// 15 s real time: CPU seconds per second (the children's rusage), health read every 10 s (the default) and the
/// play log with its proof of display (a thumbnail read back per showing) against health read once
/// (`--health-interval 3600`) and no play log; 5 runs of each, interleaved, median. The target: at most 2 % more.
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
                     + "per second %.1f against %.1f", cOn, cOff, 100 * (cOn / max(cOff, 1e-9) - 1),
                     ScreensBench.median(fps["on"] ?? []), ScreensBench.median(fps["off"] ?? [])))
    }
}
