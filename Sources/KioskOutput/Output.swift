import KioskCore
import KioskRender

/// Where frames go: one interface for the headless canvas, the recorder and the DRM/KMS display.
///
/// The render thread draws into `target`, then calls `present()`, which shows the frame and says whether and
/// when it was shown. Between frames the loop calls `wait(until:on:)`, which any thread can cut short with
/// `wakeup()` (a command arrived), and which also returns when a watched descriptor (input) is readable.
public protocol Output: AnyObject {
    /// A short name for logs (`headless`, `drm card0 HDMI-A-1 1920x1080@60`).
    var name: String { get }
    /// The GL context frames are drawn with; current on the render thread.
    var context: GLContext { get }
    /// The canvas size the slideshow composes at (before rotation).
    var size: PixelSize { get }
    /// The final pass's rotation.
    var rotation: Rotation { get }
    /// The target to draw the next frame into.
    var target: RenderTarget { get }
    /// Whether the output wants a frame even when nothing changed (a recorder does).
    var needsEveryFrame: Bool { get }
    /// Shows the drawn frame: `.shown(at:)` with the time it reached the screen, `.pending` when it is queued
    /// but not shown yet, `.unavailable` when it could not be shown (a display that is lost).
    func present() throws -> PresentResult
    /// Waits until `deadline` on `clock` (nil: about the next frame's time: a vblank, a tick, one virtual
    /// frame), or less: a `wakeup()` or a watched descriptor ends the wait at once.
    func wait(until deadline: Double?, on clock: Clock)
    /// Raised by `wakeup()`; a producer on another thread may hold it and raise it itself.
    var wakeupSignal: WakeupSignal { get }
    /// Also ends waits when `descriptor` is readable (an input device's events).
    func watch(_ descriptor: Int32)
    /// Seconds between two frames it shows (a display's refresh), if it has a rate.
    var refreshInterval: Double? { get }
    /// Whether frames can be shown now; false while a display is lost (no DRM master, disconnected), and the
    /// player then only calls `wait(until:on:)`, which waits and watches for the display to come back.
    var isAvailable: Bool { get }
    /// Counts the times the output came back after being lost: the player redraws when it changes.
    var generation: Int { get }
    /// A hotplug event says the display may have changed (a udev monitor): look now, not at the next poll.
    func displayChanged()
    /// Powers the display down or up (DPMS); outputs without a display do nothing.
    func setScreenPower(on: Bool) throws
    /// Its displays' state and EDID, read from the health monitor's thread; nil for an output without displays.
    var displayProbe: DRMDisplayProbe? { get }
    /// Frames it showed late or dropped over the last hour; nil where it does not count them (no page flips).
    var frameTiming: FrameTiming? { get }
}

/// What became of a presented frame.
public enum PresentResult: Sendable, Equatable {
    /// It reached the screen at this time (CLOCK_MONOTONIC seconds for a display; the output's clock otherwise).
    case shown(at: Double)
    /// It is queued (a flip not completed yet).
    case pending
    /// It could not be shown: the display is lost.
    case unavailable

    /// The time it was shown, if it was.
    public var shownAt: Double? { if case .shown(let t) = self { return t } else { return nil } }
}

extension Output {
    /// Ends the current or next `wait` at once. Any thread.
    public func wakeup() { wakeupSignal.raise() }
    /// No fixed rate.
    public var refreshInterval: Double? { nil }
    /// Always available (headless, recorder).
    public var isAvailable: Bool { true }
    /// Never lost.
    public var generation: Int { 0 }
    /// Nothing to look at.
    public func displayChanged() {}
    /// No display to power.
    public func setScreenPower(on: Bool) throws {}
    /// No displays.
    public var displayProbe: DRMDisplayProbe? { nil }
    /// No page flips counted.
    public var frameTiming: FrameTiming? { nil }
}
