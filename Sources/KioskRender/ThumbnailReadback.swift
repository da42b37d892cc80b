/// A small downscaled copy of a frame read back: the proof-of-display thumbnail (docs/proof-of-play.md).
internal import CEGL
import KioskCore

/// Reads a thumbnail of what a render target holds: the whole target blitted (`glBlitFramebuffer`, bilinear) into
/// a framebuffer of `size` pixels, and those few bytes read back (32×18: 2,304 bytes, not a full frame's 8 MB). Use
/// on the render thread only, between a frame's draw and its present (the frame that goes to the screen).
public final class ThumbnailReadback {
    private let context: GLContext
    /// The thumbnail's size.
    public let size: PixelSize
    /// The small framebuffer, made at the first read.
    private var small: OffscreenTarget?

    /// Thumbnails of `size` pixels, drawn in `context`.
    public init(context: GLContext, size: PixelSize) {
        self.context = context
        self.size = size
    }

    /// The thumbnail of what `source` holds now, rows top-down.
    public func read(_ source: RenderTarget) throws -> RGBAImage {
        let target = try small ?? OffscreenTarget(context: context, size: size)
        small = target
        glDisable(GLenum(GL_SCISSOR_TEST))  // a blit is clipped by the scissor like a draw
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), source.framebufferName)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), target.framebufferName)
        glBlitFramebuffer(0, 0, GLint(source.size.width), GLint(source.size.height), 0, 0, GLint(size.width), GLint(size.height),
                          GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_LINEAR))
        let code = glGetError()
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), source.framebufferName)
        if code != GLenum(GL_NO_ERROR) {
            while glGetError() != GLenum(GL_NO_ERROR) {}
            throw RenderError(call: "glBlitFramebuffer(\(source.size) to \(size))", reason: "GL error 0x\(String(code, radix: 16))")
        }
        return try target.readPixels()
    }
}
