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
    /// Raised by `wakeup()` from any thread; ends the current or next wait.
    public let wakeupSignal = WakeupSignal()

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

    /// Hands the frame to the sink (or waits for the GPU) and moves time one frame: shown at the frame's time.
    public func present() throws -> PresentResult {
        if let sink { try sink(canvas.readPixels()) } else { context.finish() }
        return .shown(at: step())
    }

    /// Nothing to draw yet: time still moves, one frame, or to the first frame at or after `deadline`; no real
    /// time passes (a wakeup has nothing to cut short).
    public func wait(until deadline: Double?, on clock: Clock) {
        _ = step()
        if let deadline { while self.clock.now < deadline { _ = step() } }
        wakeupSignal.clear()
    }

    /// Nothing to watch: no real time passes.
    public func watch(_ descriptor: Int32) {}
    /// One frame.
    public var refreshInterval: Double? { 1 / fps }

    private func step() -> Double {
        let shown = clock.now
        frames += 1
        clock.set(Double(frames) / fps)  // exact: no drift from adding 1/fps
        return shown
    }
}
