/// A flat picture placed on the canvas by a UVTransform (fit, zoom, pan). Shader: Shaders/flat.frag.
import KioskCore

/// Draws a picture flat: picture uv = canvas uv * scale + offset; outside the picture is background. The picture
/// is `crop` of the texture: the whole of it, or one eye of stereo content (the flat crop of one eye).
public struct FlatPass: ShaderPass {
    /// The file name of its shader.
    public static let fragmentShader = "flat.frag"
    /// The canvas -> picture mapping (from `FlatView.transform(picture:canvas:)`).
    public var transform: UVTransform
    /// The part of the texture that is the picture.
    public var crop: UnitRect

    /// A flat pass with `transform` over `crop` of the texture (default: all of it).
    public init(transform: UVTransform, crop: UnitRect = .full) {
        self.transform = transform
        self.crop = crop
    }

    /// Sets `u_uvScale`, `u_uvOffset` and `u_crop`.
    public func setUniforms(_ program: Program, context: PassContext) {
        program.set("u_uvScale", transform.scaleX, transform.scaleY)
        program.set("u_uvOffset", transform.offsetX, transform.offsetY)
        program.set("u_crop", crop.x, crop.y, crop.width, crop.height)
    }
}
