import XCTest
@testable import KioskCore

/// The touch grid's geometry: columns from the canvas, square tiles a constant gap apart, the chip row above
/// them, hit tests and the rows in view at a scroll.
final class GridLayoutTests: XCTestCase {
    private let portrait = PixelSize(width: 1080, height: 1920)
    private let landscape = PixelSize(width: 1920, height: 1080)

    func testColumnsFollowTheWidth() {
        XCTAssertEqual(GridLayout(canvas: portrait, count: 10).columns, 3)
        XCTAssertEqual(GridLayout(canvas: landscape, count: 10).columns, 5)
        XCTAssertEqual(GridLayout(canvas: PixelSize(width: 1280, height: 720), count: 10).columns, 3)
        XCTAssertEqual(GridLayout(canvas: PixelSize(width: 3840, height: 2160), count: 10).columns, 8)
        XCTAssertEqual(GridLayout(canvas: PixelSize(width: 480, height: 800), count: 10).columns, 2)
        XCTAssertEqual(GridLayout(canvas: PixelSize(width: 2560, height: 1440), count: 10).columns, 7)
        XCTAssertEqual(GridLayout(canvas: landscape, count: 10, columns: 4).columns, 4)
    }

    func testTilesAreSquareInsideTheCanvasAndEvenlySpaced() {
        for canvas in [portrait, landscape, PixelSize(width: 1280, height: 720), PixelSize(width: 3840, height: 2160),
                       PixelSize(width: 800, height: 480)] {
            let l = GridLayout(canvas: canvas, count: 23)
            let rects = (0..<23).map { l.tileRect($0, scroll: 0) }
            XCTAssertEqual(l.gap, max(2, Int((Double(min(canvas.width, canvas.height)) * 0.05 / Double(l.columns)).rounded())))
            for (i, r) in rects.enumerated() {
                XCTAssertEqual(r.width, r.height, "\(canvas) tile \(i)")
                XCTAssertGreaterThanOrEqual(r.x, l.gap, "\(canvas) tile \(i)")
                XCTAssertLessThanOrEqual(r.maxX, canvas.width - l.gap, "\(canvas) tile \(i)")
                if i % l.columns > 0 { XCTAssertEqual(r.x - rects[i - 1].maxX, l.gap, "\(canvas) tile \(i)") }
                if i >= l.columns { XCTAssertEqual(r.y - rects[i - l.columns].maxY, l.gap, "\(canvas) tile \(i)") }
                for j in 0..<i { XCTAssertFalse(overlap(r, rects[j]), "\(canvas) tiles \(j) and \(i)") }
            }
            // The leftover is split: left and right margins differ by at most a pixel.
            let right = canvas.width - rects[l.columns - 1].maxX
            XCTAssertLessThanOrEqual(abs(right - rects[0].x), 1, "\(canvas)")
            // Wider tiles would not fit.
            XCTAssertGreaterThan(l.columns * (l.tileSide + 1) + (l.columns + 1) * l.gap, canvas.width, "\(canvas)")
        }
    }

    func testChipsFormOneRowAboveTheTiles() {
        for canvas in [portrait, landscape, PixelSize(width: 640, height: 360)] {
            let l = GridLayout(canvas: canvas, count: 12)
            XCTAssertEqual(l.chips.map(\.filter), GridFilter.allCases)
            let short = min(canvas.width, canvas.height)
            XCTAssertEqual(l.chips[0].rect.height, max(32, Int((Double(short) * 0.065).rounded())), "\(canvas)")
            XCTAssertEqual(l.chips[0].rect.x, l.tileRect(0, scroll: 0).x, "\(canvas): chips start at the tiles' edge")
            for (k, c) in l.chips.enumerated() {
                XCTAssertEqual(c.rect.y, l.chips[0].rect.y)
                XCTAssertEqual(c.rect.size, l.chips[0].rect.size)
                XCTAssertLessThanOrEqual(c.rect.maxX, canvas.width)
                XCTAssertLessThanOrEqual(c.rect.maxY, l.tileArea.y - l.gap, "\(canvas): chip above the tiles")
                if k > 0 { XCTAssertEqual(c.rect.x - l.chips[k - 1].rect.maxX, l.gap) }
                let centre = CanvasPoint(x: Double(c.rect.x) + Double(c.rect.width) / 2, y: Double(c.rect.y) + 5)
                XCTAssertEqual(l.chip(at: centre), c.filter)
                XCTAssertNil(l.tile(at: centre, scroll: 0))
            }
            XCTAssertEqual(l.tileRect(0, scroll: 0).y, l.tileArea.y)
            XCTAssertEqual(l.tileArea.maxY, canvas.height)
            XCTAssertNil(l.chip(at: CanvasPoint(x: 2, y: 2)))
            XCTAssertNil(l.chip(at: CanvasPoint(x: 100, y: Double(l.tileArea.y + 10))))
        }
    }

