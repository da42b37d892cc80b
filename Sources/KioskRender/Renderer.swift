/// Draws a RenderFrame: clear to the background, the picture layers (each with its pass, effect and transition, or
/// copied when it is an unscaled video frame), then the overlays, each in its rect and in z-order, then, when the output is rotated, the final pass turning the
/// canvas onto the target.
internal import CEGL
import KioskCore

/// The frame renderer. Create, use and drop it on the render thread only.
public final class Renderer {
    /// The GL context.
    public let context: GLContext
    /// Programs by fragment shader file name, built on first use.
    private var programs: [String: Program] = [:]
    /// The canvas drawn before rotation (kept while its size stays the same).
    private var canvas: OffscreenTarget?
    /// Draws text overlays; keeps the glyph atlas's texture across frames.
    private(set) lazy var text = TextPass(context: context)
    /// Reduces minified flat layers first; keeps their reduced copies across frames.
    let minify = MinifyPass()
    /// Whether an unscaled video frame may be copied instead of drawn (`PlainCopy`); tests turn it off to compare.
    public var allowsPlainCopy = true
    /// How many layers were drawn as plain copies.
    public private(set) var plainCopyCount = 0
    /// Where an overlay that could not be drawn is said (once while it keeps failing the same way).
    private let log: Log
    /// Why the last overlay was dropped, so a failure repeated every frame is said once.
    private var lastOverlayFailure: String?
    /// How many overlays were dropped (left out of their frame) because drawing them failed.
    public private(set) var droppedOverlayCount = 0

    /// A renderer on `context` (which must be current on this thread), saying dropped overlays on `log`.
    public init(context: GLContext, log: Log = .shared) throws {
        self.context = context
        self.log = log
        glDisable(GLenum(GL_DEPTH_TEST))
        glDisable(GLenum(GL_CULL_FACE))
        if let error = context.glErrorCheck("Renderer.init") { throw error }
    }

    /// The program for a fragment shader (with the full-screen vertex shader), compiled once.
    func program(fragmentShader: String) throws -> Program {
        if let made = programs[fragmentShader] { return made }
        let made = try Program(context: context, vertexShader: PassRegistry.vertexShader,
                               fragmentShader: fragmentShader)
        programs[fragmentShader] = made
        return made
    }

    /// The program composed of fragment `pieces` (with the full-screen vertex shader), compiled once.
    func program(fragmentPieces pieces: [String]) throws -> Program {
        let key = pieces.joined(separator: "+")
        if let made = programs[key] { return made }
        let made = try Program(context: context, vertexShader: PassRegistry.vertexShader, fragmentPieces: pieces)
        programs[key] = made
        return made
    }

    /// The layer program composed for a projection, an effect and a transition, compiled once.
    func program(pass: any ShaderPass.Type, effect: any ShaderEffect.Type,
                 transition: any ShaderTransition.Type = NoTransition.self,
                 sampler: [String] = PassRegistry.rgbaSampler) throws -> Program {
        try program(fragmentPieces: PassRegistry.pieces(pass: pass, effect: effect, transition: transition, sampler: sampler))
    }

    /// Draws `frame` into `target`. With a rotation the frame is drawn on a canvas of the rotated size first.
    public func draw(_ frame: RenderFrame, into target: RenderTarget, rotation: Rotation = .none) throws {
        if rotation == .none {
            try drawCanvas(frame, into: target)
        } else {
            let size = rotation.canvasSize(forScreen: target.size)
            let canvas = try canvasTarget(size: size)
            try drawCanvas(frame, into: canvas)
            try drawFinal(canvas, into: target, rotation: rotation)
        }
        text.frameDrawn()
        minify.frameDrawn()
        if let error = context.glErrorCheck("Renderer.draw") { throw error }
    }

    /// The offscreen canvas of `size`, reused while the size stays the same.
    private func canvasTarget(size: PixelSize) throws -> OffscreenTarget {
        if let canvas, canvas.size == size { return canvas }
        canvas = nil
        let made = try OffscreenTarget(context: context, size: size)
        canvas = made
        return made
    }

