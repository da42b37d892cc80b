/// The touch grid's geometry in canvas pixels, (0,0) the top-left corner: a row of filter chips at the top and
/// square tiles below it, scrolled vertically. Pure arithmetic on whole pixels; the grid's state owns one.
///
/// The rule, for a canvas of width W and shorter side S:
/// - columns: W / 380 rounded, at least 2 and at most 8 (1080×1920 → 3, 1280×720 → 3, 1920×1080 → 5,
///   3840×2160 → 8), unless given;
/// - gap between tiles, and the outer margin: 5 % of S / columns, at least 2 px (1920×1080: 11 px);
/// - tiles: square, the widest whole side that fits the columns, gaps and margins; the leftover pixels are split
///   between the left and right margins;
/// - chips: one row at the top, a gap below the canvas's top, 6.5 % of S high (at least 32 px), all the same
///   width (at most three times their height), a gap apart, starting at the tiles' left edge;
/// - the tile area starts a gap below the chips and runs to the canvas's bottom; the content is `rows` rows of
///   one tile and one gap each (the last gap is the bottom margin).

/// One filter chip and where it is.
public struct GridChip: Sendable, Equatable {
    /// What the chip shows.
    public var filter: GridFilter
    /// Where it is on the canvas.
    public var rect: PixelRect
}

/// Where the grid's chips and tiles are for a canvas and a number of tiles.
public struct GridLayout: Sendable, Equatable {
    /// Width in pixels per column when the columns are not given.
    public static let pixelsPerColumn = 380.0
    /// The fewest and the most columns chosen from the width.
    public static let columnRange = 2...8
    /// Gap and margin as a fraction of (shorter side / columns).
    public static let gapFraction = 0.05
    /// Chip height as a fraction of the shorter side.
    public static let chipFraction = 0.065
    /// The lowest chip height in pixels.
    public static let minChipHeight = 32

    /// The canvas laid out.
    public let canvas: PixelSize
    /// How many tiles.
    public let count: Int
    /// Tiles per row.
    public let columns: Int
    /// The side of a tile.
    public let tileSide: Int
    /// Pixels between tiles, and the outer margin.
    public let gap: Int
    /// The left edge of the first column (and of the first chip).
    public let left: Int
    /// The chips, left to right, in `GridFilter.allCases` order.
    public let chips: [GridChip]
    /// Where tiles are drawn: below the chips, to the canvas's bottom (clip tiles to it).
    public let tileArea: PixelRect

    /// Lays out `count` tiles on `canvas`, in `columns` columns or as many as the width suggests.
    public init(canvas: PixelSize, count: Int, columns: Int? = nil) {
        let w = max(1, canvas.width), h = max(1, canvas.height)
        let short = Double(min(w, h))
        let cols = columns.map { max(1, $0) } ?? Self.columns(forWidth: w)
        let gap = max(2, Int(saturating: short * Self.gapFraction / Double(cols)))
        let side = max(1, (w - (cols + 1) * gap) / cols)
        let left = (w - (cols * side + (cols - 1) * gap)) / 2
        let chipHeight = max(Self.minChipHeight, Int(saturating: short * Self.chipFraction))
        let filters = GridFilter.allCases
        let room = w - 2 * left - (filters.count - 1) * gap
        let chipWidth = max(1, min(3 * chipHeight, room / filters.count))
        self.canvas = canvas
        self.count = max(0, count)
        self.columns = cols
        self.tileSide = side
        self.gap = gap
        self.left = left
        self.chips = filters.enumerated().map { k, f in
            GridChip(filter: f, rect: PixelRect(x: left + k * (chipWidth + gap), y: gap, width: chipWidth, height: chipHeight))
        }
        let top = gap + chipHeight + gap
        self.tileArea = PixelRect(x: 0, y: top, width: w, height: max(0, h - top))
    }

    /// The columns chosen for a canvas `width` pixels wide.
    public static func columns(forWidth width: Int) -> Int {
        let n = Int(saturating: Double(max(0, width)) / pixelsPerColumn)
        return min(max(n, columnRange.lowerBound), columnRange.upperBound)
    }

