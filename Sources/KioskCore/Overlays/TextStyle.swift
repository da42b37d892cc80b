/// How text on screen looks: fill colour, outline, soft shadow and an optional box behind it. Sizes are in canvas
/// pixels; `nil` sizes scale with the text's pixel size (see `resolved(pixelSize:)`).

/// The soft shadow under text.
public struct TextShadow: Sendable, Hashable {
    /// Offset right and down in pixels (nil: pixel size / 24, at least 1).
    public var offset: Double?
    /// Blur radius in pixels (nil: pixel size / 16, at least 1).
    public var softness: Double?
    /// 0...1.
    public var opacity: Double
    /// Its colour.
    public var color: RGBColor

    /// A shadow; the defaults scale with the text size.
    public init(offset: Double? = nil, softness: Double? = nil, opacity: Double = 0.75, color: RGBColor = .black) {
        self.offset = offset
        self.softness = softness
        self.opacity = opacity
        self.color = color
    }
}

/// A box drawn behind the text (inside its padding).
public struct TextBackground: Sendable, Hashable {
    /// Its colour.
    public var color: RGBColor
    /// 0...1.
    public var opacity: Double
    /// Space between the text's line box and the box's edge, in pixels (nil: pixel size / 4).
    public var padding: Double?

    /// A box; the default is half-transparent black.
    public init(color: RGBColor = .black, opacity: Double = 0.5, padding: Double? = nil) {
        self.color = color
        self.opacity = opacity
        self.padding = padding
    }
}

/// The look of a block of text.
public struct TextStyle: Sendable, Hashable {
    /// The fill colour.
    public var color: RGBColor
    /// Outline width in pixels (nil: pixel size / 16, at least 1; 0: no outline).
    public var outlineWidth: Double?
    /// The outline's colour.
    public var outlineColor: RGBColor
    /// The soft shadow (nil: none).
    public var shadow: TextShadow?
    /// The box behind the text (nil: none).
    public var background: TextBackground?

    /// A style; the default is the caption look: white, a dark outline and a soft shadow, no box.
    public init(color: RGBColor = TextStyle.white, outlineWidth: Double? = nil, outlineColor: RGBColor = TextStyle.dark,
                shadow: TextShadow? = TextShadow(), background: TextBackground? = nil) {
        self.color = color
        self.outlineWidth = outlineWidth
        self.outlineColor = outlineColor
        self.shadow = shadow
        self.background = background
    }

    /// White, the default fill.
    public static let white = RGBColor(red: 1, green: 1, blue: 1)
    /// Nearly black, the default outline.
    public static let dark = RGBColor(red: 0.04, green: 0.04, blue: 0.04)

    /// The caption look (white, dark outline, soft shadow).
    public static let standard = TextStyle()

    /// Fill only: no outline, shadow or box.
    public static func plain(_ color: RGBColor) -> TextStyle {
        TextStyle(color: color, outlineWidth: 0, shadow: nil)
    }

    /// This style with every automatic size worked out for text of `pixelSize` pixels.
    public func resolved(pixelSize: Double) -> TextStyle {
        var out = self
        out.outlineWidth = max(0, outlineWidth ?? max(1, pixelSize / 16))
        if var s = shadow {
            s.offset = s.offset ?? max(1, pixelSize / 24)
            s.softness = max(0, s.softness ?? max(1, pixelSize / 16))
            s.opacity = min(max(s.opacity, 0), 1)
            out.shadow = s.opacity > 0 ? s : nil
        }
        if var b = background {
            b.padding = max(0, b.padding ?? pixelSize / 4)
            b.opacity = min(max(b.opacity, 0), 1)
            out.background = b.opacity > 0 ? b : nil
        }
        return out
    }

    /// How far, in pixels, outline and shadow reach beyond the glyphs' ink (for a resolved style).
    public var effectReach: Int {
        let outline = outlineWidth ?? 0
        let shadow = self.shadow.map { ($0.offset ?? 0) + ($0.softness ?? 0) } ?? 0
        return Int(saturating: outline + shadow, rounding: .up) + 1
    }
}
