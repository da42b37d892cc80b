/// An equirectangular source (360×180 or 180×180) seen through a SphereView. Shader: Shaders/equirect.frag.
import Foundation
import KioskCore

/// Draws the view of an equirect picture, as ffmpeg's `v360=input=e|hequirect:output=flat` does.
public struct EquirectProjection: ShaderPass {
    /// The file name of its shader piece.
    public static let fragmentShader = "equirect.frag"
    /// It needs the sphere helpers.
    public static let helpers = [SphereUniforms.helper]
    /// Where the view looks.
    public var view: SphereView
    /// The source's coverage and stereo packing.
    public var projection: ItemProjection

    /// A projection of an equirect `projection` seen through `view`.
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
