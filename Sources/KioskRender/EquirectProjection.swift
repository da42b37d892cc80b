/// An equirectangular source (360×180 or 180×180) seen through a SphereView. Shader: Shaders/equirect.frag.
import KioskCore

/// Draws the view of an equirect picture, as ffmpeg's `v360=input=e|hequirect:output=flat` does.
public struct EquirectProjection: SphereProjectionPass {
    /// The file name of its shader piece.
    public static let fragmentShader = "equirect.frag"
    /// Where the view looks.
    public var view: SphereView
    /// The source's coverage and stereo packing.
    public var projection: ItemProjection

    /// A projection of a equirect `projection` seen through `view`.
    public init(view: SphereView, projection: ItemProjection) {
        self.view = view
        self.projection = projection
    }
}
