import KioskCore
import KioskMedia
import KioskOutput
import KioskRender

/// A headless canvas on a virtual clock: frame n is presented at exactly n/fps. Each presented frame can go to
/// a sink (the recorder's encoder); without one it is only finished on the GPU (the benchmark).
final class VirtualTimeOutput: Output {
    private let canvas: HeadlessOutput
    private let clock: VirtualClock
    private let fps: Double
    private let sink: ((RGBAImage) throws -> Void)?
    private var frames = 0

    /// A `size` canvas presenting `fps` frames per virtual second into `sink`.
    init(size: PixelSize, fps: Double, clock: VirtualClock, sink: ((RGBAImage) throws -> Void)?) throws {
        canvas = try HeadlessOutput(size: size, pacing: nil)
        self.clock = clock
        self.fps = fps
        self.sink = sink
    }

    var name: String { "virtual-time canvas" }
    var context: GLContext { canvas.context }
    var size: PixelSize { canvas.size }
    var rotation: Rotation { .none }
    var target: RenderTarget { canvas.target }
    var needsEveryFrame: Bool { true }

    func present() throws -> Double? {
        if let sink { try sink(canvas.readPixels()) } else { context.finish() }
        return step()
    }

    /// Nothing to draw yet: time still moves one frame.
    func idle() { _ = step() }

    private func step() -> Double {
        let shown = clock.now
        frames += 1
        clock.set(Double(frames) / fps)  // exact: no drift from adding 1/fps
        return shown
    }
}
