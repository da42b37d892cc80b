/// Draws a `TextDrawing`: its box (a solid rect), then its glyphs gathered from the atlas into a coverage target in
/// one draw call (blended with MAX where glyphs meet), then that coverage made into fill over outline over soft
/// shadow by text.frag, premultiplied, over the canvas. Gathering first keeps one glyph's outline from covering
/// its neighbour's fill.
internal import CEGL
import KioskCore

extension PassRegistry {
    /// The glyph step: vertex and fragment shader.
    public static let textGlyphShaders = (vertex: "text_glyphs.vert", fragment: "text_glyphs.frag")
    /// The look step (with the full-screen vertex shader).
    public static let textShader = "text.frag"
    /// Every text shader file.
    public static var textShaders: [String] { [textGlyphShaders.vertex, textGlyphShaders.fragment, textShader] }
}

/// The text overlay pass, owned by a `Renderer`. Render thread only.
final class TextPass {
    let context: GLContext
    /// GPU copies of the atlases drawn lately, most recently used last (a few: one atlas is the normal case).
    private var atlases: [AtlasTexture] = []
    /// The coverage target, grown to the largest block drawn.
    private var coverage: CoverageTarget?
    /// Blocks made into their look, kept while frames draw them; and those the frame being drawn used.
    private var looks: [LookKey: OffscreenTarget] = [:]
    private var drawnLooks: Set<LookKey> = []
    private var drawnBefore: Set<LookKey> = []
    /// The glyph-step program.
    private var glyphProgram: Program?
    /// The vertex array and buffer of the glyph quads.
    private var vertexArray: GLuint = 0, vertexBuffer: GLuint = 0
    /// How many atlas copies are kept.
    private let atlasLimit = 4
    /// The largest texture side GL takes, asked once: no text texture is made larger.
    private(set) lazy var maxTextureSide = context.maxTextureSize
    /// The largest side of a texture this pass made (for tests).
    private(set) var largestTextureSide = 0

    init(context: GLContext) {
        self.context = context
    }

    deinit {
        context.ensureCurrent()
        if vertexBuffer != 0 { glDeleteBuffers(1, &vertexBuffer) }
        if vertexArray != 0 { glDeleteVertexArrays(1, &vertexArray) }
    }

    /// Rows of atlas uploaded so far, over every atlas (for tests).
    var uploadedAtlasRows: Int { atlases.reduce(0) { $0 + $1.uploadedRows } }

    /// Draws `text` as `overlay` says (its opacity and blend; its rect is the drawing's area) on a `canvas`.
    func draw(_ text: TextDrawing, overlay: RenderOverlay, canvas: PixelSize, renderer: Renderer) throws {
        let opacity = min(max(overlay.opacity, 0), 1)
        if let box = text.style.background, renderer.use(CanvasRect(text.box), blend: overlay.blend, canvas: canvas) {
            let program = try renderer.program(fragmentShader: PassRegistry.solidOverlayShader)
            program.use()
            let c = PremultipliedColor(box.color, alpha: box.opacity)
            program.set("u_color", c.red, c.green, c.blue, c.alpha)
            program.set("u_opacity", opacity)
            glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        }
        // Only the part on the canvas is made (the canvas is a texture, so that part fits any texture).
        let area = Self.visible(text.area, canvas: canvas, maxSide: maxTextureSide)
        guard !text.quads.isEmpty, !area.isEmpty else { return }
        // The look is the same wherever the block is: keyed by its glyphs relative to its area, a block that moves
        // (a badge on a scrolling tile) is copied to its new place, not made again.
        let key = LookKey(atlasID: text.atlas.atlasID, generation: text.atlas.generation,
                          quads: text.quads.map { GlyphQuad(source: $0.source, destination: $0.destination.offsetBy(-area.x, -area.y)) },
                          size: area.size, style: text.style)
        let look: OffscreenTarget
        if let made = looks[key] {
            look = made
        } else {
            look = try makeLook(text, area: area, renderer: renderer)
            looks[key] = look
        }
        drawnLooks.insert(key)
        guard renderer.use(CanvasRect(area), blend: overlay.blend, canvas: canvas) else { return }
        let program = try renderer.program(fragmentShader: PassRegistry.textureOverlayShader)
        program.use()
        look.texture.bind(unit: 0)
        program.set("u_picture", int: 0)
        program.set("u_opacity", opacity)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }

