import Foundation
import KioskCore
import KioskRender

/// The headless output: an offscreen framebuffer on EGL's surfaceless platform (no display needed), read back
/// for snapshots and recordings. With `pacing`, presenting waits for the next tick of that rate, like a display.
public final class HeadlessOutput: Output {
    /// The surfaceless GL context.
    public let context: GLContext
    private let offscreen: OffscreenTarget
    private let pacing: Double?
    private let clock = MonotonicClock()
    private var nextTick = 0.0
    /// Raised by `wakeup()` from any thread; ends the current or next wait.
    public let wakeupSignal = WakeupSignal()
    private var watched: [Int32] = []

    /// Creates a `size` canvas; `pacing` in frames per second, or nil to present as fast as frames come. With
    /// `context` (another headless output's: the screens of one player), it draws with that context into a
    /// framebuffer of its own, so the screens share one context's programs and memory.
    public init(size: PixelSize, pacing: Double?, sharing context: GLContext? = nil) throws {
        self.context = try context ?? GLContext.headless()
        offscreen = try OffscreenTarget(context: self.context, size: size)
        self.pacing = pacing
    }

    /// `headless`.
    public var name: String { "headless" }
    /// The canvas size.
    public var size: PixelSize { offscreen.size }
    /// Headless canvases are not rotated.
    public var rotation: Rotation { .none }
    /// The offscreen framebuffer.
    public var target: RenderTarget { offscreen }
    /// Only changed frames need drawing.
    public var needsEveryFrame: Bool { false }

    /// Finishes the frame's GL work, then waits for the next tick when paced (as a display waits for its vblank).
    public func present() throws -> PresentResult {
        context.finish()
        if let delay = tick(), delay > 0 { Thread.sleep(forTimeInterval: delay) }  // a wakeup waits for the tick
        return .shown(at: clock.now)
    }

    /// Waits for `deadline` (nil: the next tick; unpaced, a moment), a wakeup, or a watched descriptor.
    public func wait(until deadline: Double?, on clock: Clock) {
        let timeout: Double
        if let deadline {
            timeout = deadline - clock.now
        } else if let fps = pacing, fps > 0 {
            timeout = max(0, nextTick + 1 / fps - self.clock.now)
        } else {
            timeout = 0.002
        }
        wakeupSignal.wait(timeout: max(0, timeout), also: watched)
    }

    /// Waits also end when `descriptor` is readable.
    public func watch(_ descriptor: Int32) { watched.append(descriptor) }

    /// 1/pacing when paced.
    public var refreshInterval: Double? { pacing.map { 1 / $0 } }

    /// Moves to the next tick; the seconds until it, when paced. The first frame is shown at once and the ticks
    /// run from it (there is no display whose vblank it would wait for; waiting a whole period only delayed it).
    private func tick() -> Double? {
        guard let fps = pacing, fps > 0 else { return nil }
        let period = 1 / fps
        let now = clock.now
        if nextTick == 0 {
            nextTick = now
            return 0
        }
        if nextTick < now - period { nextTick = now }  // fell behind: don't try to catch up
        nextTick += period
        return nextTick - now
    }

    /// The last drawn frame, top row first (its context made current first: with several screens another one's
    /// may be).
    public func readPixels() throws -> RGBAImage {
        try context.makeCurrentIfNeeded()
        return try offscreen.readPixels()
    }
}
