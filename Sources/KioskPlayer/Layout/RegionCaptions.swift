import KioskCore
import KioskRender

/// Captions belong to their region: a medium's `<param name="caption" value="…">` is drawn at the bottom of the
/// region showing it, over its pictures (a region above covers it, as it covers the pictures), at the screen's
/// caption size (`--caption-size`) but never over an eighth of the region's height, on the caption's box.
struct RegionCaptions {
    /// Draws the text (kiosk's overlay painter: fontconfig, HarfBuzz, FreeType).
    let painter: OverlayPainter
    /// The caption size, as a fraction of the screen's height.
    let size: Double

    /// The caption overlays for `showings` (by region name), each region's laid out in its rectangle on a
    /// screen `screenHeight` pixels high; `frame` and `z` give each region's rectangle and stacking.
    func overlays(_ showings: [String: RegionShowing], screenHeight: Int, frame: (String) -> LayoutRect?,
                  z: (String) -> Int?) throws -> [RenderOverlay] {
        var out: [RenderOverlay] = []
        for (name, showing) in showings.sorted(by: { $0.key < $1.key }) {
            guard let text = showing.current?.media.params["caption"], !text.isEmpty, let rect = frame(name)?.pixels,
                  rect.width > 0, rect.height > 0, let z = z(name) else { continue }
            let fraction = min(size * Double(screenHeight) / Double(rect.height), 0.125)
            let caption = OverlayText(role: .caption, text: text, anchor: .bottom,
                                      area: UnitRect(x: 0.03, y: 0.03, width: 0.94, height: 0.94), sizeFraction: fraction,
                                      maxLines: 2, maxWidthFraction: 0.94, box: true)
            for o in try painter.overlays(for: OverlayScene(texts: [caption]), canvas: rect.size) {
                var placed = o.offsetBy(rect.x, rect.y)
                placed.z = z
                out.append(placed)
            }
        }
        return out
    }
}
