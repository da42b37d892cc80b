import Foundation
import KioskCore
import KioskMedia
import KioskOutput
import KioskPlayer
import KioskRender

/// `kiosk-bench text [FRAMES]`: what text on screen costs a frame on this machine's renderer (llvmpipe here):
/// a 1920x1080 photo drawn alone, and with a two-line caption and a clock over it, alternated so the machine's
/// load weighs on both alike (every frame waited for with glFinish); and what laying out a new clock text costs
/// (the once-a-minute change), apart from drawing.
enum TextBench {
    static func run(frames: Int) throws {
        let canvas = PixelSize(width: 1920, height: 1080)
        let photo = "/usr/share/backgrounds/Bridge_by_Sander_Klootwijk.jpg"
        let decoded = try MediaFile.decode(photo, targetSize: { FlatView.decodeSize(picture: $0, canvas: canvas, fit: .contain) })
        guard case .still(let image) = decoded.picture else { throw BenchError("\(photo): not a still") }
        let output = try HeadlessOutput(size: canvas, pacing: nil)
        let renderer = try Renderer(context: output.context)
        let texture = try Texture(context: output.context, image: image)
        let layer = RenderLayer(texture: texture, pass: FlatPass(transform: FlatView(fit: .contain).transform(picture: texture.size, canvas: canvas)))
        var settings = OverlaySettings()
        settings.clock = try ClockFormat(parsing: "%H:%M")
        let captions = CaptionSettings(format: .standard, position: .bottom, seconds: nil)
        let state = OverlayState(settings: settings, captions: captions)
        state.handle(.itemStarted(ItemID(0), path: photo, sequence: 0), at: 0)
        let painter = try OverlayPainter(family: OverlaySettings.defaultFont, log: Log(level: .error))
        func scene(_ minute: Int) -> OverlayScene {
            let item = OverlayContext.Item(sequence: 0, kind: .still, index: 1, count: 1, slotTime: 1, slotLength: 10,
                                           name: "bridge", caption: "Pont de Normandie over the Seine estuary, an April morning from the north pylon")
            return state.scene(at: 1, context: OverlayContext(canvas: canvas, item: item,
                                                             now: Date(timeIntervalSince1970: 1_798_000_000 + Double(minute) * 60),
                                                             timeZone: TimeZone(identifier: "UTC") ?? .current))
        }
        func draw(_ overlays: [RenderOverlay]) throws -> Double {
            let start = MonotonicClock.seconds()
            try renderer.draw(RenderFrame(background: .black, layers: [layer], overlays: overlays), into: output.target)
            output.context.finish()
            return (MonotonicClock.seconds() - start) * 1000
        }
        let steady = try painter.overlays(for: scene(0), canvas: canvas)
        var plain = 0.0, text = 0.0, layout = 0.0
        for i in 0..<(frames + 3) {
            let p = try draw([])
            let t = try draw(steady)
            let start = MonotonicClock.seconds()
            _ = try painter.overlays(for: scene(i + 1), canvas: canvas)  // a new minute: the clock laid out anew
            let l = (MonotonicClock.seconds() - start) * 1000
            if i >= 3 { plain += p; text += t; layout += l }
        }
        let n = Double(max(1, frames))
        print(String(format: "text on screen, 1920x1080 photo, %d frames each: %.1f ms a frame alone, %.1f ms with a caption and a clock (+%.1f ms, %.2fx); a new clock text laid out in %.2f ms",
                     frames, plain / n, text / n, (text - plain) / n, text / max(plain, 1e-9), layout / n))
    }
}
