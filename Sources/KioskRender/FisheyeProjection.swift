/// An equidistant fisheye source (180–220°) seen through a SphereView. Shader: Shaders/fisheye.frag.
import KioskCore

/// Draws the view of a fisheye picture, as ffmpeg's `v360=input=fisheye:ih_fov=F:iv_fov=F:output=flat` does.
public struct FisheyeProjection: SphereProjectionPass {
    /// The file name of its shader piece.
    public static let fragmentShader = "fisheye.frag"
    /// Where the view looks.
    public var view: SphereView
    /// The source's coverage and stereo packing.
    public var projection: ItemProjection

    /// A projection of a fisheye `projection` seen through `view`.
    public init(view: SphereView, projection: ItemProjection) {
        self.view = view
        self.projection = projection
    }
}
