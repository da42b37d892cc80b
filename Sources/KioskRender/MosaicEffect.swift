/// Mosaic: pixelation left of a split line, the untouched picture right of it. Shader: Shaders/mosaic.frag.
import KioskCore

/// Pixelates the canvas in tiles of `tile` pixels where x/width ≤ `split`. Both are uniforms, so they can change
/// every frame (animated) without a new program.
public struct MosaicEffect: ShaderEffect {
    /// The file name of its shader piece.
    public static let fragmentShader = "mosaic.frag"
    /// Tile size and split.
    public var settings: MosaicSettings

    /// A mosaic with `settings`.
    public init(settings: MosaicSettings) {
        self.settings = settings
    }

    /// Sets `u_tile` (canvas pixels) and `u_split` (0...1 of the canvas width).
    public func setUniforms(_ program: Program, context: PassContext) {
        program.set("u_tile", settings.tile)
        program.set("u_split", settings.split)
    }
}
