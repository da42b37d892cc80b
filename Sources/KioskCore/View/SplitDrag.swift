/// Dragging the mosaic's split bar: a one-finger (or mouse) drag that starts within `reach` canvas pixels of the
/// bar moves the split instead of panning, turning or swiping. Pure: the interaction asks it where the split
/// goes and sends that as a command.

/// The grab on the split bar, from the press that starts within reach of it to the release.
public struct SplitDrag: Sendable {
    /// How near the bar (canvas pixels, horizontally) a press must start to grab it.
    public static let reach = 24.0

    /// The bar as last drawn, a fraction of the canvas width; nil while no bar is drawn (nothing to grab).
    public var bar: Double?
    /// The press's canvas x and the split then, while grabbing.
    private var grab: (x: Double, split: Double)?

    /// No bar, no grab.
    public init() {}

    /// Whether a press grabbed the bar and has not been released.
    public var isGrabbing: Bool { grab != nil }

    /// A press at `p`: grabs the bar when it is within `reach` of it; returns whether it did.
    public mutating func press(at p: CanvasPoint, canvas: PixelSize) -> Bool {
        guard let bar, abs(p.x - bar * Double(canvas.width)) <= Self.reach else {
            grab = nil
            return false
        }
        grab = (p.x, bar)
        return true
    }

    /// The split with the finger at `p`: the bar moves as far as the finger did since the press, clamped to
    /// 0...1; nil when not grabbing.
    public func split(at p: CanvasPoint, canvas: PixelSize) -> Double? {
        guard let g = grab else { return nil }
        return min(max(g.split + (p.x - g.x) / Double(max(1, canvas.width)), 0), 1)
    }

    /// The finger lifted (or a second one came down): the grab ends.
    public mutating func release() { grab = nil }
}