    /// The part of `area` on a `canvas`, at most `maxSide` pixels a side (empty when none is on it).
    static func visible(_ area: PixelRect, canvas: PixelSize, maxSide: Int) -> PixelRect {
        let x0 = max(area.x, 0), y0 = max(area.y, 0)
        let x1 = min(area.maxX, canvas.width, x0 + maxSide), y1 = min(area.maxY, canvas.height, y0 + maxSide)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// What makes a block's look: its glyphs (in their atlas as it was, placed relative to its area), its size and
    /// its style.
    private struct LookKey: Hashable {
        var atlasID: Int
        var generation: Int
        var quads: [GlyphQuad]
        var size: PixelSize
        var style: TextStyle
    }

    /// A frame was drawn: the looks of blocks that neither it nor the frame before drew are let go (their textures
    /// freed), so a look survives one frame without text (a snapshot, a benchmark's plain frame) in between.
    func frameDrawn() {
        let keep = drawnLooks.union(drawnBefore)
        if looks.count != keep.count { looks = looks.filter { keep.contains($0.key) } }
        drawnBefore = drawnLooks
        drawnLooks.removeAll(keepingCapacity: true)
    }

    /// The block's look, premultiplied, in an area-sized texture whose row 0 is its top (drawn like any overlay
    /// texture): gathered from the atlas, then fill over outline over shadow, once; later frames only copy it.
    private func makeLook(_ text: TextDrawing, area: PixelRect, renderer: Renderer) throws -> OffscreenTarget {
        var previous: GLint = 0
        glGetIntegerv(GLenum(GL_FRAMEBUFFER_BINDING), &previous)
        defer { glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(previous)) }
        let coverage = try gather(text, area: area)
        try admit(area.size, what: "text look")
        let look = try OffscreenTarget(context: context, size: area.size)  // leaves framebuffer 0 bound
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), look.framebufferName)
        glViewport(0, 0, GLsizei(area.width), GLsizei(area.height))
        glDisable(GLenum(GL_BLEND))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        let program = try renderer.program(fragmentShader: PassRegistry.textShader)
        program.use()
        coverage.texture.bind(unit: 0)
        program.set("u_coverage", int: 0)
        program.set("u_areaSize", Double(area.width), Double(area.height))
        program.set("u_coverageSize", Double(coverage.size.width), Double(coverage.size.height))
        program.set("u_flipRows", 1.0)
        let style = text.style
        program.set("u_fillColor", style.color.red, style.color.green, style.color.blue)
        program.set("u_outlineColor", style.outlineColor.red, style.outlineColor.green, style.outlineColor.blue)
        program.set("u_outlineWidth", max(style.outlineWidth ?? 0, 0))
        let shadow = style.shadow
        let shadowColor = shadow?.color ?? .black
        program.set("u_shadowColor", shadowColor.red, shadowColor.green, shadowColor.blue)
        program.set("u_shadowOpacity", shadow?.opacity ?? 0)
        program.set("u_shadowOffset", shadow?.offset ?? 0, shadow?.offset ?? 0)
        program.set("u_shadowSoftness", shadow?.softness ?? 0)
        program.set("u_opacity", 1.0)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        if let error = context.glErrorCheck("TextPass look (\(area))") { throw error }
        return look
    }

    /// The block's glyphs copied from the atlas into the coverage target (area-sized corner, rest cleared), in one
    /// draw call; the framebuffer bound before is bound again.
    private func gather(_ text: TextDrawing, area: PixelRect) throws -> CoverageTarget {
        let atlas = try atlasTexture(text.atlas)
        let target = try coverageTarget(fitting: area.size)
        let program = try glyphs()
        var previous: GLint = 0
        glGetIntegerv(GLenum(GL_FRAMEBUFFER_BINDING), &previous)
        defer { glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(previous)) }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), target.framebufferName)
        glViewport(0, 0, GLsizei(area.width), GLsizei(area.height))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glClearColor(0, 0, 0, 0)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glEnable(GLenum(GL_BLEND))
        glBlendEquation(GLenum(GL_MAX))
        glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE))
        defer { glBlendEquation(GLenum(GL_FUNC_ADD)) }
        program.use()
        atlas.texture.bind(unit: 0)
        program.set("u_atlas", int: 0)
        program.set("u_areaSize", Double(area.width), Double(area.height))
        // Two triangles a glyph: (x, y) in the area's pixels, (u, v) in the atlas's.
        var vertices: [GLfloat] = []
        vertices.reserveCapacity(text.quads.count * 24)
        for quad in text.quads {
            let d = quad.destination.offsetBy(-area.x, -area.y), s = quad.source
            let x0 = GLfloat(d.x), y0 = GLfloat(d.y), x1 = GLfloat(d.maxX), y1 = GLfloat(d.maxY)
            let u0 = GLfloat(s.x), v0 = GLfloat(s.y), u1 = GLfloat(s.maxX), v1 = GLfloat(s.maxY)
            vertices += [x0, y0, u0, v0, x1, y0, u1, v0, x0, y1, u0, v1,
                         x1, y0, u1, v0, x1, y1, u1, v1, x0, y1, u0, v1]
        }
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        vertices.withUnsafeBytes { bytes in
            glBufferData(GLenum(GL_ARRAY_BUFFER), bytes.count, bytes.baseAddress, GLenum(GL_STREAM_DRAW))
        }
        glDrawArrays(GLenum(GL_TRIANGLES), 0, GLsizei(text.quads.count * 6))
        glBindVertexArray(0)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        if let error = context.glErrorCheck("TextPass glyphs (\(text.quads.count) quads)") { throw error }
        return target
    }

    /// The atlas copy for `image`, made or brought up to date; the least recently used copy goes past the limit.
    private func atlasTexture(_ image: GlyphAtlasImage) throws -> AtlasTexture {
        if let i = atlases.firstIndex(where: { $0.atlasID == image.atlasID }) {
            let found = atlases.remove(at: i)
            atlases.append(found)
            try admit(image.size, what: "glyph atlas")
            try found.update(to: image)
            return found
        }
        try admit(image.size, what: "glyph atlas")
        let made = try AtlasTexture(context: context, image: image)
        atlases.append(made)
        if atlases.count > atlasLimit { atlases.removeFirst() }
        return made
    }

    /// The coverage target, remade larger (in steps of 256 pixels) when `size` does not fit.
    private func coverageTarget(fitting size: PixelSize) throws -> CoverageTarget {
        if let coverage, coverage.size.width >= size.width, coverage.size.height >= size.height { return coverage }
        let round = { [maxTextureSide] (n: Int) in min((n + 255) / 256 * 256, max(n, maxTextureSide)) }
        let grown = PixelSize(width: round(max(size.width, coverage?.size.width ?? 0)),
                              height: round(max(size.height, coverage?.size.height ?? 0)))
        try admit(grown, what: "text coverage")
        coverage = nil
        let made = try CoverageTarget(context: context, size: grown)
        coverage = made
        return made
    }

    /// Throws, before GL sees it, when a texture of `size` would be over `GL_MAX_TEXTURE_SIZE`; else notes its size.
    private func admit(_ size: PixelSize, what: String) throws {
        guard size.width <= maxTextureSide, size.height <= maxTextureSide else {
            throw RenderError(call: "TextPass(\(what) \(size))", reason: "over GL_MAX_TEXTURE_SIZE \(maxTextureSide)")
        }
        largestTextureSide = max(largestTextureSide, size.width, size.height)
    }

    /// The glyph-step program and its vertex array, made on first use.
    private func glyphs() throws -> Program {
        if let glyphProgram { return glyphProgram }
        let program = try Program(context: context, vertexShader: PassRegistry.textGlyphShaders.vertex,
                                  fragmentShader: PassRegistry.textGlyphShaders.fragment)
        glGenVertexArrays(1, &vertexArray)
        glGenBuffers(1, &vertexBuffer)
        guard vertexArray != 0, vertexBuffer != 0 else {
            throw RenderError(call: "glGenVertexArrays/glGenBuffers", reason: "no name returned")
        }
        glBindVertexArray(vertexArray)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        let stride = GLsizei(4 * MemoryLayout<GLfloat>.size)
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, nil)
        glEnableVertexAttribArray(1)
        glVertexAttribPointer(1, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride,
                              UnsafeRawPointer(bitPattern: 2 * MemoryLayout<GLfloat>.size))
        glBindVertexArray(0)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
        glyphProgram = program
        return program
    }
}

extension CanvasRect {
    /// The same rectangle from a `PixelRect`.
    init(_ rect: PixelRect) {
        self.init(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }
}
