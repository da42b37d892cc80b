/// Single-channel 8-bit textures for text: the GPU copy of a glyph atlas (refreshed only in the rows that changed)
/// and the coverage target a block of text is gathered into before it is drawn.
internal import CEGL
import KioskCore

/// A GL_R8 texture, clamped to edge; the only owner of its GL name. Render thread only.
final class CoverageTexture {
    /// The context the name belongs to.
    let context: GLContext
    /// The GL texture name.
    let name: GLuint
    /// The storage's size.
    let size: PixelSize

    /// Uninitialised storage of `size` with min/mag `filter` (GL_LINEAR or GL_NEAREST).
    init(context: GLContext, size: PixelSize, filter: Int32) throws {
        guard size.width > 0, size.height > 0 else {
            throw RenderError(call: "glTexImage2D(R8)", reason: "empty texture size \(size)")
        }
        var name: GLuint = 0
        glGenTextures(1, &name)
        guard name != 0 else { throw RenderError(call: "glGenTextures", reason: "no texture name returned") }
        GLObjectCount.add(.texture)
        self.context = context
        self.name = name
        self.size = size
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filter)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filter)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_R8, GLsizei(size.width), GLsizei(size.height), 0,
                     GLenum(GL_RED), GLenum(GL_UNSIGNED_BYTE), nil)
        if let error = context.glErrorCheck("glTexImage2D(R8 \(size))") { throw error }
    }

    deinit {
        context.ensureCurrent()
        var n = name
        glDeleteTextures(1, &n)
        GLObjectCount.add(.texture, -1)
    }

    /// Copies `rows` of `pixels` (one byte a pixel, `size.width` a row, rows top-down) into the same rows.
    func upload(rows: Range<Int>, of pixels: [UInt8]) throws {
        let rows = rows.clamped(to: 0..<size.height)
        guard !rows.isEmpty, pixels.count == size.width * size.height else { return }
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        pixels.withUnsafeBytes { bytes in
            glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, GLint(rows.lowerBound), GLsizei(size.width), GLsizei(rows.count),
                            GLenum(GL_RED), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress.map { $0 + rows.lowerBound * size.width })
        }
        if let error = context.glErrorCheck("glTexSubImage2D(R8 rows \(rows))") { throw error }
    }

    /// Binds it to texture unit `unit`.
    func bind(unit: Int) {
        glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
    }
}

/// The GPU copy of one glyph atlas, brought up to a snapshot's generation by uploading only the rows changed since.
final class AtlasTexture {
    /// The atlas it copies.
    let atlasID: Int
    /// The generation it holds.
    private(set) var generation: Int
    /// The texture (nearest filtering: glyphs are copied texel for texel).
    private(set) var texture: CoverageTexture
    /// Rows uploaded so far (for tests: an unchanged atlas uploads nothing).
    private(set) var uploadedRows = 0

    /// A copy of `image`.
    init(context: GLContext, image: GlyphAtlasImage) throws {
        atlasID = image.atlasID
        texture = try CoverageTexture(context: context, size: image.size, filter: GL_NEAREST)
        generation = image.generation
        try texture.upload(rows: 0..<image.size.height, of: image.pixels)
        uploadedRows = image.size.height
    }

    /// Brings the copy up to `image` (same atlas): nothing when current, the changed rows, or all of it when the
    /// size changed or the history does not reach back to this copy.
    func update(to image: GlyphAtlasImage) throws {
        if image.size != texture.size {
            texture = try CoverageTexture(context: texture.context, size: image.size, filter: GL_NEAREST)
            try texture.upload(rows: 0..<image.size.height, of: image.pixels)
            uploadedRows += image.size.height
        } else if let rows = image.rowsChanged(since: generation) {
            try texture.upload(rows: rows, of: image.pixels)
            uploadedRows += rows.count
        }
        generation = image.generation
    }
}

/// A framebuffer with an R8 colour texture (linear filtering) that a block of text's glyph coverage is gathered into.
final class CoverageTarget {
    /// The colour attachment.
    let texture: CoverageTexture
    /// The GL framebuffer name.
    let framebufferName: GLuint

    /// A target of `size` pixels.
    init(context: GLContext, size: PixelSize) throws {
        let texture = try CoverageTexture(context: context, size: size, filter: GL_LINEAR)
        var fbo: GLuint = 0
        glGenFramebuffers(1, &fbo)
        GLObjectCount.add(.framebuffer)
        var previous: GLint = 0
        glGetIntegerv(GLenum(GL_FRAMEBUFFER_BINDING), &previous)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), fbo)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture.name, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(previous))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            glDeleteFramebuffers(1, &fbo)
            GLObjectCount.add(.framebuffer, -1)
            throw RenderError(call: "glCheckFramebufferStatus(R8 \(size))",
                              reason: "incomplete framebuffer 0x\(String(status, radix: 16))")
        }
        self.texture = texture
        self.framebufferName = fbo
    }

    deinit {
        texture.context.ensureCurrent()
        var fbo = framebufferName
        glDeleteFramebuffers(1, &fbo)
        GLObjectCount.add(.framebuffer, -1)
    }

    /// Its size.
    var size: PixelSize { texture.size }
}
