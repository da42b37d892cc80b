/// Where the renderer draws: a GL framebuffer of a known size.
internal import CEGL
import KioskCore

/// A framebuffer the renderer can draw into. Use on the render thread only.
public protocol RenderTarget: AnyObject {
    /// Its size in pixels.
    var size: PixelSize { get }
    /// The GL framebuffer object name (0: the context's window surface).
    var framebufferName: UInt32 { get }
}

extension RenderTarget {
    /// Binds the framebuffer and sets the viewport to the whole target.
    func bind() {
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebufferName)
        glViewport(0, 0, GLsizei(size.width), GLsizei(size.height))
    }
}

/// The context's window surface (framebuffer 0), e.g. a GBM surface on the DRM output.
public final class DefaultTarget: RenderTarget {
    /// The surface's size in pixels.
    public let size: PixelSize
    /// Always 0.
    public var framebufferName: UInt32 { 0 }

    /// The window surface, `size` pixels.
    public init(size: PixelSize) {
        self.size = size
    }
}
