/// The output's rotation and its pure maths: screen point <-> canvas point. Used by the final pass and, later, by
/// input code to map touches back onto the canvas. No GL here.
import KioskCore

/// How the canvas is turned onto the screen, clockwise.
public enum Rotation: Int, Sendable, CaseIterable {
    /// Not turned.
    case none = 0
    /// 90° clockwise: the canvas's top-left corner is at the screen's top-right.
    case clockwise90 = 90
    /// 180°.
    case clockwise180 = 180
    /// 270° clockwise (90° anticlockwise).
    case clockwise270 = 270

    /// Parses `0`, `90`, `180` or `270`; nil otherwise.
    public init?(degrees: Int) { self.init(rawValue: degrees) }

    /// Whether width and height exchange between canvas and screen.
    public var swapsAxes: Bool { self == .clockwise90 || self == .clockwise270 }

    /// The canvas size drawn for a screen of `screen` size.
    public func canvasSize(forScreen screen: PixelSize) -> PixelSize { swapsAxes ? screen.transposed : screen }

    /// The screen size showing a canvas of `canvas` size.
    public func screenSize(forCanvas canvas: PixelSize) -> PixelSize { swapsAxes ? canvas.transposed : canvas }

    /// The canvas point (0...1, top-left origin) shown at a screen point (0...1, top-left origin).
    public func canvasPoint(fromScreen s: UnitPoint) -> UnitPoint {
        switch self {
        case .none: return s
        case .clockwise90: return UnitPoint(x: s.y, y: 1 - s.x)
        case .clockwise180: return UnitPoint(x: 1 - s.x, y: 1 - s.y)
        case .clockwise270: return UnitPoint(x: 1 - s.y, y: s.x)
        }
    }

    /// The screen point (0...1, top-left origin) where a canvas point (0...1, top-left origin) is shown.
    public func screenPoint(fromCanvas c: UnitPoint) -> UnitPoint {
        switch self {
        case .none: return c
        case .clockwise90: return UnitPoint(x: 1 - c.y, y: c.x)
        case .clockwise180: return UnitPoint(x: 1 - c.x, y: 1 - c.y)
        case .clockwise270: return UnitPoint(x: c.y, y: 1 - c.x)
        }
    }

    /// `canvasPoint(fromScreen:)` as a 3x3 affine matrix in column-major order, for a shader's mat3.
    public var screenToCanvasMatrix: [Double] {
        let origin = canvasPoint(fromScreen: UnitPoint(x: 0, y: 0))
        let ex = canvasPoint(fromScreen: UnitPoint(x: 1, y: 0))
        let ey = canvasPoint(fromScreen: UnitPoint(x: 0, y: 1))
        return [ex.x - origin.x, ex.y - origin.y, 0,
                ey.x - origin.x, ey.y - origin.y, 0,
                origin.x, origin.y, 1]
    }
}
