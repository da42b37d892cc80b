import Foundation

/// A view into a sphere, with ffmpeg v360's conventions: yaw turns right, pitch looks up, roll turns the picture,
/// all in degrees, and the rotation is yaw · pitch · roll (v360's default `rorder=ypr`). The fields of view are the
/// output's (a rectilinear view, like v360's `output=flat`). Input (drag, pinch) and unattended panning drive it.
public struct SphereView: Sendable, Equatable {
    /// Allowed field of view, degrees, on either axis.
    public static let fovRange: ClosedRange<Double> = 20...120
    /// Allowed pitch, degrees.
    public static let pitchRange: ClosedRange<Double> = -90...90
    /// The horizontal field of view when none is given.
    public static let defaultFOV = 90.0

    /// Degrees, -180..<180: positive looks right.
    public var yaw: Double
    /// Degrees, -90...90: positive looks up.
    public var pitch: Double
    /// Degrees, -180..<180.
    public var roll: Double
    /// Horizontal field of view, degrees.
    public var hFOV: Double
    /// Vertical field of view, degrees.
    public var vFOV: Double

    /// Creates a view as given (see `clamped` for the limits).
    public init(yaw: Double = 0, pitch: Double = 0, roll: Double = 0, hFOV: Double = SphereView.defaultFOV,
                vFOV: Double? = nil) {
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
        self.hFOV = hFOV
        self.vFOV = vFOV ?? hFOV
    }

    /// A view whose vertical field of view matches a canvas's aspect for horizontal `hFOV` (square pixels).
    public init(yaw: Double = 0, pitch: Double = 0, roll: Double = 0, hFOV: Double, canvas: PixelSize) {
        self.init(yaw: yaw, pitch: pitch, roll: roll, hFOV: hFOV,
                  vFOV: SphereView.verticalFOV(horizontal: hFOV, aspect: canvas.aspect))
    }

    /// The vertical field of view that keeps pixels square on a canvas of `aspect` (width / height).
    public static func verticalFOV(horizontal: Double, aspect: Double) -> Double {
        let t = tan(horizontal * .pi / 360) / max(aspect, 1e-9)
        return atan(t) * 360 / .pi
    }

    /// Wraps an angle into -180..<180.
    static func wrap(_ a: Double) -> Double {
        guard a.isFinite else { return 0 }
        let r = (a + 180).truncatingRemainder(dividingBy: 360)
        return (r < 0 ? r + 360 : r) - 180
    }

    /// The same view within the limits: yaw and roll wrapped, pitch clamped to ±90, each field of view to 20–120
    /// (scaled together, so the aspect of the view stays while it fits).
    public var clamped: SphereView {
        var v = self
        v.yaw = Self.wrap(yaw)
        v.roll = Self.wrap(roll)
        v.pitch = min(max(pitch.isFinite ? pitch : 0, Self.pitchRange.lowerBound), Self.pitchRange.upperBound)
        v.hFOV = min(max(hFOV.isFinite ? hFOV : Self.defaultFOV, Self.fovRange.lowerBound), Self.fovRange.upperBound)
        v.vFOV = min(max(vFOV.isFinite ? vFOV : Self.defaultFOV, Self.fovRange.lowerBound), Self.fovRange.upperBound)
        return v
    }

    /// Turned by `degrees` of yaw (unattended panning: `speed × seconds`).
    public func panned(yawBy degrees: Double) -> SphereView {
        var v = self
        v.yaw = Self.wrap(yaw + degrees)
        return v
    }

    /// Dragged by (dx, dy) canvas pixels on a canvas of `canvas` size: the picture follows the finger
    /// (dragging right looks left, dragging down looks up).
    public func dragged(dx: Double, dy: Double, canvas: PixelSize) -> SphereView {
        var v = self
        v.yaw = yaw - dx * hFOV / Double(max(1, canvas.width))
        v.pitch = pitch + dy * vFOV / Double(max(1, canvas.height))
        return v.clamped
    }

    /// Zoomed by a pinch `scale` (> 1 zooms in): both fields of view narrow together in tangent space, so the
    /// view keeps its aspect; stops at the limits.
    public func zoomed(by scale: Double) -> SphereView {
        guard scale > 0, scale.isFinite else { return self }
        let th = tan(hFOV * .pi / 360), tv = tan(vFOV * .pi / 360)
        let lo = tan(Self.fovRange.lowerBound * .pi / 360), hi = tan(Self.fovRange.upperBound * .pi / 360)
        // The largest and smallest scale that keep both axes within the range.
        let most = min(th, tv) / lo, least = max(th, tv) / hi
        let s = min(max(scale, least), most)
        var v = self
        v.hFOV = atan(th / s) * 360 / .pi
        v.vFOV = atan(tv / s) * 360 / .pi
        return v
    }

    /// The rotation from view rays to sphere directions, row-major 3×3: Ry(yaw) · Rx(pitch) · Rz(roll), with
    /// directions x right, y down, z forward (v360's frame).
    public var rotation: [Double] {
        let y = yaw * .pi / 180, p = pitch * .pi / 180, r = roll * .pi / 180
        let ry: [Double] = [cos(y), 0, sin(y), 0, 1, 0, -sin(y), 0, cos(y)]
        let rx: [Double] = [1, 0, 0, 0, cos(p), -sin(p), 0, sin(p), cos(p)]
        let rz: [Double] = [cos(r), -sin(r), 0, sin(r), cos(r), 0, 0, 0, 1]
        return Self.multiply(Self.multiply(ry, rx), rz)
    }

    /// The same rotation in column-major order (for a GLSL mat3).
    public var rotationColumnMajor: [Double] {
        let m = rotation
        return [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]]
    }

    /// The sphere direction seen at canvas point (u, v) in 0...1 (top-left origin), unit length.
    public func direction(u: Double, v: Double) -> (x: Double, y: Double, z: Double) {
        let x = tan(hFOV * .pi / 360) * (2 * u - 1), y = tan(vFOV * .pi / 360) * (2 * v - 1)
        let n = (x * x + y * y + 1).squareRoot()
        let m = rotation
        let a = x / n, b = y / n, c = 1 / n
        return (m[0] * a + m[1] * b + m[2] * c, m[3] * a + m[4] * b + m[5] * c, m[6] * a + m[7] * b + m[8] * c)
    }

    /// Row-major 3×3 product.
    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var c = [Double](repeating: 0, count: 9)
        for i in 0..<3 {
            for j in 0..<3 {
                c[i * 3 + j] = (0..<3).reduce(0) { $0 + a[i * 3 + $1] * b[$1 * 3 + j] }
            }
        }
        return c
    }
}
