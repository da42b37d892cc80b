import KioskCore
import KioskRender

/// The grid's look, as overlay layers: a dark canvas; each tile its thumbnail (a dim square until it is
/// decoded, a dark red one with a "?" when it cannot be); the current item framed in amber and the
/// focused tile in a white ring; badges in the tiles' corners (a 360 mark top left, a play mark bottom left, the
/// length bottom right); and over the tiles that scroll under it, the chip bar with the active chip lit.
struct GridPainter {
    /// The canvas behind the tiles.
    static let background = RGBColor(red: 0.07, green: 0.07, blue: 0.08)
    /// Chip labels are drawn above the chip bar (which is above the tiles and their badges).
    static let chipTextZ = 4
    static let chipBarZ = 3

    let state: GridState
    let tiles: [(index: Int, entry: GridEntry, rect: PixelRect)]
    /// Decoded thumbnails by tile index.
    let pictures: [Int: Texture]
    /// Whether a path's thumbnail failed.
    let failed: (String) -> Bool

    private static let placeholder = PremultipliedColor(red: 0.16, green: 0.16, blue: 0.18, alpha: 1)
    private static let broken = PremultipliedColor(red: 0.24, green: 0.08, blue: 0.08, alpha: 1)
    private static let amber = PremultipliedColor(red: 0.98, green: 0.70, blue: 0.15, alpha: 1)
    private static let white = PremultipliedColor(red: 1, green: 1, blue: 1, alpha: 1)
    private static let chipOn = PremultipliedColor(red: 0.18, green: 0.45, blue: 0.88, alpha: 1)
    private static let chipOff = PremultipliedColor(red: 0.20, green: 0.20, blue: 0.23, alpha: 1)

    /// Every layer: the shapes, then the texts drawn by `text` (nil: no font, no labels); and where the badges
    /// landed, in canvas pixels.
    func overlays(text: OverlayPainter?) throws -> (layers: [RenderOverlay], badges: [PixelRect]) {
        var out = shapes()
        guard let text else { return (out, []) }
        let t = texts()
        var labels = try text.overlays(for: OverlayScene(texts: t.badges + t.chips), canvas: state.layout.canvas)
        for i in labels.indices.suffix(t.chips.count) { labels[i].z = Self.chipTextZ }
        out += labels
        return (out, labels.prefix(t.badges.count).map(\.rect))
    }

    /// The solid and textured layers: tiles, frames, the chip bar and its chips.
    func shapes() -> [RenderOverlay] {
        var out: [RenderOverlay] = []
        // Both frames sit in the gap around a tile, never over a neighbour's thumbnail.
        let gap = state.layout.gap
        let ring = max(1, gap / 2)
        var focusRect: PixelRect?
        for tile in tiles {
            if let tex = pictures[tile.index] {
                out.append(RenderOverlay(.texture(tex), rect: tile.rect, blend: .opaque))
            } else {
                out.append(RenderOverlay(.solid(failed(tile.entry.path) ? Self.broken : Self.placeholder), rect: tile.rect))
            }
            if tile.entry.id == state.current { out += Self.frame(tile.rect, width: ring, color: Self.amber) }
            if tile.index == state.focus { focusRect = tile.rect }
        }
        if let r = focusRect { out += Self.frame(r, width: max(1, gap * 3 / 4), color: Self.white) }
        let bar = state.layout.chipBar
        out.append(RenderOverlay(.solid(PremultipliedColor(Self.background, alpha: 1)), rect: bar, z: Self.chipBarZ))
        for chip in state.layout.chips {
            out.append(RenderOverlay(.solid(chip.filter == state.filter ? Self.chipOn : Self.chipOff), rect: chip.rect,
                                     z: Self.chipBarZ))
        }
        return out
    }

    /// The texts: badges of tiles wholly below the chip bar, then the chip labels (in chip order, last).
    func texts() -> (badges: [OverlayText], chips: [OverlayText]) {
        let canvas = state.layout.canvas
        let size = Double(state.layout.tileSide) * 0.11 / Double(max(1, canvas.height))
        var badges: [OverlayText] = []
        let top = state.layout.chipBar.maxY
        for tile in tiles where tile.rect.y >= top && tile.rect.maxY <= canvas.height + tile.rect.height / 2 {
            let area = Self.unit(tile.rect.insetBy(max(2, tile.rect.width / 30)), canvas)
            let facts = tile.entry.facts
            if facts.isSphere { badges.append(Self.badge("360", .topLeft, area, size)) }
            if facts.hasPlayMark { badges.append(Self.badge("\u{25B6}", .bottomLeft, area, size)) }
            if let length = facts.lengthBadge { badges.append(Self.badge(length, .bottomRight, area, size)) }
            if pictures[tile.index] == nil && failed(tile.entry.path) { badges.append(Self.badge("?", .centre, area, size * 2)) }
        }
        let chips = state.layout.chips.map { chip in
            OverlayText(role: .gridChip, text: chip.filter.label, anchor: .centre, area: Self.unit(chip.rect, canvas),
                        sizeFraction: Double(chip.rect.height) * 0.5 / Double(max(1, canvas.height)), maxWidthFraction: 1)
        }
        return (badges, chips)
    }

    private static func badge(_ text: String, _ anchor: OverlayAnchor, _ area: UnitRect, _ size: Double) -> OverlayText {
        OverlayText(role: .gridBadge, text: text, anchor: anchor, area: area, sizeFraction: size, maxWidthFraction: 1, box: true)
    }

    /// A frame `width` pixels wide just outside `r`.
    static func frame(_ r: PixelRect, width w: Int, color: PremultipliedColor) -> [RenderOverlay] {
        [PixelRect(x: r.x - w, y: r.y - w, width: r.width + 2 * w, height: w),
         PixelRect(x: r.x - w, y: r.maxY, width: r.width + 2 * w, height: w),
         PixelRect(x: r.x - w, y: r.y, width: w, height: r.height),
         PixelRect(x: r.maxX, y: r.y, width: w, height: r.height)].map { RenderOverlay(.solid(color), rect: $0) }
    }

    /// A pixel rectangle as canvas fractions.
    static func unit(_ r: PixelRect, _ canvas: PixelSize) -> UnitRect {
        let w = Double(max(1, canvas.width)), h = Double(max(1, canvas.height))
        return UnitRect(x: Double(r.x) / w, y: Double(r.y) / h, width: Double(r.width) / w, height: Double(r.height) / h)
    }
}

extension GridLayout {
    /// The band at the top that holds the chips, across the canvas: tiles scroll under it.
    var chipBar: PixelRect { PixelRect(x: 0, y: 0, width: canvas.width, height: tileArea.y) }
}