    /// A tile and the gap after it: the distance from one row to the next (and from one column to the next).
    public var rowHeight: Int { tileSide + gap }
    /// Rows of tiles (the last may be partly filled).
    public var rows: Int { (count + columns - 1) / columns }
    /// The height of all rows, the bottom margin included.
    public var contentHeight: Int { rows * rowHeight }
    /// The tile area's height.
    public var viewportHeight: Int { tileArea.height }
    /// The largest scroll: 0 when every row fits.
    public var maxScroll: Double { Double(max(0, contentHeight - viewportHeight)) }
    /// Whole rows that fit in the tile area (at least 1): how far a page moves.
    public var pageRows: Int { max(1, (viewportHeight + gap) / rowHeight) }

    /// `scroll` in whole pixels (non-finite counts as 0).
    static func pixels(_ scroll: Double) -> Int {
        scroll.isFinite ? Int(saturating: min(max(scroll, -1e9), 1e9)) : 0
    }

    /// Where tile `index` is on the canvas when the content is scrolled up by `scroll` pixels (0: the top row
    /// touches the tile area's top). It may be partly or wholly outside the tile area.
    public func tileRect(_ index: Int, scroll: Double) -> PixelRect {
        let row = index / columns, col = index % columns
        return PixelRect(x: left + col * rowHeight, y: tileArea.y + row * rowHeight - Self.pixels(scroll),
                         width: tileSide, height: tileSide)
    }

    /// The tiles at least partly inside the tile area at `scroll`, plus `margin` rows above and below, in order.
    public func visibleRange(scroll: Double, margin: Int = 0) -> Range<Int> {
        guard count > 0, viewportHeight > 0 else { return 0..<0 }
        let top = Self.pixels(scroll), bottom = top + viewportHeight
        // Row r covers [r * rowHeight, r * rowHeight + tileSide) of the content.
        let first = Self.floorDiv(top - tileSide, rowHeight) + 1
        let end = Self.floorDiv(bottom - 1, rowHeight) + 1
        let lo = min(max(first - max(0, margin), 0), rows)
        let hi = min(max(end + max(0, margin), lo), rows)
        return min(lo * columns, count)..<min(hi * columns, count)
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    /// The tile under canvas point `p` at `scroll`: nil outside the tile area, in a gap or past the last tile.
    public func tile(at p: CanvasPoint, scroll: Double) -> Int? {
        guard p.x.isFinite, p.y.isFinite, p.y >= Double(tileArea.y), p.y < Double(tileArea.maxY) else { return nil }
        let x = Int(saturating: p.x, rounding: .down) - left
        let y = Int(saturating: p.y, rounding: .down) - tileArea.y + Self.pixels(scroll)
        guard x >= 0, y >= 0 else { return nil }
        let col = x / rowHeight, row = y / rowHeight
        guard col < columns, x % rowHeight < tileSide, y % rowHeight < tileSide else { return nil }
        let index = row * columns + col
        return index < count ? index : nil
    }

    /// The chip under canvas point `p`, if any.
    public func chip(at p: CanvasPoint) -> GridFilter? {
        guard p.x.isFinite, p.y.isFinite else { return nil }
        let x = Int(saturating: p.x, rounding: .down), y = Int(saturating: p.y, rounding: .down)
        return chips.first { x >= $0.rect.x && x < $0.rect.maxX && y >= $0.rect.y && y < $0.rect.maxY }?.filter
    }

    /// The nearest scroll to `scroll` that shows tile `index`'s whole row (with the gap below it when scrolling
    /// down), within 0…maxScroll. A row taller than the tile area is shown from its top.
    public func scroll(toShow index: Int, from scroll: Double) -> Double {
        let current = clamp(scroll.isFinite ? scroll : 0)
        guard count > 0 else { return 0 }
        let row = min(max(index, 0), count - 1) / columns
        let top = Double(row * rowHeight), bottom = Double((row + 1) * rowHeight)
        let side = Double(tileSide), height = Double(viewportHeight)
        if top < current || side > height { return clamp(top) }
        if top + side > current + height { return clamp(min(top, bottom - height)) }
        return current
    }

    /// `rows` rows in pixels, within 0…maxScroll (`--grid-scroll ROWS`).
    public func scroll(rows: Double) -> Double {
        clamp(rows.isFinite ? rows * Double(rowHeight) : 0)
    }

    /// `scroll` within 0…maxScroll.
    public func clamp(_ scroll: Double) -> Double { min(max(scroll, 0), maxScroll) }
}
