/// An offscreen framebuffer with an RGBA8 colour texture, read back as an RGBAImage (headless output, snapshots).
internal import CEGL
import KioskCore

/// A framebuffer object and its colour texture. Create, use and drop it on the render thread only.
public final class OffscreenTarget: RenderTarget {
    /// The context the names belong to.
    let context: GLContext
    /// The colour attachment (nearest filtering unless made otherwise: the final pass samples it 1:1).
    let texture: Texture
    /// The GL framebuffer name.
    public let framebufferName: UInt32
    /// Its size in pixels.
    public var size: PixelSize { texture.size }

    /// A framebuffer of `size` pixels.
    public convenience init(context: GLContext, size: PixelSize) throws {
        try self.init(context: context, size: size, filter: GL_NEAREST)
    }

    /// A framebuffer of `size` pixels whose texture is sampled with `filter` (GL_NEAREST or GL_LINEAR).
    init(context: GLContext, size: PixelSize, filter: Int32) throws {
        let texture = try Texture(context: context, size: size, filter: filter)
        var fbo: GLuint = 0
        glGenFramebuffers(1, &fbo)
        GLObjectCount.add(.framebuffer)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), fbo)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D),
                               texture.name, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            glDeleteFramebuffers(1, &fbo)
            GLObjectCount.add(.framebuffer, -1)
            throw RenderError(call: "glCheckFramebufferStatus(\(size))",
                              reason: "incomplete framebuffer 0x\(String(status, radix: 16))")
        }
        self.context = context
        self.texture = texture
        self.framebufferName = fbo
    }

    deinit {
        context.ensureCurrent()
        var fbo = framebufferName
        glDeleteFramebuffers(1, &fbo)
        GLObjectCount.add(.framebuffer, -1)
    }
}
