/// The uniforms of Shaders/sphere.frag, shared by the sphere projections.
import Foundation
import KioskCore

/// Sets the view (rotation, field of view) and the eye rectangle for a sphere projection.
enum SphereUniforms {
    /// The helper piece these uniforms belong to.
    static let helper = "sphere.frag"

    /// Sets `u_rotation`, `u_tanHalfFov` and `u_eye` (the eye's rectangle in texels).
    static func set(_ program: Program, view: SphereView, projection: ItemProjection, picture: PixelSize) {
        program.set("u_rotation", mat3: view.rotationColumnMajor)
        program.set("u_tanHalfFov", tan(view.hFOV * .pi / 360), tan(view.vFOV * .pi / 360))
        let e = projection.eyeRect
        let w = Double(picture.width), h = Double(picture.height)
        program.set("u_eye", (e.x * w).rounded(), (e.y * h).rounded(), max(1, (e.width * w).rounded()),
                    max(1, (e.height * h).rounded()))
    }
}

/// A projection of a sphere source (equirect, fisheye) seen through a `SphereView`: the shared uniforms and
/// helpers. Each projection's descriptor only names its shader piece.
public protocol SphereProjectionPass: ShaderPass {
    /// Where the view looks.
    var view: SphereView { get }
    /// The source's coverage, field of view and stereo packing.
    var projection: ItemProjection { get }
}

extension SphereProjectionPass {
    /// The sphere helpers.
    public static var helpers: [String] { [SphereUniforms.helper] }
    /// A sphere view's texel positions must be exact to match v360 (the RGBA stage filters in the shader).
    public static var samplesExactly: Bool { true }

    /// Sets the sphere uniforms and `u_inputFov` (radians).
    public func setUniforms(_ program: Program, context: PassContext) {
        SphereUniforms.set(program, view: view, projection: projection, picture: context.picture)
        program.set("u_inputFov", projection.inputFOV * .pi / 180)
    }
}
