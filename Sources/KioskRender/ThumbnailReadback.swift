/// A small downscaled copy of a frame read back without stalling the frame loop: the proof-of-display thumbnail
/// (docs/proof-of-play.md).
internal import CEGL
import KioskCore

/// Reads a thumbnail of what a render target holds: the whole target blitted (`glBlitFramebuffer`, bilinear) into
/// a framebuffer of `size` pixels, whose few bytes (32×18: 2,304, not a full frame's 8 MB) are read into a pixel
/// buffer object behind a fence (`begin`), and taken a frame or more later, once the GPU has written them
/// (`collect`): a `glReadPixels` into memory would make the CPU wait for every command before it, the frame's
/// whole draw, on the frame loop. Use on the render thread only, between a frame's draw and its present (the frame
/// that goes to the screen).
public final class ThumbnailReadback {
    private let context: GLContext
    /// The thumbnail's size.
    public let size: PixelSize
    /// The small framebuffer, made at the first read.
    private var small: OffscreenTarget?
    /// The pixel buffer object the bytes are read into (0 until the first read).
    private var buffer: GLuint = 0
    /// The fence after a readback begun and not yet collected.
    private var fence: GLsync?

    /// Thumbnails of `size` pixels, drawn in `context`.
    public init(context: GLContext, size: PixelSize) {
        self.context = context
        self.size = size
    }

    deinit {
        context.ensureCurrent()
        if let fence { glDeleteSync(fence) }
        if buffer != 0 { glDeleteBuffers(1, &buffer) }
    }

    /// Whether a readback is begun and not collected yet.
    public var isReading: Bool { fence != nil }

    /// Begins reading the thumbnail of what `source` holds now (the blit and the read are queued behind the frame's
    /// draw); nothing when one is under way already.
    public func begin(_ source: RenderTarget) throws {
        guard fence == nil else { return }
        let target = try small ?? OffscreenTarget(context: context, size: size)
        small = target
        glDisable(GLenum(GL_SCISSOR_TEST))  // a blit is clipped by the scissor like a draw
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), source.framebufferName)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), target.framebufferName)
        glBlitFramebuffer(0, 0, GLint(source.size.width), GLint(source.size.height), 0, 0, GLint(size.width), GLint(size.height),
                          GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_LINEAR))
        try check("glBlitFramebuffer(\(source.size) to \(size))", source)
        if buffer == 0 {
            glGenBuffers(1, &buffer)
            glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
            glBufferData(GLenum(GL_PIXEL_PACK_BUFFER), GLsizeiptr(byteCount), nil, GLenum(GL_STREAM_READ))
        }
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), target.framebufferName)
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        glReadPixels(0, 0, GLsizei(size.width), GLsizei(size.height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
        try check("glReadPixels(\(size)) into a pixel buffer", source)
        fence = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
        if fence == nil { throw RenderError(call: "glFenceSync", reason: "no fence was made") }
    }

    /// The thumbnail begun by `begin`, rows top-down, once the GPU has written it; nil while it has not (ask again at
    /// a later frame) or when none is begun. `waiting` seconds (0: not at all) is how long to wait for it.
    public func collect(waiting: Double = 0) throws -> RGBAImage? {
        guard let fence else { return nil }
        let nanoseconds = GLuint64(min(max(waiting, 0), 1) * 1e9)
        let result = glClientWaitSync(fence, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), nanoseconds)
        if result == GLenum(GL_TIMEOUT_EXPIRED) { return nil }
        glDeleteSync(fence)
        self.fence = nil
        if result == GLenum(GL_WAIT_FAILED) { throw RenderError(call: "glClientWaitSync", reason: "the wait failed") }
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
        defer { glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0) }
        guard let mapped = glMapBufferRange(GLenum(GL_PIXEL_PACK_BUFFER), 0, GLsizeiptr(byteCount), GLbitfield(GL_MAP_READ_BIT)) else {
            throw RenderError(call: "glMapBufferRange(\(byteCount) bytes)", reason: "GL error 0x\(String(glGetError(), radix: 16))")
        }
        let stride = size.width * 4
        let bottomUp = UnsafeRawBufferPointer(start: mapped, count: byteCount)
        var topDown = [UInt8](repeating: 0, count: byteCount)
        for row in 0..<size.height {
            let from = (size.height - 1 - row) * stride
            topDown.replaceSubrange(row * stride..<(row + 1) * stride, with: bottomUp[from..<from + stride])
        }
        glUnmapBuffer(GLenum(GL_PIXEL_PACK_BUFFER))
        return RGBAImage(size: size, pixels: topDown)
    }

    /// Gives up the readback under way (its bytes are never looked at); the next `begin` starts a new one.
    public func cancel() {
        if let fence { glDeleteSync(fence) }
        fence = nil
    }

    /// The bytes of one thumbnail, RGBA.
    private var byteCount: Int { size.width * size.height * 4 }

    /// Throws GL's error after `call`, if any, with `source` bound again for drawing.
    private func check(_ call: String, _ source: RenderTarget) throws {
        let code = glGetError()
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), source.framebufferName)
        guard code != GLenum(GL_NO_ERROR) else { return }
        while glGetError() != GLenum(GL_NO_ERROR) {}
        throw RenderError(call: call, reason: "GL error 0x\(String(code, radix: 16))")
    }
}
