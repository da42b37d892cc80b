/// A layer's fragment shader is composed of small pieces from Shaders/ (mpv style): the common prelude, the sampling
/// stage, one effect, one transition, the projection's helpers, one projection, and the common main. Each
/// projection, effect and transition is one shader file and one small Swift descriptor (its name, options and
/// uniforms); adding one adds one line to `PassRegistry`.
import KioskCore

/// What a pass knows when setting its uniforms.
public struct PassContext: Sendable, Equatable {
    /// The canvas being drawn, in pixels.
    public var canvas: PixelSize
    /// The layer's picture (texture) size, in pixels.
    public var picture: PixelSize

    /// Creates a pass context.
    public init(canvas: PixelSize, picture: PixelSize) {
        self.canvas = canvas
        self.picture = picture
    }
}

/// A projection drawing a layer's picture onto the canvas: its shader piece defines
/// `vec2 kiosk_source(vec2 canvasUV)` (texture uv, or negative where the source does not cover the canvas).
///
/// The renderer binds the layer's picture for its sampling stage and sets the common uniforms: `u_background` (vec3), `u_opacity`,
/// `u_canvasSize` (the layer's rect) and `u_pictureSize` (vec2, pixels), `u_transitionRole` (int) and `u_progress`.
public protocol ShaderPass: Sendable {
    /// The projection's shader piece in Shaders/, e.g. `flat.frag`.
    static var fragmentShader: String { get }
    /// Shared pieces it needs before its own (e.g. `sphere.frag`), in order.
    static var helpers: [String] { get }
    /// Whether an RGBA picture is sampled with exact texel positions (`sample_rgba_exact.frag`): sphere views.
    static var samplesExactly: Bool { get }
    /// Sets this pass's own uniforms on its (current) program.
    func setUniforms(_ program: Program, context: PassContext)
}

extension ShaderPass {
    /// No helpers.
    public static var helpers: [String] { [] }
    /// The texture unit's filtering.
    public static var samplesExactly: Bool { false }
}

extension ShaderEffect {
    /// No options.
    public static var optionsUsage: String { "" }
}

/// An effect applied on the canvas before projection: its shader piece defines `vec2 kiosk_effect(vec2 canvasUV)`,
/// the canvas point whose projected picture shows at `canvasUV`, and `vec3 kiosk_effect_paint(vec2 canvasUV,
/// vec3 rgb)`, the colour shown there once the picture is drawn (`rgb` unless it paints something over it). The descriptor owns its `--effect` name and parses
/// its options.
public protocol ShaderEffect: Sendable {
    /// The name on the command line, e.g. `mosaic`.
    static var name: String { get }
    /// Its options for `--help` and docs/, e.g. `[:tile=N][:split=R]` (empty when it takes none).
    static var optionsUsage: String { get }
    /// The effect's shader piece in Shaders/, e.g. `mosaic.frag`.
    static var fragmentShader: String { get }
    /// Parses the options after the name; the error says what is wrong (the registry adds the flag and the name).
    init(options: [String]) throws(UsageError)
    /// Sets this effect's own uniforms on its (current) program.
    func setUniforms(_ program: Program, context: PassContext)
}

/// Every projection, effect and transition, so programs can be built and tested for all combinations. Adding one
/// adds one line.
public enum PassRegistry {
    /// All projections.
    public static var all: [any ShaderPass.Type] {
        [
            FlatPass.self,
            EquirectProjection.self,
            FisheyeProjection.self,
        ]
    }

    /// All effects.
    public static var effects: [any ShaderEffect.Type] {
        [
            NoEffect.self,
            MosaicEffect.self,
        ]
    }

    /// All transitions (`random` is not one: it chooses among these, see `TransitionChooser`).
    public static var transitions: [any ShaderTransition.Type] {
        [
            NoTransition.self,
            CrossfadeTransition.self,
            SlideTransition.self,
            WipeTransition.self,
            ZoomTransition.self,
            FadeTransition.self,
        ]
    }

