import KioskCore
import KioskRender

/// A headless canvas on a virtual clock: frame n is presented at exactly n/fps. Each presented frame can go to
/// a sink (the recorder's encoder); without one it is only finished on the GPU (the benchmark).
public final class VirtualTimeOutput: Output {
    private let canvas: HeadlessOutput
    private let clock: VirtualClock
    private let fps: Double
    private let sink: ((RGBAImage) throws -> Void)?
    private var frames = 0

    /// A `size` canvas presenting `fps` frames per virtual second into `sink`.
    public init(size: PixelSize, fps: Double, clock: VirtualClock, sink: ((RGBAImage) throws -> Void)?) throws {
        canvas = try HeadlessOutput(size: size, pacing: nil)
        self.clock = clock
        self.fps = fps
        self.sink = sink
    }

    /// `virtual-time canvas`.
    public var name: String { "virtual-time canvas" }
    public var context: GLContext { canvas.context }
    public var size: PixelSize { canvas.size }
    public var rotation: Rotation { .none }
    public var target: RenderTarget { canvas.target }
    public var needsEveryFrame: Bool { true }

    /// Hands the frame to the sink (or waits for the GPU) and moves time one frame; returns the time it was shown.
    public func present() throws -> Double? {
        if let sink { try sink(canvas.readPixels()) } else { context.finish() }
        return step()
    }

    /// Nothing to draw yet: time still moves one frame.
    public func idle() { _ = step() }

    private func step() -> Double {
        let shown = clock.now
        frames += 1
        clock.set(Double(frames) / fps)  // exact: no drift from adding 1/fps
        return shown
    }
}
