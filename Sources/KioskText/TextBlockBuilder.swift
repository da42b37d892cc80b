/// From a string to a `TextDrawing` in a few lines: lay out, rasterise into the shared atlas, and place the block
/// on the canvas by an anchor inside the TV-safe area. What an OSD, a clock or a caption uses.
import KioskCore

/// Where on the canvas a block of text goes.
public enum TextAnchor: String, Sendable, CaseIterable {
    /// A corner, an edge's middle, or the centre of the safe area (row by row, top first).
    case topLeft, top, topRight, left, center, right, bottomLeft, bottom, bottomRight

    /// 0 (left), 0.5 or 1 (right).
    var horizontal: Double { [0, 0.5, 1][TextAnchor.allCases.firstIndex(of: self).map { $0 % 3 } ?? 0] }
    /// 0 (top), 0.5 or 1 (bottom).
    var vertical: Double { [0, 0.5, 1][TextAnchor.allCases.firstIndex(of: self).map { $0 / 3 } ?? 0] }
    /// The line alignment that goes with it: left for the left column, right for the right, else centred.
    public var alignment: TextAlignment { [.left, .center, .right][Int(saturating: horizontal * 2, rounding: .towardZero)] }
}

/// An anchor, a margin and the TV-safe area.
public struct TextPlacement: Sendable, Equatable {
    /// Which point of the safe area the block is pinned to.
    public var anchor: TextAnchor
    /// Pixels kept between the block (its box, or its outline) and the safe area's edge.
    public var margin: Double
    /// Percent of the canvas's width and height left out on each side for TVs that overscan (0...25).
    public var overscan: Double

    /// A placement; the default is bottom centre, no margin, no overscan.
    public init(anchor: TextAnchor = .bottom, margin: Double = 0, overscan: Double = 0) {
        self.anchor = anchor
        self.margin = margin
        self.overscan = overscan
    }

    /// The part of a `canvas` the text may use: the canvas less `overscan` percent on each side, less the margin.
    public func safeArea(canvas: PixelSize) -> PixelRect {
        let o = min(max(overscan, 0), 25) / 100, m = max(margin, 0)
        let dx = Int(saturating: Double(canvas.width) * o + m), dy = Int(saturating: Double(canvas.height) * o + m)
        return PixelRect(x: dx, y: dy, width: max(canvas.width - 2 * dx, 0), height: max(canvas.height - 2 * dy, 0))
    }
}

/// Text sizes given relative to the canvas.
public enum TextSize {
    /// `fraction` of `canvasHeight` in whole pixels, at least 1 (`--osd-size 0.05` on 1080 lines: 54 px).
    public static func pixels(fractionOfHeight fraction: Double, canvasHeight: Int) -> Double {
        max(1, (fraction * Double(canvasHeight)).rounded())
    }
}

/// Turns strings into drawings with one glyph atlas and a cache of fonts. Use it on one thread (the render
/// thread, or whichever builds the frame).
public final class TextBlockBuilder {
    /// The atlas every drawing samples.
    public let atlas: GlyphAtlas
    /// Fonts by face and size.
    private var fonts: [FontKey: Font] = [:]

    private struct FontKey: Hashable {
        var file: FontFile, size64: Int
    }

    /// A builder drawing into `atlas`.
    public init(atlas: GlyphAtlas = GlyphAtlas()) {
        self.atlas = atlas
    }

    /// The font of `file` at `pixelSize`, loaded once.
    public func font(_ file: FontFile, pixelSize: Double) throws -> Font {
        let key = FontKey(file: file, size64: Int(saturating: pixelSize * 64))
        if let font = fonts[key] { return font }
        let font = try Font(file: file, pixelSize: pixelSize)
        fonts[key] = font
        return font
    }

    /// `text` in `font` and `style`, placed on a `canvas` by `placement`: wrapped to the safe area's width (or
    /// `maxWidth`, whichever is less), at most `maxLines` lines, aligned as the anchor suggests unless `alignment`
    /// says otherwise.
    public func build(_ text: String, font: Font, style: TextStyle = .standard, placement: TextPlacement = TextPlacement(),
                      canvas: PixelSize, maxWidth: Double? = nil, maxLines: Int? = nil,
                      alignment: TextAlignment? = nil) throws -> TextDrawing {
        let look = style.resolved(pixelSize: font.pixelSize)
        let pad = frame(look)
        let safe = placement.safeArea(canvas: canvas)
        let room = Double(safe.width - 2 * pad)
        let layout = try TextLayout(text, font: font, maxWidth: min(maxWidth ?? room, room), maxLines: maxLines,
                                    alignment: alignment ?? placement.anchor.alignment)
        let extent = layout.box.insetBy(-pad)
        let x = safe.x + Int(saturating: Double(safe.width - extent.width) * placement.anchor.horizontal)
        let y = safe.y + Int(saturating: Double(safe.height - extent.height) * placement.anchor.vertical)
        return try build(layout, style: look, x: x + pad, y: y + pad)
    }

    /// `layout` drawn with its top-left corner at canvas pixel (x, y), in `style`.
    public func build(_ layout: TextLayout, style: TextStyle = .standard, x: Int, y: Int) throws -> TextDrawing {
        let look = style.resolved(pixelSize: layout.font.pixelSize)
        var quads = try layout.glyphQuads(atlas: atlas)
        if quads == nil {
            atlas.reset()
            quads = try layout.glyphQuads(atlas: atlas)
        }
        guard let quads else {
            throw TextError(call: "GlyphAtlas", reason: "'\(layout.lines.first?.text ?? "")…' needs more than the atlas's "
                            + "largest size \(atlas.maximumSize)")
        }
        var placed = quads.map { GlyphQuad(source: $0.source, destination: $0.destination.offsetBy(x, y)) }
        let padding = Int(saturating: look.background?.padding ?? 0)
        let box = layout.box.offsetBy(x, y).insetBy(-padding)
        if look.background != nil {
            // Ink past the box (marks stacked above a line) is cut so that it and its outline and shadow stay in.
            let inner = box.insetBy(min(look.effectReach, padding))
            placed = placed.compactMap { $0.clipped(to: inner) }
        }
        return TextDrawing(atlas: atlas.image, quads: placed, style: look, box: box)
    }

    /// Pixels around the line box that belong to the block when placing it: the box's padding, or the outline.
    private func frame(_ look: TextStyle) -> Int {
        if let b = look.background { return Int(saturating: b.padding ?? 0) }
        return Int(saturating: look.outlineWidth ?? 0, rounding: .up)
    }
}