    /// The vertex shader every pass runs with.
    public static let vertexShader = "fullscreen.vert"
    /// The final pass turning the canvas onto the screen.
    public static let finalShader = "final.frag"
    /// The overlay drawing a solid premultiplied colour over its rect.
    public static let solidOverlayShader = "overlay_solid.frag"
    /// The overlay drawing a premultiplied RGBA texture over its rect.
    public static let textureOverlayShader = "overlay_texture.frag"
    /// The head of every layer shader (version, precision, common uniforms).
    public static let prelude = "prelude.frag"
    /// The sampling stage for RGBA textures.
    public static let rgbaSampler = ["sample_rgba.frag"]
    /// The sampling stage for RGBA textures seen through a sphere projection (filtered in the shader).
    public static let rgbaExactSampler = ["sample_rgba_exact.frag"]
    /// The sampling stage `pass` draws `picture`'s pieces with: the exact RGBA stage for sphere views.
    public static func sampler(_ pieces: [String], pass: any ShaderPass.Type) -> [String] {
        pass.samplesExactly && pieces == rgbaSampler ? rgbaExactSampler : pieces
    }
    /// The sampling stage for a video frame of a layout: the shared video head, then the layout's own piece.
    public static func videoSampler(_ layout: VideoPixelLayout) -> [String] {
        let piece: String
        switch layout {
        case .yuv420p, .yuv422p, .yuv444p: piece = "sample_yuv_planar.frag"
        case .nv12: piece = "sample_nv12.frag"
        case .yuv420p10: piece = "sample_yuv_planar16.frag"
        case .p010: piece = "sample_p010.frag"
        case .rgba: piece = "sample_video_rgba.frag"
        }
        return ["yuv.frag", piece]
    }
    /// Every sampling stage (each a list of pieces).
    public static var samplers: [[String]] {
        var all = [rgbaSampler, rgbaExactSampler]
        for layout in VideoPixelLayout.allCases where !all.contains(videoSampler(layout)) { all.append(videoSampler(layout)) }
        return all
    }
    /// The tail of every layer shader (`main`).
    public static let main = "main.frag"
    /// The minification pre-pass (an area filter, see `MinifyPass`): its taps, then its tail for an RGBA stage or
    /// for a YUV layout's stage (each plane filtered at its own resolution before conversion).
    public static let minifyShaders = (taps: "minify_taps.frag", rgba: "minify.frag", yuv: "minify_yuv.frag")

    /// The pieces of the minification pre-pass reading a picture through `sampler`.
    public static func minifyPieces(sampler: [String]) -> [String] {
        let yuv = sampler.first == "yuv.frag" && sampler != videoSampler(.rgba)
        return [prelude] + sampler + [minifyShaders.taps, yuv ? minifyShaders.yuv : minifyShaders.rgba]
    }

    /// The pieces of the layer shader for a projection, an effect, a transition and a sampling stage, in order.
    public static func pieces(pass: any ShaderPass.Type, effect: any ShaderEffect.Type,
                              transition: any ShaderTransition.Type = NoTransition.self,
                              sampler: [String] = rgbaSampler) -> [String] {
        [prelude] + sampler + [effect.fragmentShader, transition.fragmentShader] + pass.helpers + [pass.fragmentShader, main]
    }

    /// The composed GLSL source of a layer shader (the pieces joined), e.g. for a validator.
    public static func composedSource(pass: any ShaderPass.Type, effect: any ShaderEffect.Type,
                                      transition: any ShaderTransition.Type = NoTransition.self,
                                      sampler: [String] = rgbaSampler) throws -> String {
        try pieces(pass: pass, effect: effect, transition: transition, sampler: sampler)
            .map { try ShaderLibrary.source(named: $0) }.joined(separator: "\n")
    }
}

/// No effect: the canvas shows the projected picture as it is.
public struct NoEffect: ShaderEffect {
    /// `none`.
    public static let name = "none"
    /// The file name of its shader piece.
    public static let fragmentShader = "noeffect.frag"
    /// No effect.
    public init() {}
    /// Takes no options.
    public init(options: [String]) throws(UsageError) {
        if let first = options.first { throw UsageError("takes no options (got '\(first)')") }
    }
    /// Nothing to set.
    public func setUniforms(_ program: Program, context: PassContext) {}
}
