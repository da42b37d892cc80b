/// A block of text ready to draw, as plain values: the glyph atlas's coverage bitmap, one quad per glyph and the
/// look. Made by KioskText (FreeType, HarfBuzz), drawn by KioskRender, so the renderer needs no font library.

/// One glyph to draw: its coverage in the atlas and where it goes, both the same size (drawn 1:1).
public struct GlyphQuad: Sendable, Hashable {
    /// The glyph's coverage in the atlas, in atlas pixels.
    public var source: PixelRect
    /// Where it is drawn, in canvas pixels.
    public var destination: PixelRect

    /// Creates a quad.
    public init(source: PixelRect, destination: PixelRect) {
        self.source = source
        self.destination = destination
    }
}

/// The rows of an atlas one generation changed.
public struct AtlasChange: Sendable, Equatable {
    /// The generation that made the change.
    public var generation: Int
    /// The rows it wrote.
    public var rows: Range<Int>

    /// Creates a change record.
    public init(generation: Int, rows: Range<Int>) {
        self.generation = generation
        self.rows = rows
    }
}

/// A snapshot of a glyph atlas: an 8-bit coverage bitmap (one byte a pixel, rows top-down) and which rows changed
/// in its recent generations, so a GPU copy is brought up to date with only those rows.
public struct GlyphAtlasImage: Sendable {
    /// Which atlas this is (a texture caches one atlas).
    public var atlasID: Int
    /// Bumped on every change to the pixels.
    public var generation: Int
    /// The bitmap's size.
    public var size: PixelSize
    /// `size.width * size.height` coverage bytes.
    public var pixels: [UInt8]
    /// The rows changed by generations after `historyStart`, oldest first.
    public var changes: [AtlasChange]
    /// The oldest generation the change list starts after: a copy older than that is refreshed whole.
    public var historyStart: Int

    /// Creates a snapshot.
    public init(atlasID: Int, generation: Int, size: PixelSize, pixels: [UInt8], changes: [AtlasChange] = [],
                historyStart: Int = 0) {
        precondition(pixels.count == size.width * size.height, "GlyphAtlasImage: pixel count does not match size")
        self.atlasID = atlasID
        self.generation = generation
        self.size = size
        self.pixels = pixels
        self.changes = changes
        self.historyStart = historyStart
    }

    /// The rows a copy made at generation `copied` must refresh: nil when it is current, every row when it is
    /// older than the history or from a later (reset) state.
    public func rowsChanged(since copied: Int) -> Range<Int>? {
        if copied == generation { return nil }
        guard copied >= historyStart, copied < generation else { return 0..<size.height }
        var low = Int.max, high = Int.min
        for change in changes where change.generation > copied {
            low = min(low, change.rows.lowerBound)
            high = max(high, change.rows.upperBound)
        }
        return low < high ? low..<high : nil
    }
}

/// A block of text to draw over the pictures, in canvas pixels.
public struct TextDrawing: Sendable {
    /// The atlas the quads sample.
    public var atlas: GlyphAtlasImage
    /// One quad per glyph with ink, in canvas pixels.
    public var quads: [GlyphQuad]
    /// The look, every size worked out (`TextStyle.resolved`).
    public var style: TextStyle
    /// The union of the glyphs' bitmaps on the canvas.
    public var inkBounds: PixelRect
    /// The box behind the text (drawn when the style has a background).
    public var box: PixelRect
    /// Where anything is drawn: the ink grown by the outline and shadow's reach, and the box when drawn.
    public var area: PixelRect

    /// Creates a drawing; `area` is worked out from the quads, the style's reach and the box.
    public init(atlas: GlyphAtlasImage, quads: [GlyphQuad], style: TextStyle, box: PixelRect) {
        self.atlas = atlas
        self.quads = quads
        self.style = style
        self.box = box
        let ink = quads.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1.destination) }
        inkBounds = ink
        let reach = style.effectReach
        let effects = ink.isEmpty ? ink : ink.insetBy(-reach)
        area = style.background == nil ? effects : effects.union(box)
    }

    /// The same drawing moved by (dx, dy) canvas pixels.
    public func offsetBy(_ dx: Int, _ dy: Int) -> TextDrawing {
        var out = self
        out.quads = quads.map { GlyphQuad(source: $0.source, destination: $0.destination.offsetBy(dx, dy)) }
        out.inkBounds = inkBounds.offsetBy(dx, dy)
        out.box = box.offsetBy(dx, dy)
        out.area = area.offsetBy(dx, dy)
        return out
    }
}
