/// EXIF orientation (tag 0x0112): how a stored picture must be turned to be seen upright.
public enum Orientation: Int, Sendable, CaseIterable {
    /// As stored.
    case up = 1
    /// Mirrored left-right.
    case upMirrored = 2
    /// Turned 180°.
    case down = 3
    /// Mirrored top-bottom.
    case downMirrored = 4
    /// Mirrored along the main diagonal (transpose).
    case leftMirrored = 5
    /// Stored turned 90° anticlockwise: turn 90° clockwise to show.
    case right = 6
    /// Mirrored along the anti-diagonal (transverse).
    case rightMirrored = 7
    /// Stored turned 90° clockwise: turn 90° anticlockwise to show.
    case left = 8

    /// Whether showing it exchanges width and height.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The displayed size of a stored picture of `stored` size.
    public func displayedSize(of stored: PixelSize) -> PixelSize { swapsAxes ? stored.transposed : stored }

    /// For a displayed pixel (x, y) in a displayed picture of `shown` size, the stored pixel it comes from.
    public func storedPixel(x: Int, y: Int, shown: PixelSize) -> (x: Int, y: Int) {
        let w = shown.width, h = shown.height
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - 1 - x, y)
        case .down: return (w - 1 - x, h - 1 - y)
        case .downMirrored: return (x, h - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, w - 1 - x)
        case .rightMirrored: return (h - 1 - y, w - 1 - x)
        case .left: return (h - 1 - y, x)
        }
    }

    /// Turns a stored picture upright.
    public func apply(to image: RGBAImage) -> RGBAImage {
        if self == .up { return image }
        let stored = image.size
        let shown = displayedSize(of: stored)
        var out = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                src.withMemoryRebound(to: UInt32.self) { s in
                    dst.withMemoryRebound(to: UInt32.self) { d in
                        for y in 0..<shown.height {
                            let row = y * shown.width
                            for x in 0..<shown.width {
                                let p = storedPixel(x: x, y: y, shown: shown)
                                d[row + x] = s[p.y * stored.width + p.x]
                            }
                        }
                    }
                }
            }
        }
        return RGBAImage(size: shown, pixels: out)
    }
}
