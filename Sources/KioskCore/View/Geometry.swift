/// View maths for flat pictures: fitting a picture in a canvas, zoom and pan. Pure functions, used by the
/// renderer, `kiosk snapshot --zoom/--center`, Ken Burns and (later) gestures.

/// How a picture is fitted into the canvas.
public enum FitMode: String, Sendable, CaseIterable {
    /// Whole picture visible, letterboxed on the background colour (the default).
    case contain
    /// Canvas covered, the picture cropped.
    case cover
    /// Stretched to the canvas, aspect ignored.
    case fill
}

/// An sRGB colour with components 0...1.
public struct RGBColor: Sendable, Hashable {
    /// Red.
    public var red: Double
    /// Green.
    public var green: Double
    /// Blue.
    public var blue: Double

    /// Creates a colour.
    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Black.
    public static let black = RGBColor(red: 0, green: 0, blue: 0)

    /// Parses `#RRGGBB` (the `#` is optional); nil otherwise.
    public init?(hex: String) {
        var s = Substring(hex)
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.count == 6, let v = UInt32(s, radix: 16) else { return nil }
        self.init(red: Double((v >> 16) & 0xFF) / 255, green: Double((v >> 8) & 0xFF) / 255,
                  blue: Double(v & 0xFF) / 255)
    }
}

/// A point in normalised picture coordinates: (0,0) top-left, (1,1) bottom-right.
public struct UnitPoint: Sendable, Equatable {
    /// Horizontal, 0...1.
    public var x: Double
    /// Vertical, 0...1.
    public var y: Double

    /// Creates a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The centre.
    public static let center = UnitPoint(x: 0.5, y: 0.5)
}

/// Maps canvas coordinates to picture coordinates: `picture = canvas * scale + offset`, both in 0...1 units
/// (canvas (0,0) top-left, (1,1) bottom-right). Outside 0...1 in the picture is background.
public struct UVTransform: Sendable, Equatable {
    /// Per-axis scale.
    public var scaleX: Double, scaleY: Double
    /// Per-axis offset.
    public var offsetX: Double, offsetY: Double

    /// Creates a transform.
    public init(scaleX: Double, scaleY: Double, offsetX: Double, offsetY: Double) {
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.offsetX = offsetX
        self.offsetY = offsetY
    }

    /// The identity: the picture fills the canvas.
    public static let identity = UVTransform(scaleX: 1, scaleY: 1, offsetX: 0, offsetY: 0)

    /// The picture point under a canvas point.
    public func apply(_ p: UnitPoint) -> UnitPoint {
        UnitPoint(x: p.x * scaleX + offsetX, y: p.y * scaleY + offsetY)
    }
}

/// A flat view of a picture: fit, then zoom (1×–4×) about a centre in picture coordinates.
public struct FlatView: Sendable, Equatable {
    /// Smallest zoom.
    public static let minZoom = 1.0
    /// Largest zoom.
    public static let maxZoom = 4.0

    /// How the picture fits the canvas at zoom 1.
    public var fit: FitMode
    /// 1...4.
    public var zoom: Double
    /// The picture point shown at the canvas centre (clamped when the view is computed).
    public var center: UnitPoint
    /// Whether zoom may go past its limits, to `elasticZoomRange` (a pinch's rubber band before it settles).
    public var elastic = false

    /// How far an elastic view may zoom.
    public static let elasticZoomRange: ClosedRange<Double> = 0.7...5

    /// Creates a view.
    public init(fit: FitMode = .contain, zoom: Double = 1, center: UnitPoint = .center) {
        self.fit = fit
        self.zoom = zoom
        self.center = center
    }

    /// The size, in canvas units (fractions of the canvas), that the picture occupies at zoom 1.
    public static func fittedExtent(picture: PixelSize, canvas: PixelSize, fit: FitMode) -> (w: Double, h: Double) {
        let pa = picture.aspect, ca = canvas.aspect
        switch fit {
        case .fill: return (1, 1)
        case .contain: return pa > ca ? (1, ca / pa) : (pa / ca, 1)
        case .cover: return pa > ca ? (pa / ca, 1) : (1, ca / pa)
        }
    }

    /// The canvas→picture transform for a picture of `picture` size on a canvas of `canvas` size.
    ///
    /// Zoom is clamped to 1...4. The centre is clamped so that, along any axis where the zoomed picture is
    /// larger than the canvas, no background shows; along an axis where it is smaller, it stays centred.
    public func transform(picture: PixelSize, canvas: PixelSize) -> UVTransform {
        let limits = elastic ? Self.elasticZoomRange : Self.minZoom...Self.maxZoom
        let z = min(max(zoom, limits.lowerBound), limits.upperBound)
        let ext = Self.fittedExtent(picture: picture, canvas: canvas, fit: fit)
        let w = ext.w * z, h = ext.h * z  // picture size in canvas units
        func axis(_ size: Double, _ c: Double) -> (scale: Double, offset: Double) {
            // picture coordinate u at canvas coordinate s: u = (s - 0.5) / size + cc
            let cc: Double
            if size <= 1 {
                cc = 0.5
            } else {
                let half = 0.5 / size
                cc = min(max(c, half), 1 - half)
            }
            return (1 / size, cc - 0.5 / size)
        }
        let ax = axis(w, center.x), ay = axis(h, center.y)
        return UVTransform(scaleX: ax.scale, scaleY: ay.scale, offsetX: ax.offset, offsetY: ay.offset)
    }

    /// The largest decoded size worth keeping for this picture on this canvas at `maxZoom`: the size the
    /// picture covers on screen, never larger than the picture itself. Decoders scale down to it.
    public static func decodeSize(picture: PixelSize, canvas: PixelSize, fit: FitMode, maxZoom: Double = 1) -> PixelSize {
        let ext = fittedExtent(picture: picture, canvas: canvas, fit: fit)
        let z = max(1, maxZoom)
        var w = ext.w * Double(canvas.width) * z
        var h = ext.h * Double(canvas.height) * z
        if fit != .fill {
            // keep the picture's aspect exactly
            let s = min(1, w / Double(picture.width))
            w = Double(picture.width) * s
            h = Double(picture.height) * s
        } else {
            w = min(w, Double(picture.width))
            h = min(h, Double(picture.height))
        }
        return PixelSize(width: max(1, Int(saturating: w)), height: max(1, Int(saturating: h)))
    }
}
