import Foundation
import KioskCore
import KioskMedia
import KioskOutput
import KioskRender

/// `kiosk-bench minify [FRAMES]`: what the minification pre-pass costs a frame (moved here from a print-only test).
/// A 1080p and a 2160p H.264 frame are drawn fit to canvases 3× and 4× smaller, where the pre-pass runs, and to the
/// canvas 2× smaller, where it does not; each draw is waited for (glFinish). Prints the median ms per draw.
enum MinifyBench {
    static func run(frames: Int) throws {
        let dir = NSTemporaryDirectory() + "kiosk-minify-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for source in [PixelSize(width: 1920, height: 1080), PixelSize(width: 3840, height: 2160)] {
            let clip = try makeClip(dir, size: source)
            let plain = PixelSize(width: source.width / 2, height: source.height / 2)
            let entries = try [2, 3, 4].map { divisor in
                let canvas = PixelSize(width: source.width / divisor, height: source.height / divisor)
                let ms = try medianDrawMs(clip: clip, canvas: canvas, frames: frames)
                return String(format: "%@ %.2f ms%@", canvas.description, ms, canvas == plain ? " (no pre-pass)" : "")
            }
            print("minify \(source) drawn to: " + entries.joined(separator: ", "))
        }
    }

    /// The median ms of `frames` draws (after 2 warm-up draws) of the clip's first frame fit to `canvas`.
    private static func medianDrawMs(clip: String, canvas: PixelSize, frames: Int) throws -> Double {
        let decoder = try VideoDecoder(path: clip, log: Log(level: .error))
        defer { decoder.close() }
        guard let frame = decoder.nextFrame(timeout: 20) else { throw BenchError("\(clip): no video frame") }
        let output = try HeadlessOutput(size: canvas, pacing: nil)
        let renderer = try Renderer(context: output.context)
        let video = try VideoTexture(context: output.context, frame: frame)
        let pass = FlatPass(transform: FlatView(fit: .contain).transform(picture: video.size, canvas: canvas))
        var times: [Double] = []
        for i in 0..<(frames + 2) {
            let start = MonotonicClock.seconds()
            try renderer.draw(RenderFrame(background: .black, layers: [RenderLayer(texture: video, pass: pass)]),
                              into: output.target)
            output.context.finish()
            if i >= 2 { times.append((MonotonicClock.seconds() - start) * 1000) }
        }
        return times.sorted()[times.count / 2]
    }

    /// A short H.264 clip of `size` with fine detail (testsrc2 with temporal noise), as the minification test uses.
    private static func makeClip(_ dir: String, size: PixelSize) throws -> String {
        let path = dir + "/clip-\(size).mp4"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        p.arguments = ["-y", "-v", "error", "-nostdin", "-f", "lavfi", "-i",
                       "testsrc2=size=\(size):rate=25:duration=0.2,noise=alls=8:allf=t",
                       "-c:v", "libx264", "-preset", "veryfast", "-crf", "12", "-pix_fmt", "yuv420p", path]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw BenchError("ffmpeg could not make \(path)") }
        return path
    }
}
