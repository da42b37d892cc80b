import Foundation
import KioskCore
import KioskMedia
import KioskOutput
import KioskPlayer
import KioskRender

/// The measurements kiosk-bench makes in its child processes, each through the same parts the player uses.
enum Benchmarks {
    /// Decodes one file straight to about `canvas` size, as the player does (for the benchmark).
    static func decodeForBenchmark(_ path: String, canvas: PixelSize) throws -> String {
        let item = try MediaFile.decode(path, targetSize: { FlatView.decodeSize(picture: $0, canvas: canvas, fit: .contain) })
        return "\(item.info.size)->\(item.picture.size)"
    }

    /// Shows `count` stills from `folder` one after another as fast as possible through decode, upload and
    /// draw on the headless canvas; returns stills per second.
    static func stillsThroughput(folder: String, canvas: PixelSize, count: Int) throws -> Double {
        let files = PlaylistLoader(log: Log(level: .error)).folderFiles(folder)
        guard !files.isEmpty else { throw PlayerError("\(folder): no pictures") }
        var config = PlayerConfig()
        config.size = canvas
        config.slideshow.transition = .none
        config.slideshow.duration = 1
        let items = (0..<count).map { PlaylistItem(path: files[$0 % files.count]) }
        let clock = VirtualClock()
        let output = try VirtualTimeOutput(size: canvas, fps: 1, clock: clock, sink: nil)
        let player = try Player(items: items, config: { var c = config; c.slideshow.loop = false; return c }(),
                                output: output, clock: clock, log: Log(level: .error), waitForDecodes: true)
        let start = MonotonicClock.seconds()
        let report = try player.run(length: nil)
        let seconds = MonotonicClock.seconds() - start
        return Double(report.slotsShown) / seconds
    }

    /// Milliseconds per frame to draw `path` on a headless canvas of `canvas` size through an equirect view (yaw
    /// turning each frame) and through the plain flat pass, `frames` frames each, every frame waited for (glFinish).
    static func projectionCost(picture path: String, canvas: PixelSize, frames: Int) throws -> (equirect: Double, flat: Double) {
        let decoded = try MediaFile.decode(path, targetSize: { ItemProjection.decodeSize(picture: $0) })
        let output = try HeadlessOutput(size: canvas, pacing: nil)
        let renderer = try Renderer(context: output.context)
        let texture = try Texture(context: output.context, image: try firstImage(of: decoded.picture, path: path))
        let projection = ItemProjection(kind: .equirect)
        let flatTransform = FlatView(fit: .contain).transform(picture: texture.size, canvas: canvas)
        func draw(_ pass: any ShaderPass) throws -> Double {
            let start = MonotonicClock.seconds()
            try renderer.draw(RenderFrame(background: .black, layers: [RenderLayer(texture: texture, pass: pass)]), into: output.target)
            output.context.finish()
            return (MonotonicClock.seconds() - start) * 1000
        }
        // Alternate the two, so the load of a shared machine weighs on both alike; the first 3 of each warm up.
        var flat = 0.0, equirect = 0.0
        for i in 0..<(frames + 3) {
            let f = try draw(FlatPass(transform: flatTransform))
            let e = try draw(EquirectProjection(view: SphereView(yaw: Double(i) * 3, pitch: 10, hFOV: 90, canvas: canvas),
                                                projection: projection))
            if i >= 3 { flat += f; equirect += e }
        }
        flat /= Double(max(1, frames))
        equirect /= Double(max(1, frames))
        return (equirect, flat)
    }

    /// The still, or an animation's first frame.
    private static func firstImage(of picture: DecodedPicture, path: String) throws -> RGBAImage {
        switch picture {
        case .still(let image): return image
        case .animation(let frames, _) where !frames.isEmpty: return frames.image(at: 0)
        default: throw BenchError("\(path): not a picture")
        }
    }
}
