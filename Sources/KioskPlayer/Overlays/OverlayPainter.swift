import Foundation
import KioskCore
import KioskRender
import KioskText

/// Draws the overlay model (`OverlayScene`) as the renderer's overlay layers: each text a text block in the
/// standard look (white, dark outline, soft shadow; a dark box where asked) placed at its anchor inside its
/// area, texts sharing an anchor and an area stacked away from that edge; each bar a track and its filled part.
///
/// Text blocks are shaped, laid out and rasterised once and kept while they stay on screen, so a frame whose
/// overlays did not change costs no shaping; a clock changing once a minute lays out one new block. Render thread
/// only.
public final class OverlayPainter {
    private let builder = TextBlockBuilder()
    private let font: FontFile
    private var blocks: [BlockKey: TextDrawing] = [:]
    private var used: Set<BlockKey> = []
    private var layouts: [LayoutKey: TextLayout] = [:]
    private var usedLayouts: Set<LayoutKey> = []

    /// What makes a layout: the text, its size and its room.
    private struct LayoutKey: Hashable {
        var text: String
        var pixelSize: Double
        var maxWidth: Int
        var maxLines: Int
        var alignment: TextAlignment
    }

    /// What makes a block: its layout, its box and its place.
    private struct BlockKey: Hashable {
        var layout: LayoutKey
        var box: Double
        var x: Int
        var y: Int
    }

    private let boxOpacity: Double
    /// Where a text cut by its bounds is said, once when its layout is made.
    private let log: Log
    /// The roles of texts already said to be left out for want of a corner clear of a layout's regions.
    private var saidNoRoom: Set<OverlayText.Role> = []

    /// A painter using the font family `family` (fontconfig; a family that is missing falls back to the default
    /// with one warning in `log`), with boxes behind text `boxOpacity` opaque (0: none).
    public init(family: String, boxOpacity: Double = OverlaySettings().boxOpacity, log: Log) throws {
        font = try FontLocator.locate(family, log: log)
        self.boxOpacity = boxOpacity
        self.log = log
    }

    /// The overlay layers for `scene` on a canvas of `canvas` pixels, above the pictures.
    public func overlays(for scene: OverlayScene, canvas: PixelSize) throws -> [RenderOverlay] {
        used.removeAll(keepingCapacity: true)
        var out: [RenderOverlay] = []
        for bar in scene.bars { out += Self.bar(bar, canvas: canvas) }
        var stacks: [StackKey: Int] = [:]
        for asked in scene.texts where !asked.text.isEmpty && asked.opacity > 0 {
            guard let (text, drawing) = try placed(asked, canvas: canvas, stacks: stacks) else { continue }
            let key = StackKey(anchor: text.anchor, area: text.area)
            stacks[key, default: 0] += drawing.area.height + Int(saturating: Double(canvas.height) * 0.008)
            out.append(RenderOverlay(text: drawing, opacity: text.opacity, z: 2))
        }
        blocks = blocks.filter { used.contains($0.key) }  // blocks no longer on screen go
        layouts = layouts.filter { usedLayouts.contains($0.key) }
        usedLayouts.removeAll(keepingCapacity: true)
        return out
    }

    /// `text` at its anchor, or (with rectangles to avoid) at the first of its anchors and fallbacks where its
    /// block covers none of them; nil when it covers one everywhere (the text is left out, said once).
    private func placed(_ text: OverlayText, canvas: PixelSize, stacks: [StackKey: Int]) throws -> (OverlayText, TextDrawing)? {
        guard !text.avoid.isEmpty else {
            return (text, try block(text, canvas: canvas, stacked: stacks[StackKey(anchor: text.anchor, area: text.area)] ?? 0))
        }
        let avoid = text.avoid.map { Self.pixels($0, canvas) }
        for anchor in [text.anchor] + text.fallbacks {
            var t = text
            t.anchor = anchor
            let drawing = try block(t, canvas: canvas, stacked: stacks[StackKey(anchor: anchor, area: t.area)] ?? 0)
            if !avoid.contains(where: { Self.overlap($0, drawing.area) }) { return (t, drawing) }
        }
        if !saidNoRoom.contains(text.role) {
            saidNoRoom.insert(text.role)
            log.info("overlays: the \(text.role.rawValue) is not shown: every corner covers a region of the layout (--clock-position places it anyway)")
        }
        return nil
    }

