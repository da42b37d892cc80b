/// Where a layout's regions land on the screen, and where a medium lands in its region: SMIL 3.0's region
/// positioning (`left`, `width`, `right`, …), the root layout scaled to the screen keeping its aspect ratio, and
/// the five `fit` values with the medium's alignment in its region. Pure arithmetic, in pixels.

/// A rectangle in fractional pixels, (0,0) the top-left corner.
public struct LayoutRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Double, y: Double, width: Double, height: Double
    /// Creates a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    /// Right edge.
    public var maxX: Double { x + width }
    /// Bottom edge.
    public var maxY: Double { y + height }
    /// Whether it covers nothing.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The whole pixels it covers most of: each edge rounded to the nearest pixel boundary, so two regions that
    /// touch in the layout touch on the screen, with neither a gap nor an overlap.
    public var pixels: PixelRect {
        let x0 = Int(saturating: x), y0 = Int(saturating: y)
        return PixelRect(x: x0, y: y0, width: max(0, Int(saturating: maxX) - x0), height: max(0, Int(saturating: maxY) - y0))
    }

    /// The part inside `other` (empty, at this rectangle's corner, when they do not meet).
    public func intersection(_ other: LayoutRect) -> LayoutRect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return LayoutRect(x: x0, y: y0, width: 0, height: 0) }
        return LayoutRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// `x,y WxH`.
    public var description: String { "\(x),\(y) \(width)x\(height)" }
}

/// Where a medium sits in its region when it does not fill it (SMIL 3.0's `mediaAlign`, whose default is
/// `topLeft`): the point of the medium put on the same point of the region.
public enum MediaAlign: String, Sendable, Hashable, CaseIterable {
    case topLeft, topMid, topRight, midLeft, center, midRight, bottomLeft, bottomMid, bottomRight

    /// The point as fractions of the width and height: (0,0) top-left, (1,1) bottom-right.
    public var point: (x: Double, y: Double) {
        switch self {
        case .topLeft: return (0, 0)
        case .topMid: return (0.5, 0)
        case .topRight: return (1, 0)
        case .midLeft: return (0, 0.5)
        case .center: return (0.5, 0.5)
        case .midRight: return (1, 0.5)
        case .bottomLeft: return (0, 1)
        case .bottomMid: return (0.5, 1)
        case .bottomRight: return (1, 1)
        }
    }
}

extension SMILRegion {
    /// The region's rectangle in root-layout pixels, by SMIL's rules along each axis: a start and a size are
    /// used as given (the end is then ignored); a start and an end give the size; a size and an end give the
    /// start; a start alone runs to the far edge; a size alone starts at 0; an end alone starts at 0; nothing
    /// fills the axis. Percentages are of the root layout's width (left, width, right) or height (top, height,
    /// bottom). A negative size becomes 0.
    public func frame(in root: SMILRootLayout) -> LayoutRect {
        let h = Self.axis(start: left, size: width, end: right, whole: root.width)
        let v = Self.axis(start: top, size: height, end: bottom, whole: root.height)
        return LayoutRect(x: h.start, y: v.start, width: h.size, height: v.size)
    }

    private static func axis(start: LayoutLength?, size: LayoutLength?, end: LayoutLength?, whole: Double)
        -> (start: Double, size: Double) {
        let s = start?.pixels(in: whole), w = size?.pixels(in: whole), e = end?.pixels(in: whole)
        switch (s, w, e) {
        case let (s?, w?, _): return (s, max(0, w))
        case let (s?, nil, e?): return (s, max(0, whole - s - e))
        case let (nil, w?, e?): return (whole - e - w, max(0, w))
        case let (s?, nil, nil): return (s, max(0, whole - s))
        case let (nil, w?, nil): return (0, max(0, w))
        case let (nil, nil, e?): return (0, max(0, whole - e))
        case (nil, nil, nil): return (0, whole)
        }
    }
}

/// The root layout on a screen: scaled by one factor to the largest size that fits, centred, with the screen
/// around it left black (the layout's aspect ratio is the CMS author's, and stretching would distort every region).
public struct LayoutPlacement: Sendable, Hashable {
    /// Screen pixels per layout pixel.
    public let scale: Double
    /// Where the root layout's top-left corner lands on the screen.
    public let originX: Double, originY: Double
    /// The root layout's rectangle on the screen.
    public var canvas: LayoutRect

    /// Places `root` on a screen of `screen` pixels. A root layout with no area (width or height 0) is taken
    /// to be the screen itself.
    public init(root: SMILRootLayout, screen: PixelSize) {
        let sw = Double(screen.width), sh = Double(screen.height)
        guard root.width > 0, root.height > 0 else {
            scale = 1; originX = 0; originY = 0
            canvas = LayoutRect(x: 0, y: 0, width: sw, height: sh)
            return
        }
        let s = min(sw / root.width, sh / root.height)
        scale = s
        originX = (sw - root.width * s) / 2
        originY = (sh - root.height * s) / 2
        canvas = LayoutRect(x: originX, y: originY, width: root.width * s, height: root.height * s)
    }

    /// A rectangle in layout pixels, on the screen.
    public func onScreen(_ r: LayoutRect) -> LayoutRect {
        LayoutRect(x: originX + r.x * scale, y: originY + r.y * scale, width: r.width * scale, height: r.height * scale)
    }

    /// A region's rectangle on the screen, cut to the root layout (a region may reach past the root layout's edge;
    /// what lies outside it is not shown).
    public func screenFrame(of region: SMILRegion, in root: SMILRootLayout) -> LayoutRect {
        onScreen(region.frame(in: root)).intersection(canvas)
    }
}

extension SMILFit {
    /// Where a picture of `picture` pixels lands in a region `region` screen pixels large, relative to the
    /// region's top-left corner. It may reach past the region (slice, hidden); the region cuts it. `scale` is
    /// screen pixels per layout pixel: `hidden` and `meetBest` show a medium at its own size in layout pixels.
    public func placement(picture: PixelSize, region: LayoutRect, align: MediaAlign = .topLeft, scale: Double = 1)
        -> LayoutRect {
        let pw = Double(max(1, picture.width)), ph = Double(max(1, picture.height))
        let rw = region.width, rh = region.height
        let factor: Double
        switch self {
        case .fill: return LayoutRect(x: 0, y: 0, width: rw, height: rh)
        case .meet: factor = min(rw / pw, rh / ph)
        case .meetBest: factor = min(rw / pw, rh / ph, scale)
        case .slice: factor = max(rw / pw, rh / ph)
        case .hidden: factor = scale
        }
        let w = pw * factor, h = ph * factor
        let a = align.point
        return LayoutRect(x: (rw - w) * a.x, y: (rh - h) * a.y, width: w, height: h)
    }

    /// The canvas→picture transform for that placement, with the region as the canvas: what the renderer's
    /// passes take (outside 0...1 in the picture is the region's background).
    public func transform(picture: PixelSize, region: LayoutRect, align: MediaAlign = .topLeft, scale: Double = 1)
        -> UVTransform {
        let p = placement(picture: picture, region: region, align: align, scale: scale)
        guard p.width > 0, p.height > 0, region.width > 0, region.height > 0 else { return .identity }
        // region fraction s maps to picture fraction u = (s * rw - px) / pw
        return UVTransform(scaleX: region.width / p.width, scaleY: region.height / p.height,
                           offsetX: -p.x / p.width, offsetY: -p.y / p.height)
    }
}
