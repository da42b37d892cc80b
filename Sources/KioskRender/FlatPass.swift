/// A flat picture placed on the canvas by a UVTransform (fit, zoom, pan). Shader: Shaders/flat.frag.
import KioskCore

/// Draws a picture flat: picture uv = canvas uv * scale + offset; outside the picture is background.
public struct FlatPass: ShaderPass {
    /// The file name of its shader.
    public static let fragmentShader = "flat.frag"
    /// The canvas -> picture mapping (from `FlatView.transform(picture:canvas:)`).
    public var transform: UVTransform

    /// A flat pass with `transform`.
    public init(transform: UVTransform) {
        self.transform = transform
    }

    /// Sets `u_uvScale` and `u_uvOffset`.
    public func setUniforms(_ program: Program, context: PassContext) {
        program.set("u_uvScale", transform.scaleX, transform.scaleY)
        program.set("u_uvOffset", transform.offsetX, transform.offsetY)
    }
}