    func testTileAtFindsEveryVisibleTileAndNoGap() {
        let l = GridLayout(canvas: landscape, count: 37)
        for scroll in [0.0, 123.4, 500, l.maxScroll] {
            let range = l.visibleRange(scroll: scroll)
            XCTAssertFalse(range.isEmpty)
            for i in range {
                let r = l.tileRect(i, scroll: scroll)
                let y0 = max(r.y, l.tileArea.y), y1 = min(r.maxY, l.tileArea.maxY)
                let centre = CanvasPoint(x: Double(r.x) + Double(r.width) / 2, y: Double(y0 + y1) / 2)
                XCTAssertEqual(l.tile(at: centre, scroll: scroll), i, "scroll \(scroll) tile \(i)")
                // Just inside its corners, and in the gap to its right and below it.
                XCTAssertEqual(l.tile(at: CanvasPoint(x: Double(r.maxX) - 0.5, y: Double(y1) - 0.5), scroll: scroll), i)
                XCTAssertNil(l.tile(at: CanvasPoint(x: Double(r.maxX) + 0.5, y: centre.y), scroll: scroll))
                if r.maxY < l.tileArea.maxY {
                    XCTAssertNil(l.tile(at: CanvasPoint(x: centre.x, y: Double(r.maxY) + 0.5), scroll: scroll))
                }
            }
        }
        // In the left margin, past the last tile, above the tile area even where a scrolled tile lies.
        XCTAssertNil(l.tile(at: CanvasPoint(x: 3, y: Double(l.tileArea.y + 50)), scroll: 0))
        let last = l.tileRect(36, scroll: l.maxScroll)
        XCTAssertNil(l.tile(at: CanvasPoint(x: Double(last.maxX + l.gap + 10), y: Double(last.y + 10)), scroll: l.maxScroll))
        XCTAssertEqual(l.tile(at: CanvasPoint(x: Double(last.x + 10), y: Double(last.y + 10)), scroll: l.maxScroll), 36)
        XCTAssertNil(l.tile(at: CanvasPoint(x: 100, y: Double(l.tileArea.y - 1)), scroll: 200))
    }

    func testVisibleRangeAtSeveralScrolls() {
        // 1920x1080: 5 columns, tiles 370 px, gap 11, rows 381 px apart, tile area from y 92 (988 px high).
        let l = GridLayout(canvas: landscape, count: 37)
        XCTAssertEqual([l.columns, l.tileSide, l.gap, l.rowHeight, l.tileArea.y, l.viewportHeight], [5, 370, 11, 381, 92, 988])
        XCTAssertEqual(l.rows, 8)
        XCTAssertEqual(l.contentHeight, 8 * 381)
        XCTAssertEqual(l.maxScroll, Double(8 * 381 - 988))
        XCTAssertEqual(l.pageRows, 2)
        XCTAssertEqual(l.visibleRange(scroll: 0), 0..<15)  // rows 0-2 (row 2 starts at 762 < 988)
        XCTAssertEqual(l.visibleRange(scroll: 369), 0..<20)  // row 0's last pixel row still shows; row 3 at 1143 < 1357
        XCTAssertEqual(l.visibleRange(scroll: 370), 5..<20)  // row 0 gone
        XCTAssertEqual(l.visibleRange(scroll: 155), 0..<15)  // row 3 starts at 1143 = 155 + 988
        XCTAssertEqual(l.visibleRange(scroll: 156), 0..<20)
        XCTAssertEqual(l.visibleRange(scroll: l.maxScroll), 25..<37)  // 2060: rows 5 (1905..2275) to 7
        XCTAssertEqual(l.visibleRange(scroll: 0, margin: 1), 0..<20)
        XCTAssertEqual(l.visibleRange(scroll: 800, margin: 1), 5..<30)  // rows 2-4 in view
        XCTAssertEqual(l.visibleRange(scroll: l.maxScroll, margin: 2), 15..<37)
        XCTAssertEqual(l.visibleRange(scroll: -200), 0..<15)  // pulled down: row 2 at 962 < 988
        XCTAssertEqual(GridLayout(canvas: landscape, count: 0).visibleRange(scroll: 0), 0..<0)
        XCTAssertEqual(GridLayout(canvas: landscape, count: 3).maxScroll, 0)
    }

    func testScrollToShowMovesAsLittleAsNeeded() {
        let l = GridLayout(canvas: landscape, count: 37)
        XCTAssertEqual(l.scroll(toShow: 0, from: 500), 0)
        XCTAssertEqual(l.scroll(toShow: 7, from: 200), 200, "row 1 (381..751) is in view from 200")
        XCTAssertEqual(l.scroll(toShow: 12, from: 0), Double(3 * 381 - 988), "row 2 with its gap below")
        XCTAssertEqual(l.scroll(toShow: 16, from: 0), Double(4 * 381 - 988))
        XCTAssertEqual(l.scroll(toShow: 16, from: 1200), Double(3 * 381), "from below: the row's top")
        XCTAssertEqual(l.scroll(toShow: 36, from: 0), l.maxScroll)
        XCTAssertEqual(l.scroll(rows: 2), 762)
        XCTAssertEqual(l.scroll(rows: 100), l.maxScroll)
        XCTAssertEqual(l.scroll(rows: -1), 0)
        for i in 0..<37 {
            let s = l.scroll(toShow: i, from: Double(i * 53 % 2000))
            let r = l.tileRect(i, scroll: s)
            XCTAssertGreaterThanOrEqual(r.y, l.tileArea.y, "tile \(i)")
            XCTAssertLessThanOrEqual(r.maxY, l.tileArea.maxY, "tile \(i)")
        }
    }

    private func overlap(_ a: PixelRect, _ b: PixelRect) -> Bool {
        a.x < b.maxX && b.x < a.maxX && a.y < b.maxY && b.y < a.maxY
    }
}
