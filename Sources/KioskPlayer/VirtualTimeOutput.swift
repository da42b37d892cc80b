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
    /// Raised by `wakeup()` from any thread; ends the current or next wait.
    let wakeupSignal = WakeupSignal()

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

    func present() throws -> PresentResult {
        if let sink { try sink(canvas.readPixels()) } else { context.finish() }
        return .shown(at: step())
    }

    /// Nothing to draw yet: time still moves, one frame, or to the first frame at or after `deadline`; no real
    /// time passes (a wakeup has nothing to cut short).
    func wait(until deadline: Double?, on clock: Clock) {
        _ = step()
        if let deadline { while self.clock.now < deadline { _ = step() } }
        wakeupSignal.clear()
    }

    func watch(_ descriptor: Int32) {}
    var refreshInterval: Double? { 1 / fps }

    private func step() -> Double {
        let shown = clock.now
        frames += 1
        clock.set(Double(frames) / fps)  // exact: no drift from adding 1/fps
        return shown
    }
}
