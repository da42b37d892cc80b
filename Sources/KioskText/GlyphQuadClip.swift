/// Glyph quads cut to a rectangle: a block with a box behind it keeps all its ink (and the outline and shadow
/// around it) inside the box, so marks stacked on a letter can't draw over the picture outside it.
import KioskCore

extension GlyphQuad {
    /// The part of the quad inside `rect`, its source cut by the same pixels; nil when none of it is.
    func clipped(to rect: PixelRect) -> GlyphQuad? {
        let d = destination
        let x0 = max(d.x, rect.x), y0 = max(d.y, rect.y)
        let x1 = min(d.maxX, rect.maxX), y1 = min(d.maxY, rect.maxY)
        guard x0 < x1, y0 < y1 else { return nil }
        let inside = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        let from = PixelRect(x: source.x + x0 - d.x, y: source.y + y0 - d.y, width: inside.width, height: inside.height)
        return GlyphQuad(source: from, destination: inside)
    }
}
