import Foundation
import KioskCore
import KioskPlayer

/// A benchmark failure.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// The benchmark's steps. Each measurement that needs a clean process (peak RSS, start-up) runs as a child.
struct Bench {
    private let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path

    private func now() -> Double { MonotonicClock.seconds() }

    /// Peak resident set of this process in MiB (VmHWM).
    static func peakRSSMiB() -> Double {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = s.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kb = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return -1 }
        return kb / 1024
    }

    @discardableResult
    func run(_ exe: String, _ args: [String], env: [String: String] = [:]) throws -> (out: String, err: String, seconds: Double) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        var e = ProcessInfo.processInfo.environment
        for (k, v) in env { e[k] = v }
        p.environment = e
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        let t0 = now()
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let r = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let t = now() - t0
        guard p.terminationStatus == 0 else {
            throw BenchError("\(exe) \(args.joined(separator: " ")) exited \(p.terminationStatus): \(String(decoding: r, as: UTF8.self).suffix(300))")
        }
        return (String(decoding: o, as: UTF8.self), String(decoding: r, as: UTF8.self), t)
    }

    /// CPU seconds (user + system) used by waited-for children so far.
    private func childCPU() -> Double {
        var u = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &u)
        return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
    }

    /// A 10 s clip at 30 fps (`kind` says its encode): kiosk's headless `--untimed` playback against ffmpeg's
    /// decode-only run, and the decoder's own frame pool as kiosk logs it.
    private func videoComparison(label: String, kind: String, clip: String, kiosk: String, ffmpeg: String,
                                 env: [String: String], mpv: MPVPeer?, flatMs: Double?, baseline: Double = 0) throws {
        var ffTimes: [Double] = [], ffCPU: [Double] = [], kTimes: [Double] = [], kCPU: [Double] = [], mTimes: [Double] = []
        var frames = 0
        var rss = 0.0, mpvRSS = 0.0
        var pool = ""
        for _ in 0..<3 {
            var c0 = childCPU()
            ffTimes.append(try run(ffmpeg, ["-v", "error", "-i", clip, "-f", "null", "-"]).seconds)
            ffCPU.append(childCPU() - c0)
            c0 = childCPU()
            let k = try run(kiosk, ["play", clip, "--output", "headless", "--untimed", "--no-loop", "--size", "1920x1080",
                                    "--log-level", "info"], env: env)
            kCPU.append(childCPU() - c0)
            kTimes.append(k.seconds)
            if let line = k.err.split(separator: "\n").first(where: { $0.contains("its pool handed out") }),
               let colon = line.range(of: ": libavcodec") {
                pool = String(line[colon.upperBound...])
            }
            if let line = k.err.split(separator: "\n").first(where: { $0.contains("played ") }) {
                let words = line.split(separator: " ")
                if let i = words.firstIndex(where: { $0.hasPrefix("frames") }), i > 0 { frames = Int(words[i - 1]) ?? frames }
                if let i = words.firstIndex(of: "RSS"), i + 1 < words.count { rss = max(rss, Double(words[i + 1]) ?? 0) }
            }
            if let mpv {
                let m = try mpv.play(clip, bench: self)
                mTimes.append(m.seconds)
                mpvRSS = max(mpvRSS, m.rssMiB)
            }
        }
        let outside = frames > 0 ? (median(kCPU) - median(ffCPU)) / Double(frames) * 1000 : -1
        print(String(format: "%@ (10 s, 30 fps, %@) untimed on a 1920x1080 headless canvas, median of 3: kiosk %.2f s, ffmpeg -f null %.2f s, ratio %.2f; %d frames; CPU outside the decoder %.1f ms/frame; kiosk peak RSS %.1f MiB (+%.1f over the idle baseline)",
                     label, kind, median(kTimes), median(ffTimes), median(kTimes) / median(ffTimes), frames, outside, rss, rss - baseline))
        if !pool.isEmpty { print("  the decoder's pool: libavcodec" + pool) }
        if !mTimes.isEmpty {
            print(String(format: "  mpv --vo=gpu on llvmpipe under Xvfb (1920x1080): %.2f s, peak RSS %.1f MiB; kiosk's frame rate %.2fx mpv's (target >= 2)",
                         median(mTimes), mpvRSS, median(mTimes) / median(kTimes)))
        }
        if let flatMs, frames > 0 {
            let floor = median(ffTimes) + Double(frames) * flatMs / 1000
            print(String(format: "  floor (ffmpeg's decode + %d frames x the %.1f ms flat pass): %.2f s; kiosk %.2fx the floor (target <= 1.3)",
                         frames, flatMs, floor, median(kTimes) / floor))
        }
    }

    private func median(_ xs: [Double]) -> Double { let s = xs.sorted(); return s[s.count / 2] }

    /// The peak RSS kiosk's closing info line reports ("... peak RSS N MiB"), or -1.
    static func peakRSS(fromLog log: String) -> Double {
        guard let line = log.split(separator: "\n").last(where: { $0.contains("peak RSS") }) else { return -1 }
        let words = line.split(separator: " ")
        guard let i = words.firstIndex(of: "RSS"), i + 1 < words.count else { return -1 }
        return Double(words[i + 1]) ?? -1
    }

    /// Decodes one file to about `size` in this process; prints `ms rssMiB`.
    func decodeChild(_ path: String, size: PixelSize) throws {
        let t0 = now()
        let item = try Benchmarks.decodeForBenchmark(path, canvas: size)
        let ms = (now() - t0) * 1000
        print(String(format: "%.2f %.1f %@", ms, Self.peakRSSMiB(), item.description))
    }

    /// Shows `count` stills from `dir` through the headless pipeline as fast as it goes; prints `stills/s rss`.
    func stillsChild(_ dir: String, size: PixelSize, count: Int) throws {
        let r = try Benchmarks.stillsThroughput(folder: dir, canvas: size, count: count)
        print(String(format: "%.2f %.1f", r, Self.peakRSSMiB()))
    }

    /// Draws an equirect view and the flat pass of one picture; prints `equirectMs flatMs` per frame.
    func projectionChild(_ path: String, size: PixelSize, frames: Int) throws {
        let r = try Benchmarks.projectionCost(picture: path, canvas: size, frames: frames)
        print(String(format: "%.3f %.3f", r.equirect, r.flat))
    }

    /// One 24 MP JPEG to 1920x1080: kiosk's decode (child process) against ffmpeg's decode + scale.
    private func decodeComparison(label: String, big: String, ffmpeg: String) throws {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: big)[.size] as? Int) ?? 0
        var ffWhole: [Double] = [], ffWork: [Double] = [], kWhole: [Double] = [], kWork: [Double] = [], kRSS: [Double] = []
        for _ in 0..<7 {
            let f = try run(ffmpeg, ["-hide_banner", "-nostats", "-loglevel", "info", "-benchmark", "-i", big, "-vf", "scale=1920:1080", "-f", "null", "-"])
            ffWhole.append(f.seconds)
            // ffmpeg's own figure for the decode + scale work, without its start-up: "bench: utime=… rtime=0.123s"
            if let r = f.err.split(whereSeparator: { $0 == " " || $0 == "\n" }).first(where: { $0.hasPrefix("rtime=") }),
               let v = Double(r.dropFirst(6).dropLast()) { ffWork.append(v) }
            let k = try run(me, ["decode", big, "1920x1080"])
            let parts = k.out.split(separator: " ")
            kWhole.append(k.seconds)
            if parts.count > 1, let ms = Double(parts[0]), let rss = Double(parts[1]) { kWork.append(ms / 1000); kRSS.append(rss) }
        }
        print(String(format: "24 MP JPEG (6000x4000, %@, %.1f MB) -> 1920x1080, median of 7:", label, Double(bytes) / 1e6))
        print(String(format: "  decode + scale work: kiosk %.0f ms, ffmpeg %.0f ms (its -benchmark rtime), ratio %.2f",
                     median(kWork) * 1000, median(ffWork) * 1000, median(kWork) / median(ffWork)))
        print(String(format: "  whole process:       kiosk %.0f ms, ffmpeg %.0f ms, ratio %.2f; kiosk peak RSS %.1f MiB",
                     median(kWhole) * 1000, median(ffWhole) * 1000, median(kWhole) / median(ffWhole), kRSS.max() ?? -1))
        try djpegComparison(big: big, kioskWork: median(kWork), kioskRSS: kRSS.max() ?? -1)
    }

    /// The floor of a JPEG decode: libjpeg-turbo's own `djpeg` at the DCT scale kiosk picks (the largest reduction
    /// that stays at or above 1920x1080), its time and peak RSS (GNU time), against kiosk's decode work and its
    /// peak memory over the same child decoding a 16x16 JPEG (the libraries' share).
    private func djpegComparison(big: String, kioskWork: Double, kioskRSS: Double) throws {
        let timeTool = "/usr/bin/time", djpeg = "/usr/bin/djpeg"
        guard FileManager.default.isExecutableFile(atPath: timeTool), FileManager.default.isExecutableFile(atPath: djpeg) else {
            print("  djpeg: not measured (Kiosk/bench.sh installs libjpeg-turbo-progs and time)")
            return
        }
        let probe = try run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                                                 "-of", "csv=p=0", big]).out.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard probe.count == 2 else { throw BenchError("\(big): no size from ffprobe") }
        let scale = [8, 4, 2].first { probe[0] / $0 >= 1920 && probe[1] / $0 >= 1080 } ?? 1
        var times: [Double] = [], rss: [Double] = []
        for _ in 0..<7 {
            let d = try run(timeTool, ["-f", "%e %M", djpeg, "-scale", "1/\(scale)", "-outfile", "/dev/null", big])
            let words = d.err.split(whereSeparator: { $0 == " " || $0 == "\n" })
            if words.count >= 2, let kb = Double(words[words.count - 1]) { rss.append(kb / 1024) }
            times.append(d.seconds)
        }
        let tiny = URL(fileURLWithPath: big).deletingLastPathComponent().appendingPathComponent("tiny-\(getpid()).jpg").path
        try run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:size=16x16", "-frames:v", "1", tiny])
        defer { try? FileManager.default.removeItem(atPath: tiny) }
        let idle = try run(me, ["decode", tiny, "1920x1080"]).out.split(separator: " ")
        let idleRSS = idle.count > 1 ? Double(idle[1]) ?? 0 : 0
        print(String(format: "  djpeg -scale 1/%d (the floor): %.0f ms, peak RSS %.1f MiB; kiosk's work %.2fx djpeg's time (target <= 1.5); kiosk's peak over a 16x16 JPEG's decode (%.1f MiB): +%.1f MiB (target <= 32)",
                     scale, median(times) * 1000, rss.max() ?? -1, kioskWork / max(1e-9, median(times)), idleRSS, kioskRSS - idleRSS))
    }

    /// 24-megapixel JPEGs (made now in `dir`, or a temporary folder) to 1920x1080 against ffmpeg and djpeg.
    func jpeg(in dir: URL? = nil) throws {
        let tmp = dir ?? FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-jpeg-\(getpid())")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { if dir == nil { try? FileManager.default.removeItem(at: tmp) } }
        let ffmpeg = "/usr/bin/ffmpeg"
        let smooth = tmp.appendingPathComponent("smooth.jpg").path
        try run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=6000x4000,gblur=sigma=2", "-frames:v", "1", "-q:v", "3", smooth])
        let photo = tmp.appendingPathComponent("photo.jpg").path
        try run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "mandelbrot=size=1500x1000:end_pts=1,scale=6000:4000:flags=bicubic,noise=alls=10:allf=t",
                         "-frames:v", "1", "-q:v", "2", photo])
        for (label, big) in [("smooth", smooth), ("photo-like", photo)] {
            try decodeComparison(label: label, big: big, ffmpeg: ffmpeg)
        }
    }

    /// The whole benchmark.
    func all(kiosk: String?) throws {
        let kioskExe = kiosk ?? URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("kiosk").path
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-\(getpid())")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let ffmpeg = "/usr/bin/ffmpeg"
        let soft = ["LIBGL_ALWAYS_SOFTWARE": "1"]
        print("kiosk benchmark on \(ProcessInfo.processInfo.activeProcessorCount) cores, \(Date())")

        // 1. 24-megapixel JPEGs to 1920x1080: a smooth, compressible one and a detailed, photo-like one (9-10 MB).
        try jpeg(in: tmp)

        // 2. Start to first frame of a still (headless).
        let still = tmp.appendingPathComponent("still.jpg").path
        try run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1920x1080", "-frames:v", "1", still])
        var firsts: [Double] = [], walls: [Double] = []
        for _ in 0..<5 {
            let r = try run(kioskExe, ["play", still, "--length", "0.2", "--no-state", "--log-level", "info"], env: soft)
            if let line = r.err.split(separator: "\n").first(where: { $0.contains("first frame presented") }),
               let ms = line.split(separator: " ").first(where: { Double($0) != nil }).flatMap({ Double($0) }) {
                firsts.append(ms)
            }
            walls.append(r.seconds)
        }
        print(String(format: "first frame of a 1080p still: %.0f ms after process start (median of %d)",
                     firsts.isEmpty ? -1 : median(firsts), firsts.count))

        // 3. Stills per second through the headless pipeline.
        let dir = tmp.appendingPathComponent("stills").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for i in 0..<8 {
            try run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1920x1080", "-vf", "hue=h=\(i * 40)",
                             "-frames:v", "1", dir + "/s\(i).jpg"])
        }
        let s = try run(me, ["stills", dir, "1920x1080", "40"], env: soft).out.split(separator: " ")
        let ffStill = try run(ffmpeg, ["-v", "error", "-i", dir + "/s%d.jpg", "-frames:v", "8", "-f", "null", "-"]).seconds
        print(String(format: "stills through the headless pipeline at 1920x1080: %@ stills/s (decode + upload + draw), peak RSS %@ MiB; ffmpeg decodes the same JPEGs at %.1f/s",
                     String(s.first ?? "?"), String(s.dropFirst().first ?? "?").trimmingCharacters(in: .whitespacesAndNewlines), 8 / ffStill))

        // 4. An equirect (4096x2048) seen through a 1920x1080 view, against the plain flat pass of the same picture.
        let pano = tmp.appendingPathComponent("pano_360.jpg").path
        try run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "mandelbrot=size=1024x512:end_pts=1,scale=4096:2048:flags=bicubic",
                         "-frames:v", "1", "-q:v", "3", pano])
        let p = try run(me, ["projection", pano, "1920x1080", "30"], env: soft).out.split(separator: " ")
        if p.count == 2, let e = Double(p[0]), let f = Double(p[1].trimmingCharacters(in: .whitespacesAndNewlines)) {
            print(String(format: "equirect 4096x2048 -> 1920x1080 view: %.2f ms/frame; flat pass of it: %.2f ms/frame; ratio %.2f",
                         e, f, e / f))
        }

        // 5. Video.
        try video(kiosk: kioskExe, in: tmp)

        // 6. Remote control: mpv's JSON IPC round trips against kiosk and against mpv itself.
        try IPCBench(kiosk: kioskExe, dir: tmp).run()

        // 7. The grid of 10,000 items opened twice: decoding, then from the disk cache.
        try GridBench.run(kiosk: kioskExe, count: 10_000)

        // 8. The play log's report by day over 1,000,000 showings, against the sqlite3 shell.
        try PlayLogBench.run(bench: self, kiosk: kioskExe, rows: 1_000_000)

        // 9. The web page: its round trips against the IPC socket's, then 16 clients (the per-address limit) for 10 s.
        try WebBench.run(kiosk: kioskExe, count: 1000, clients: 16, seconds: 10)
    }

    /// The realistic clips (`RealClip.all`, made now from photos), played untimed against ffmpeg's decode-only time.
    func video(kiosk: String, in dir: URL? = nil) throws {
        let tmp = dir ?? FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-bench-video-\(getpid())")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { if dir == nil { try? FileManager.default.removeItem(at: tmp) } }
        let ffmpeg = "/usr/bin/ffmpeg"
        // kiosk's own flat pass of a 1920x1080 picture: the drawing a frame needs at the least
        let still = tmp.appendingPathComponent("flat-1080.png").path
        try run(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080", "-frames:v", "1", still])
        let flat = try run(me, ["projection", still, "1920x1080", "30"], env: ["LIBGL_ALWAYS_SOFTWARE": "1"])
        let flatMs = flat.out.split(separator: " ").dropFirst().first.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let mpv = MPVPeer(size: "1920x1080")
        let soft = ["LIBGL_ALWAYS_SOFTWARE": "1"]
        // The idle baseline: kiosk showing a tiny picture on the same canvas (the GL driver, ffmpeg's libraries)
        let tiny = tmp.appendingPathComponent("tiny.png").path
        try run(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=blue:size=16x16", "-frames:v", "1", tiny])
        let idle = try run(kiosk, ["play", tiny, "--output", "headless", "--size", "1920x1080", "--length", "2", "--log-level", "info"],
                           env: soft)
        let baseline = Self.peakRSS(fromLog: idle.err)
        print(String(format: "idle baseline: kiosk showing a 16x16 picture on a 1920x1080 headless canvas, peak RSS %.1f MiB", baseline))
        for (index, real) in RealClip.all.enumerated() {
            let clip = tmp.appendingPathComponent("clip-\(index).mp4").path
            if !FileManager.default.fileExists(atPath: clip) { try real.make(clip, bench: self) }
            try videoComparison(label: real.label, kind: real.kind, clip: clip, kiosk: kiosk, ffmpeg: ffmpeg, env: soft,
                                mpv: mpv, flatMs: flatMs, baseline: baseline)
            guard index < 2 else { continue }  // the shader path and the pass costs: for the two H.264 sizes
            // the shader path (--video-convert gpu, the default on a GPU) once, and where a frame's time goes
            let gpu = try run(kiosk, ["play", clip, "--output", "headless", "--untimed", "--no-loop", "--size", "1920x1080",
                                      "--log-level", "info", "--video-convert", "gpu"], env: soft)
            print(String(format: "  the same with --video-convert gpu (planes converted in the shader): %.2f s, peak RSS %.1f MiB (+%.1f)",
                         gpu.seconds, Self.peakRSS(fromLog: gpu.err), Self.peakRSS(fromLog: gpu.err) - baseline))
            let pass = try run(me, ["videopass", clip, "1920x1080", "20"], env: soft).out.split(separator: " ")
            if pass.count >= 4 {
                print("  one decoded frame, --video-convert gpu: upload \(pass[1]) ms, YUV draw \(pass[2]) ms; an RGBA picture's flat pass \(pass[3].trimmingCharacters(in: .whitespacesAndNewlines)) ms")
            }
        }
    }
}
