import Foundation
import KioskCore

/// `kiosk-bench grid KIOSK [COUNT]`: a folder of COUNT (default 10,000) 1080p JPEGs opened in the grid by a real
/// `kiosk play --start-view grid` twice: the first time every visible thumbnail is decoded, the second time they come
/// from the disk cache. Prints, for each, how long after opening every visible tile was drawn with its thumbnail
/// (kiosk's own log line), and the whole process's time to that point.
enum GridBench {
    static func run(kiosk: String, count: Int) throws {
        let dir = NSTemporaryDirectory() + "kiosk-bench-grid-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let media = dir + "/media"
        try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
        let bench = Bench()
        var sources: [String] = []
        for i in 0..<8 {
            let f = dir + "/s\(i).jpg"
            try bench.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080,hue=h=\(i * 45)",
                                              "-frames:v", "1", "-q:v", "3", f])
            sources.append(f)
        }
        for i in 0..<count where link(sources[i % sources.count], media + String(format: "/p%06d.jpg", i)) != 0 {
            throw BenchError("link: \(String(cString: strerror(errno)))")
        }
        let cache = dir + "/thumbs"
        for label in ["first open (decoding)", "second open (disk cache)"] {
            let r = try bench.run(kiosk, ["play", media, "--output", "headless", "--size", "1920x1080", "--start-view", "grid",
                                          "--length", "6", "--no-state", "--no-watch", "--thumb-cache-dir", cache,
                                          "--log-level", "info"], env: ["LIBGL_ALWAYS_SOFTWARE": "1"])
            guard let ready = r.err.split(separator: "\n").first(where: { $0.contains("tiles ready") }) else {
                throw BenchError("kiosk never said its tiles were ready:\n\(r.err.suffix(600))")
            }
            let words = ready.components(separatedBy: "grid: ").last ?? String(ready)
            let first = r.err.split(separator: "\n").first { $0.contains("first frame presented") }
                .flatMap { $0.components(separatedBy: "presented ").last } ?? "?"
            print("grid of \(count) items, \(label): \(words); the process's first frame \(first)")
        }
    }
}
