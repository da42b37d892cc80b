/// Where the now-playing card's square is, for whoever draws what goes in it before the card's texts are known
/// (the picture behind the card is built on the decode thread, before the file's tags are read).

extension NowPlayingCard.Layout {
    /// The square for the artwork on `canvas` within `safeArea`, in canvas fractions: the `artwork` of every
    /// layout for that canvas and safe area (it does not depend on the line count).
    public static func artwork(canvas: PixelSize, safeArea: OverlayRect) -> OverlayRect {
        Self(lineCount: 1, canvas: canvas, safeArea: safeArea).artwork
    }

    /// The same square in whole pixels of `canvas`: each edge rounded to the nearest pixel, at least one pixel
    /// wide and high, within the canvas.
    public static func artworkPixels(canvas: PixelSize, safeArea: OverlayRect) -> PixelRect {
        let r = artwork(canvas: canvas, safeArea: safeArea)
        let w = Double(canvas.width), h = Double(canvas.height)
        func edge(_ f: Double, _ span: Double, _ limit: Int) -> Int { min(max(0, Int(saturating: f * span)), limit) }
        let x0 = edge(r.x, w, canvas.width - 1), y0 = edge(r.y, h, canvas.height - 1)
        let x1 = max(x0 + 1, edge(r.maxX, w, canvas.width)), y1 = max(y0 + 1, edge(r.maxY, h, canvas.height))
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
