/// What the input layer hands the core: touches, keys, pointer and touchpad gestures, each with a time in
/// seconds on the player's clock. Points are in canvas pixels (the input layer has already turned screen points
/// through the display's rotation), so a gesture means the same on a portrait screen.

/// A point in canvas pixels, (0,0) top-left.
public struct CanvasPoint: Sendable, Equatable {
    /// Horizontal pixels.
    public var x: Double
    /// Vertical pixels.
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The distance to another point.
    public func distance(to o: CanvasPoint) -> Double { ((x - o.x) * (x - o.x) + (y - o.y) * (y - o.y)).squareRoot() }

    /// The midpoint between two points.
    public func mid(_ o: CanvasPoint) -> CanvasPoint { CanvasPoint(x: (x + o.x) / 2, y: (y + o.y) / 2) }
}

/// One finger's change.
public enum TouchPhase: String, Sendable, Equatable {
    /// A finger touched.
    case down
    /// A finger moved.
    case move
    /// A finger lifted.
    case up
    /// The touch sequence was cancelled (device gone): every finger counts as lifted, nothing is recognised.
    case cancel
}

/// One input event, in canvas pixels and seconds.
public enum InputEvent: Sendable, Equatable {
    /// A touch point of multitouch slot `slot`.
    case touch(TouchPhase, slot: Int, at: CanvasPoint, time: Double)
    /// An evdev key (keyboards, remotes, CEC, mouse buttons other than the left): pressed or released.
    case key(code: Int, pressed: Bool, time: Double)
    /// The pointer moved to `at` (absolute, after relative motion is accumulated and clamped to the canvas).
    case pointerMove(at: CanvasPoint, time: Double)
    /// The left mouse button, pressed or released at `at`.
    case pointerButton(pressed: Bool, at: CanvasPoint, time: Double)
    /// A wheel turned by `steps` detents (positive: away from the user, zooms in) with the pointer at `at`.
    case wheel(steps: Double, at: CanvasPoint, time: Double)
    /// A touchpad pinch: `scale` relative to the previous update (1 = unchanged), about `at`; `ended` on the last.
    case touchpadPinch(scale: Double, at: CanvasPoint, ended: Bool, time: Double)
    /// A touchpad multi-finger swipe: movement since the previous update in pixels; `ended` on the last.
    case touchpadSwipe(dx: Double, dy: Double, ended: Bool, time: Double)

    /// When it happened.
    public var time: Double {
        switch self {
        case .touch(_, _, _, let t), .key(_, _, let t), .pointerMove(_, let t), .pointerButton(_, _, let t),
             .wheel(_, _, let t), .touchpadPinch(_, _, _, let t), .touchpadSwipe(_, _, _, let t):
            return t
        }
    }
}
