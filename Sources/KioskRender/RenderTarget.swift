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

    /// Reads what was drawn back, rows top-down (GL returns them bottom-up). For the window surface this is the
    /// frame drawn but not yet swapped: call it between the draw and the present.
    public func readPixels() throws -> RGBAImage {
        let w = size.width, h = size.height, stride = w * 4
        var bottomUp = [UInt8](repeating: 0, count: stride * h)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebufferName)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        bottomUp.withUnsafeMutableBytes { bytes in
            glReadPixels(0, 0, GLsizei(w), GLsizei(h), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
        }
        let code = glGetError()
        if code != GLenum(GL_NO_ERROR) {
            while glGetError() != GLenum(GL_NO_ERROR) {}
            throw RenderError(call: "glReadPixels(\(size))", reason: "GL error 0x\(String(code, radix: 16))")
        }
        var topDown = [UInt8](repeating: 0, count: stride * h)
        for row in 0..<h {
            let from = (h - 1 - row) * stride
            topDown.replaceSubrange(row * stride..<(row + 1) * stride, with: bottomUp[from..<from + stride])
        }
        return RGBAImage(size: size, pixels: topDown)
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
