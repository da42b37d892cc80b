/// A shader pass: one fragment shader in Shaders/ and the small value describing its uniforms. The renderer draws
/// each layer with its pass over a full-screen triangle (Shaders/fullscreen.vert).
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

/// A projection or effect drawing a layer's picture onto the canvas.
///
/// The renderer sets the common uniforms: `u_picture` (sampler, unit 0), `u_background` (vec3) and `u_opacity`.
/// The shader writes an opaque colour in `rgb` and `u_opacity` in alpha; the renderer blends it into the canvas.
public protocol ShaderPass: Sendable {
    /// The fragment shader's file name in Shaders/, e.g. `flat.frag`.
    static var fragmentShader: String { get }
    /// Sets this pass's own uniforms on its (current) program.
    func setUniforms(_ program: Program, context: PassContext)
}

/// Every pass type, so programs can be built and tested for all of them. Adding a pass adds one line here.
public enum PassRegistry {
    /// All pass types.
    public static var all: [any ShaderPass.Type] {
        [
            FlatPass.self,
        ]
    }

    /// The vertex shader every pass runs with.
    public static let vertexShader = "fullscreen.vert"
    /// The final pass turning the canvas onto the screen.
    public static let finalShader = "final.frag"
}
