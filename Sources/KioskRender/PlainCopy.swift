/// The one-pass path: a layer that only places an opaque RGBA picture 1:1 at whole pixels (no effect, transition,
/// fade, scaling or turn) is copied into the target with `glBlitFramebuffer` instead of being drawn by the layer
/// shader. Video frames (`VideoStreamReader.rgbaRows`) and picture layers' stills (`Texture(layerImage:)`) are
/// stored in the framebuffer's row order, so the copy is not flipped: llvmpipe does it as a memcpy (0.7 ms for
/// 1080p against the flat pass's 18 ms, and a still's first frame builds no layer program); on a GPU it is the copy
/// engine's. (A flipped copy would go through llvmpipe's blitter, whose first use costs 25-35 ms.) The shader
/// would have drawn the same texels there: `PlainCopyTests` compares both.
internal import CEGL
import KioskCore

/// Plain copies of pictures placed 1:1.
enum PlainCopy {
    /// What a copy reads: a framebuffer with the picture's texture attached, rows stored bottom-up.
    struct Source {
        /// The read framebuffer.
        var framebuffer: GLuint
        /// The picture's size.
        var size: PixelSize
    }

    /// Where a copy reads and writes, in GL's bottom-up pixel coordinates.
    struct Placement: Equatable {
        /// The frame's texels read (rows counted from the frame's stored first row, which is its bottom).
        var source: PixelRect
        /// The target's pixels written.
        var destination: PixelRect
        /// Whether the frame leaves part of the layer's rect to the background.
        var leavesBackground: Bool
    }

    /// Whole-pixel tolerance: a mapping this close to 1:1 at whole pixels samples texel centres exactly.
    static let tolerance = 1e-3

    /// Where a picture of `picture` size placed by `transform` in `rect` of a canvas `canvasHeight` pixels high
    /// lands, when that is 1:1 at whole pixels and some of it shows; nil otherwise (the shader draws it). Source
    /// rows count from the picture's bottom, as stored.
    static func placement(transform: UVTransform, picture: PixelSize, rect: CanvasRect, canvasHeight: Int) -> Placement? {
        guard picture.width > 0, picture.height > 0, rect.width > 0, rect.height > 0,
              transform.scaleX > 0, transform.scaleY > 0 else { return nil }
        // canvas uv = (picture uv - offset) / scale, so the picture spans rect/scale pixels from -offset of that.
        let shownWidth = Double(rect.width) / transform.scaleX, shownHeight = Double(rect.height) / transform.scaleY
        let left = -transform.offsetX * shownWidth, top = -transform.offsetY * shownHeight
        guard abs(shownWidth - Double(picture.width)) < tolerance, abs(shownHeight - Double(picture.height)) < tolerance,
              abs(left - left.rounded()) < tolerance, abs(top - top.rounded()) < tolerance,
              abs(left) < 1e9, abs(top) < 1e9 else { return nil }
        let x = rect.x + Int(saturating: left), y = rect.y + Int(saturating: top)
        let x0 = max(x, rect.x), x1 = min(x + picture.width, rect.x + rect.width)
        let y0 = max(y, rect.y), y1 = min(y + picture.height, rect.y + rect.height)
        guard x1 > x0, y1 > y0 else { return nil }
        let fromTop = y0 - y
        let source = PixelRect(x: x0 - x, y: picture.height - (fromTop + (y1 - y0)), width: x1 - x0, height: y1 - y0)
        let destination = PixelRect(x: x0, y: canvasHeight - y1, width: x1 - x0, height: y1 - y0)
        let covers = x0 == rect.x && y0 == rect.y && x1 == rect.x + rect.width && y1 == rect.y + rect.height
        return Placement(source: source, destination: destination, leavesBackground: !covers)
    }

    /// The source of `picture` for a copy: a video frame or a still stored for copying.
    private static func source(_ picture: any LayerPicture) -> Source? {
        if let video = picture as? VideoTexture { return video.plainCopySource() }
        if let still = picture as? Texture { return still.plainCopySource() }
        return nil
    }

    /// Copies `layer` into `target` when it is a plain copy: a flat, unfaded layer of a picture stored for copying
    /// (opaque, rows bottom-up), with no effect or transition, 1:1 at whole pixels. False, with nothing drawn,
    /// otherwise.
    static func draw(_ layer: RenderLayer, rect: CanvasRect, background bg: RGBColor, target: RenderTarget,
                     renderer: Renderer) -> Bool {
        guard layer.opacity >= 1, layer.effect is NoEffect, layer.transition.transition is NoTransition,
              let flat = layer.pass as? FlatPass,
              let where_ = placement(transform: flat.transform, picture: layer.texture.size, rect: rect,
                                     canvasHeight: target.size.height),
              let source = source(layer.texture), source.size == layer.texture.size else { return false }
        target.bind()
        if where_.leavesBackground {
            _ = renderer.use(rect, blend: layer.blend, canvas: target.size)
            glEnable(GLenum(GL_SCISSOR_TEST))
            glScissor(GLint(rect.x), GLint(target.size.height - rect.y - rect.height), GLsizei(rect.width),
                      GLsizei(rect.height))
            glClearColor(GLfloat(bg.red), GLfloat(bg.green), GLfloat(bg.blue), 1)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
            glDisable(GLenum(GL_SCISSOR_TEST))
        }
        let s = where_.source, d = where_.destination
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), source.framebuffer)
        glBlitFramebuffer(GLint(s.x), GLint(s.y), GLint(s.x + s.width), GLint(s.y + s.height),
                          GLint(d.x), GLint(d.y), GLint(d.x + d.width), GLint(d.y + d.height),
                          GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        target.bind()
        if renderer.context.glErrorCheck("PlainCopy \(s) to \(d)") != nil {
            // a driver that refuses the copy (a window surface it cannot blit into): the shader draws from now on
            renderer.allowsPlainCopy = false
            return false
        }
        return true
    }

    /// `existing`, or a new framebuffer with `texture` attached for reading (counted; the caller deletes it); nil
    /// when the driver cannot read the texture so (the shader then draws the picture).
    static func readFramebuffer(_ existing: GLuint, texture: GLuint) -> GLuint? {
        if existing != 0 { return existing }
        var fbo: GLuint = 0
        glGenFramebuffers(1, &fbo)
        guard fbo != 0 else { return nil }
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), fbo)
        glFramebufferTexture2D(GLenum(GL_READ_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_READ_FRAMEBUFFER))
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), 0)
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            glDeleteFramebuffers(1, &fbo)
            return nil
        }
        GLObjectCount.add(.framebuffer)
        return fbo
    }

    /// Deletes a framebuffer made by `readFramebuffer` (0: none was made).
    static func deleteReadFramebuffer(_ name: GLuint) {
        guard name != 0 else { return }
        var fbo = name
        glDeleteFramebuffers(1, &fbo)
        GLObjectCount.add(.framebuffer, -1)
    }
}
