@preconcurrency import Glibc
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
    /// With real-time pacing, the wall clock the frames keep pace with (nil: as fast as the machine goes).
    private let realTime: MonotonicClock?

    /// A `size` canvas presenting `fps` frames per virtual second into `sink`. `realTime`: a frame is not shown
    /// before its time has come on the wall clock (`kiosk record --realtime`: commands sent from outside, a
    /// notify or an alert, land at the moment they are sent); the frames and their times are those of the
    /// virtual clock all the same.
    public init(size: PixelSize, fps: Double, clock: VirtualClock, realTime: Bool = false, sink: ((RGBAImage) throws -> Void)?) throws {
        canvas = try HeadlessOutput(size: size, pacing: nil)
        self.clock = clock
        self.fps = fps
        self.sink = sink
        self.realTime = realTime ? MonotonicClock() : nil
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
        if let realTime {  // the frame's time on the wall clock; the loop reads its inbox at its next turn
            let ahead = clock.now - realTime.now
            if ahead > 0 { usleep(UInt32(min(ahead, 10) * 1_000_000)) }
        }
        return .shown(at: step())
    }

    /// Nothing to draw yet: time still moves, one frame, or to the first frame at or after `deadline`. No real
    /// time passes, unless paced by the wall clock: then a wakeup (a command) ends the wait at the frame it comes in.
    public func wait(until deadline: Double?, on clock: Clock) {
        _ = step()
        if let deadline {
            while self.clock.now < deadline {
                if let realTime, self.clock.now > realTime.now {
                    wakeupSignal.wait(timeout: self.clock.now - realTime.now)
                    if self.clock.now > realTime.now + 0.0005 { break }  // woken before the frame's time
                }
                _ = step()
            }
        }
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
