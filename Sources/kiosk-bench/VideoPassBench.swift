import Foundation
import KioskCore
import KioskMedia
import KioskOutput
import KioskRender

/// `kiosk-bench videopass CLIP WxH FRAMES` (child process): where a video frame's time goes once it is decoded.
/// Frames are decoded first, then each is uploaded into the same `VideoTexture` and drawn fit to the canvas, as the
/// player does, every step waited for (glFinish); the flat pass of an RGBA picture of the frame's size is drawn
/// between them, so a shared machine's load weighs on both alike. Prints
/// `videopass UPLOAD_MS DRAW_MS FLAT_MS` (medians over FRAMES, after 3 warm-up frames).
enum VideoPassBench {
    static func run(clip: String, canvas: PixelSize, frames: Int) throws {
        let decoder = try VideoDecoder(path: clip, log: Log(level: .error))
        defer { decoder.close() }
        var decoded: [VideoFrame] = []
        while decoded.count < frames + 3, let f = decoder.nextFrame(timeout: 10) { decoded.append(f) }
        guard let first = decoded.first else { throw BenchError("\(clip): no video frames") }
        let output = try HeadlessOutput(size: canvas, pacing: nil)
        let renderer = try Renderer(context: output.context)
        let video = try VideoTexture(context: output.context, frame: first)
        let still = try Texture(context: output.context,
                                image: RGBAImage(size: first.size, fill: (90, 140, 200, 255)))
        let fit = FlatView(fit: .contain)
        var upload: [Double] = [], draw: [Double] = [], flat: [Double] = []
        /// Milliseconds `body` takes, the GL work it queued included.
        func timed(_ body: () throws -> Void) rethrows -> Double {
            let t = MonotonicClock.seconds()
            try body()
            output.context.finish()
            return (MonotonicClock.seconds() - t) * 1000
        }
        func drawn(_ picture: any LayerPicture) throws {
            try renderer.draw(RenderFrame(background: .black, layers: [
                RenderLayer(texture: picture, pass: FlatPass(transform: fit.transform(picture: picture.size, canvas: canvas)))]),
                into: output.target)
        }
        for (i, frame) in decoded.enumerated() {
            let u = try timed { try video.update(with: frame) }
            let d = try timed { try drawn(video) }
            let f = try timed { try drawn(still) }
            if i >= 3 { upload.append(u); draw.append(d); flat.append(f) }
        }
        func median(_ xs: [Double]) -> Double { xs.isEmpty ? 0 : xs.sorted()[xs.count / 2] }
        print(String(format: "videopass %.2f %.2f %.2f", median(upload), median(draw), median(flat)))
    }
}