    /// Whether two pixel rectangles share any pixel.
    static func overlap(_ a: PixelRect, _ b: PixelRect) -> Bool {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    }

    private struct StackKey: Hashable {
        var anchor: OverlayAnchor
        var area: OverlayRect
    }

    /// One text's block, `stacked` pixels away from its anchor's edge (the blocks before it in its stack).
    private func block(_ text: OverlayText, canvas: PixelSize, stacked: Int) throws -> TextDrawing {
        let area = Self.pixels(text.area, canvas)
        let size = TextSize.pixels(fractionOfHeight: text.sizeFraction, canvasHeight: canvas.height)
        let style = Self.style(box: text.box ? boxOpacity : 0)
        let look = style.resolved(pixelSize: size)
        let pad = Int(saturating: look.background?.padding ?? look.outlineWidth ?? 0, rounding: .up)
        let maxWidth = max(1, min(area.width, Int(saturating: Double(canvas.width) * text.maxWidthFraction, rounding: .towardZero)) - 2 * pad)
        let anchor = Self.anchor(text.anchor)
        // The layout decides the block's size, and so its place: the same text in the same room is shaped once,
        // and the same text at the same place is rasterised once.
        let shape = LayoutKey(text: text.text, pixelSize: size, maxWidth: maxWidth, maxLines: text.maxLines,
                              alignment: anchor.alignment)
        usedLayouts.insert(shape)
        let layout: TextLayout
        if let known = layouts[shape] {
            layout = known
        } else {
            layout = try TextLayout(text.text, font: try builder.font(font, pixelSize: size), maxWidth: Double(maxWidth),
                                    maxLines: text.maxLines, alignment: anchor.alignment,
                                    bounds: text.role == .caption ? .caption : .standard)
            if let cut = layout.cut { log.warn("overlays: \(text.role.rawValue) \(cut)") }
            layouts[shape] = layout
        }
        let extent = layout.box.insetBy(-pad)
        let h = Double(text.anchor.x), v = Double(text.anchor.y)
        var x = area.x + Int(saturating: Double(area.width - extent.width) * h)
        var y = area.y + Int(saturating: Double(area.height - extent.height) * v)
        y += v >= 1 ? -stacked : stacked
        x += pad
        y += pad
        let key = BlockKey(layout: shape, box: text.box ? boxOpacity : 0, x: x, y: y)
        used.insert(key)
        if let known = blocks[key] { return known }
        let drawing = try builder.build(layout, style: look, x: x, y: y)
        blocks[key] = drawing
        return drawing
    }

    /// The look: the standard one (white, outline, shadow), on a dark box `box` opaque (0: none).
    static func style(box: Double) -> TextStyle {
        var s = TextStyle.standard
        if box > 0 { s.background = TextBackground(color: .black, opacity: min(box, 1)) }
        return s
    }

    /// A bar: a dim track and its filled part, white.
    static func bar(_ bar: OverlayBar, canvas: PixelSize) -> [RenderOverlay] {
        let track = pixels(bar.rect, canvas)
        guard !track.isEmpty else { return [] }
        let fill = PixelRect(x: track.x, y: track.y, width: Int(saturating: Double(track.width) * min(max(bar.filled, 0), 1)),
                             height: track.height)
        var out = [RenderOverlay(.solid(PremultipliedColor(red: 0, green: 0, blue: 0, alpha: 0.45)), rect: track, z: 2)]
        if !fill.isEmpty { out.append(RenderOverlay(.solid(PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1)), rect: fill, z: 2)) }
        return out
    }

    /// A rectangle in canvas fractions, in whole pixels.
    static func pixels(_ r: OverlayRect, _ canvas: PixelSize) -> PixelRect {
        let w = Double(canvas.width), h = Double(canvas.height)
        let x0 = Int(saturating: r.x * w), y0 = Int(saturating: r.y * h)
        let x1 = Int(saturating: r.maxX * w), y1 = Int(saturating: r.maxY * h)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The text engine's anchor for an overlay anchor (both list the nine places in the same order).
    static func anchor(_ a: OverlayAnchor) -> TextAnchor {
        TextAnchor.allCases[OverlayAnchor.allCases.firstIndex(of: a) ?? 7]
    }
}
