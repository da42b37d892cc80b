/// What a layer draws from: an RGBA texture (stills, animations) or a video frame's planes. Each kind names the
/// sampling stage of the layer shader that reads it (`vec4 kiosk_sample(vec2 uv)`), and binds its textures and
/// uniforms for that stage.
import KioskCore

/// A picture a layer samples. Create, update and drop it on the render thread only.
public protocol LayerPicture: AnyObject {
    /// The picture's size as displayed (after sample aspect and rotation), in pixels: what passes fit and project.
    var size: PixelSize { get }
    /// The sampling stage's shader pieces in Shaders/ (`sample_rgba.frag`; `yuv.frag` + a layout's piece).
    var samplerPieces: [String] { get }
    /// Binds its textures and sets the sampling stage's uniforms on `program` (in use).
    func bind(to program: Program)
    /// Bumped by each upload; 0 when the picture is drawn into (its content then unknown to its users).
    var contentVersion: Int { get }
}

extension Texture: LayerPicture {
    /// The RGBA sampling stage.
    public var samplerPieces: [String] { PassRegistry.rgbaSampler }

    /// Binds to unit 0 as `u_picture`, and says whether its rows are stored bottom-up (`u_pictureFlip`).
    public func bind(to program: Program) {
        bind(unit: 0)
        program.set("u_picture", int: 0)
        program.set("u_pictureFlip", rowsBottomUp ? 1.0 : 0.0)
    }
}
