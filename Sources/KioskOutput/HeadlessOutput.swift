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

    /// Creates a `size` canvas; `pacing` in frames per second, or nil to present as fast as frames come.
    public init(size: PixelSize, pacing: Double?) throws {
        context = try GLContext.headless()
        offscreen = try OffscreenTarget(context: context, size: size)
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

    /// Finishes the frame's GL work, then waits for the next tick when paced.
    public func present() throws -> Double? {
        context.finish()
        wait()
        return clock.now
    }

    /// Waits for the next tick (or a short while when unpaced).
    public func idle() {
        if pacing == nil { Thread.sleep(forTimeInterval: 0.002) } else { wait() }
    }

    private func wait() {
        guard let fps = pacing, fps > 0 else { return }
        let period = 1 / fps
        let now = clock.now
        if nextTick < now - period { nextTick = now }  // fell behind: don't try to catch up
        nextTick += period
        let delay = nextTick - now
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
    }

    /// The last drawn frame, top row first.
    public func readPixels() throws -> RGBAImage { try offscreen.readPixels() }
}
