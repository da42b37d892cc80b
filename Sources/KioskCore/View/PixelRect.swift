/// A rectangle of whole pixels, (0,0) the top-left corner.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width.
    public var width: Int
    /// Height.
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole of a picture or canvas of `size`.
    public init(_ size: PixelSize) {
        self.init(x: 0, y: 0, width: size.width, height: size.height)
    }

    /// Right edge (exclusive).
    public var maxX: Int { x + width }
    /// Bottom edge (exclusive).
    public var maxY: Int { y + height }
    /// Its size.
    public var size: PixelSize { PixelSize(width: width, height: height) }
    /// Whether it covers no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The smallest rectangle holding both (the other one when either is empty).
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// Shrunk by `d` pixels on every side (grown when `d` is negative).
    public func insetBy(_ d: Int) -> PixelRect {
        PixelRect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d)
    }

    /// Moved by (dx, dy).
    public func offsetBy(_ dx: Int, _ dy: Int) -> PixelRect {
        PixelRect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// `WxH+X+Y`.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
