/// An equidistant fisheye source (180–220°) seen through a SphereView. Shader: Shaders/fisheye.frag.
import Foundation
import KioskCore

/// Draws the view of a fisheye picture, as ffmpeg's `v360=input=fisheye:ih_fov=F:iv_fov=F:output=flat` does.
public struct FisheyeProjection: ShaderPass {
    /// The file name of its shader piece.
    public static let fragmentShader = "fisheye.frag"
    /// It needs the sphere helpers.
    public static let helpers = [SphereUniforms.helper]
    /// Where the view looks.
    public var view: SphereView
    /// The source's field of view and stereo packing.
    public var projection: ItemProjection

    /// A projection of a fisheye `projection` seen through `view`.
    public init(view: SphereView, projection: ItemProjection) {
        self.view = view
        self.projection = projection
    }

    /// Sets the sphere uniforms and `u_inputFov` (radians).
    public func setUniforms(_ program: Program, context: PassContext) {
        SphereUniforms.set(program, view: view, projection: projection, picture: context.picture)
        program.set("u_inputFov", projection.inputFOV * .pi / 180)
    }
}
