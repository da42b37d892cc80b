import KioskCore
import KioskRender

/// Where frames go: one interface for the headless canvas, the recorder and the DRM/KMS display.
///
/// The render thread draws into `target`, then calls `present()`, which shows the frame and returns when it
/// has been shown (after the page flip on a display, at once when headless).
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
    /// Shows the drawn frame. Returns the time it was shown on the output's clock, if it knows.
    func present() throws -> Double?
    /// Waits until the next frame is due when nothing needs drawing (a display's next vblank or a tick).
    func idle()
    /// Whether frames can be shown now; false while a display is lost (no DRM master, disconnected), and the
    /// player then only calls `idle()`, which waits and watches for the display to come back.
    var isAvailable: Bool { get }
    /// Counts the times the output came back after being lost: the player redraws when it changes.
    var generation: Int { get }
    /// A hotplug event says the display may have changed (a udev monitor): look now, not at the next poll.
    func displayChanged()
}

extension Output {
    /// Always available (headless, recorder).
    public var isAvailable: Bool { true }
    /// Never lost.
    public var generation: Int { 0 }
    /// Nothing to look at.
    public func displayChanged() {}
}