    /// Clears to the background and blends each picture layer, then each overlay, in.
    private func drawCanvas(_ frame: RenderFrame, into target: RenderTarget) throws {
        target.bind()
        let bg = frame.background
        glClearColor(GLfloat(bg.red), GLfloat(bg.green), GLfloat(bg.blue), 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        for item in frame.drawOrder {
            switch item {
            case .picture(let layer): try drawPicture(layer, background: bg, target: target)
            case .overlay(let overlay):
                do {
                    try drawOverlay(overlay, canvas: target.size)
                } catch {
                    dropOverlay(error, target: target)
                }
            }
        }
        glDisable(GLenum(GL_BLEND))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glViewport(0, 0, GLsizei(target.size.width), GLsizei(target.size.height))
    }

    /// An overlay failed (a GL error, a texture GL can't hold): it is left out of the frame with one error line,
    /// GL's error flags are cleared and the target bound again, so the pictures and other overlays go on.
    private func dropOverlay(_ error: any Error, target: RenderTarget) {
        _ = context.glErrorCheck("overlay")  // clears the flags
        glBlendEquation(GLenum(GL_FUNC_ADD))
        target.bind()
        droppedOverlayCount += 1
        let why = "\(error)"
        if why != lastOverlayFailure { log.error("render: overlay left out: \(why)") }
        lastOverlayFailure = why
    }

    /// One picture layer in its rect: the rect is the canvas its pass, effect and transition see. A minified flat
    /// layer is drawn from its reduced copy.
    private func drawPicture(_ layer: RenderLayer, background bg: RGBColor, target: RenderTarget) throws {
        let canvas = target.size
        let rect = layer.rect ?? CanvasRect(canvas)
        guard rect.width > 0, rect.height > 0 else { return }
        if allowsPlainCopy, PlainCopy.draw(layer, rect: rect, background: bg, target: target, renderer: self) {
            plainCopyCount += 1
            return
        }
        var layer = layer
        if let reduced = try minify.reduce(layer, rect: rect.size, renderer: self) {
            layer.texture = reduced
            target.bind()
        }
        guard use(rect, blend: layer.blend, canvas: canvas) else { return }
        let program = try program(pass: type(of: layer.pass), effect: type(of: layer.effect),
                                  transition: type(of: layer.transition.transition), sampler: PassRegistry.sampler(layer.texture.samplerPieces, pass: type(of: layer.pass)))
        program.use()
        layer.texture.bind(to: program)
        program.set("u_background", bg.red, bg.green, bg.blue)
        program.set("u_opacity", min(max(layer.opacity, 0), 1))
        program.set("u_transitionRole", int: layer.transition.role.rawValue)
        program.set("u_progress", min(max(layer.transition.progress, 0), 1))
        let context = PassContext(canvas: rect.size, picture: layer.texture.size)
        program.set("u_canvasSize", Double(context.canvas.width), Double(context.canvas.height))
        program.set("u_pictureSize", Double(context.picture.width), Double(context.picture.height))
        layer.effect.setUniforms(program, context: context)
        layer.transition.transition.setUniforms(program, context: context)
        layer.pass.setUniforms(program, context: context)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }

    /// One overlay: a solid colour or a texture stretched over its rect.
    private func drawOverlay(_ overlay: RenderOverlay, canvas: PixelSize) throws {
        if case .text(let drawing) = overlay.content { return try text.draw(drawing, overlay: overlay, canvas: canvas, renderer: self) }
        guard use(overlay.rect, blend: overlay.blend, canvas: canvas) else { return }
        let program: Program
        switch overlay.content {
        case .solid(let c):
            program = try self.program(fragmentShader: PassRegistry.solidOverlayShader)
            program.use()
            program.set("u_color", c.red, c.green, c.blue, c.alpha)
        case .texture(let texture):
            program = try self.program(fragmentShader: PassRegistry.textureOverlayShader)
            program.use()
            texture.bind(unit: 0)
            program.set("u_picture", int: 0)
        case .text: return
        }
        program.set("u_opacity", min(max(overlay.opacity, 0), 1))
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }

    /// Sets the viewport to `rect` (canvas rows run top-down, GL's bottom-up) and the blending for `blend`;
    /// false when the rect is empty.
    func use(_ rect: CanvasRect, blend: LayerBlend, canvas: PixelSize) -> Bool {
        guard rect.width > 0, rect.height > 0 else { return false }
        glViewport(GLint(rect.x), GLint(canvas.height - rect.y - rect.height), GLsizei(rect.width), GLsizei(rect.height))
        switch blend {
        case .opaque:
            glDisable(GLenum(GL_BLEND))
            glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_FALSE))
        case .premultipliedOver:
            glEnable(GLenum(GL_BLEND))
            glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
            glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        }
        return true
    }

    /// Draws the canvas onto the target turned by `rotation`.
    private func drawFinal(_ canvas: OffscreenTarget, into target: RenderTarget, rotation: Rotation) throws {
        let program = try program(fragmentShader: PassRegistry.finalShader)
        target.bind()
        program.use()
        canvas.texture.bind(unit: 0)
        program.set("u_canvas", int: 0)
        program.set("u_screenToCanvas", mat3: rotation.screenToCanvasMatrix)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }
}
