import Foundation
import XCTest
@testable import KioskCore

/// The touch grid's state on a virtual clock: filters, the focus ring under the remote's keys, taps, drags with
/// inertia and the clamped bounce at the ends, idleness, and playlist edits.
final class GridStateTests: XCTestCase {
    private let canvas = PixelSize(width: 1920, height: 1080)  // 5 columns, rows 381 px apart, 988 px of tiles

    private func stills(_ n: Int) -> [GridEntry] {
        (0..<n).map { GridEntry(id: ItemID($0), path: "/p/\($0).jpg", facts: TileFacts(kind: .image)) }
    }

    private func open(_ n: Int, current: ItemID? = nil, at t: Double = 0) -> GridState {
        GridState(entries: stills(n), current: current, canvas: canvas, columns: nil, at: t)
    }

    private func centre(_ r: PixelRect) -> CanvasPoint {
        CanvasPoint(x: Double(r.x) + Double(r.width) / 2, y: Double(r.y) + Double(r.height) / 2)
    }

    /// Steps at 60 Hz from `t` until the motion ends (at most 10 s); the scrolls seen and the end time.
    private func settle(_ g: inout GridState, from t: Double) -> (seen: [Double], end: Double) {
        var seen: [Double] = []
        var now = t
        for _ in 0..<600 where g.isAnimating {
            now += 1.0 / 60
            g.step(at: now)
            seen.append(g.scroll)
        }
        XCTAssertFalse(g.isAnimating, "still moving after 10 s")
        return (seen, now)
    }

    func testOpensOnTheCurrentItemScrolledIntoView() {
        let g = open(40, current: 31)
        XCTAssertEqual(g.focus, 31)
        XCTAssertEqual(g.filter, .all)
        XCTAssertEqual(g.currentIndex, 31)
        let r = g.layout.tileRect(31, scroll: g.scroll(at: 0))
        XCTAssertGreaterThanOrEqual(r.y, g.layout.tileArea.y)
        XCTAssertLessThanOrEqual(r.maxY, g.layout.tileArea.maxY)
        XCTAssertGreaterThan(g.scroll, 0)
        XCTAssertEqual(open(40).focus, 0)
        XCTAssertEqual(open(40).scroll, 0)
        XCTAssertNil(open(0).focus)
    }

    func testFiltersPickTheirKinds() {
        let facts: [TileFacts] = [
            TileFacts(kind: .image),
            TileFacts(kind: .image, projection: .equirect),  // a 360 still
            TileFacts(kind: .video, duration: 12),
            TileFacts(kind: .video, duration: 30, projection: .fisheye),  // a 360 clip
            TileFacts(kind: .audio, duration: 200),
            TileFacts(kind: .animation, duration: 2),
            TileFacts(guessingFrom: "/p/x.mp4"),
        ]
        let entries = facts.enumerated().map { GridEntry(id: ItemID($0), path: "/p/\($0)", facts: $1) }
        var g = GridState(entries: entries, current: 4, canvas: canvas, columns: nil, at: 0)
        let expected: [GridFilter: [ItemID]] = [.all: [0, 1, 2, 3, 4, 5, 6], .images: [0, 1], .videos: [2, 3, 6],
                                                .audio: [4], .animated: [5], .sphere: [1, 3]]
        for f in GridFilter.allCases {
            XCTAssertNil(g.handle(.filter(f), at: 1))
            XCTAssertEqual(g.filter, f)
            XCTAssertEqual(g.shown.map(\.id), expected[f], "\(f)")
            XCTAssertEqual(g.layout.count, expected[f]?.count, "\(f)")
            // The focus goes to the current item where shown, else to the first.
            XCTAssertEqual(g.focusedEntry?.id, f == .all || f == .audio ? 4 : expected[f]?.first, "\(f)")
        }
    }

    func testChipTapFiltersAndResetsTheScroll() {
        var entries = stills(60)
        for i in stride(from: 0, to: 60, by: 3) { entries[i].facts = TileFacts(kind: .video, duration: 5) }
        var g = GridState(entries: entries, current: 58, canvas: canvas, columns: nil, at: 0)
        XCTAssertGreaterThan(g.scroll, 0)
        let chip = g.layout.chips.first { $0.filter == .videos }
        XCTAssertNil(g.handle(.tap(centre(chip?.rect ?? PixelRect(x: 0, y: 0, width: 0, height: 0))), at: 1))
        XCTAssertEqual(g.filter, .videos)
        XCTAssertEqual(g.shown.count, 20)
        XCTAssertEqual(g.focus, 0)
        XCTAssertEqual(g.scroll, 0)
        XCTAssertEqual(g.lastInput, 1)
    }

    func testArrowsClampAtTheEdgesAndWrapBetweenRows() {
        var g = open(13)  // rows: 0-4, 5-9, 10-12
        func press(_ m: GridMove) -> Int? {
            XCTAssertNil(g.handle(.move(m), at: 1))
            return g.focus
        }
        XCTAssertEqual(press(.left), 0)
        XCTAssertEqual(press(.up), 0)
        XCTAssertEqual(press(.right), 1)
        XCTAssertEqual([press(.right), press(.right), press(.right), press(.right)], [2, 3, 4, 5], "right wraps")
        XCTAssertEqual(press(.left), 4, "left wraps back")
        XCTAssertEqual(press(.down), 9)
        XCTAssertEqual(press(.down), 12, "the last row lacks column 4: the last tile")
        XCTAssertEqual(press(.down), 12)
        XCTAssertEqual(press(.right), 12)
        XCTAssertEqual(press(.up), 7)
        XCTAssertEqual(press(.home), 0)
        XCTAssertEqual(press(.end), 12)
    }

    func testPagesAndTheScrollFollowTheFocus() {
        var g = open(37, current: 2)  // 8 rows, 2 whole rows per page
        XCTAssertEqual(g.layout.pageRows, 2)
        let expected: [(GridMove, Int)] = [(.pageDown, 12), (.pageDown, 22), (.pageDown, 32), (.pageDown, 36),
                                           (.pageUp, 26), (.down, 31), (.pageUp, 21), (.home, 0), (.end, 36)]
        for (k, (move, focus)) in expected.enumerated() {
            let t = Double(k + 1)
            _ = g.handle(.move(move), at: t)
            XCTAssertEqual(g.focus, focus, "\(move)")
            let r = g.layout.tileRect(focus, scroll: g.scroll(at: t))
            XCTAssertGreaterThanOrEqual(r.y, g.layout.tileArea.y, "\(move) shows \(focus)")
            XCTAssertLessThanOrEqual(r.maxY, g.layout.tileArea.maxY, "\(move) shows \(focus)")
        }
        XCTAssertEqual(g.scroll, g.layout.maxScroll)
        _ = g.handle(.move(.home), at: 20)
        XCTAssertEqual(g.scroll, 0)
        // Just enough: one row down from the first visible rows does not move the scroll.
        _ = g.handle(.move(.down), at: 21)
        XCTAssertEqual(g.scroll, 0)
        _ = g.handle(.move(.down), at: 22)
        XCTAssertEqual(g.scroll, Double(3 * 381 - 988))
    }

    func testTapOpensTheTappedItemAndOKOpensTheFocusedOne() {
        var entries = stills(30)
        entries[7].facts = TileFacts(kind: .audio)
        entries[20].facts = TileFacts(kind: .audio)
        var g = GridState(entries: entries, current: nil, canvas: canvas, columns: nil, at: 0)
        XCTAssertEqual(g.handle(.tap(centre(g.layout.tileRect(8, scroll: 0))), at: 1), .open(8))
        XCTAssertEqual(g.focus, 8)
        let gapRight = g.layout.tileRect(8, scroll: 0).maxX + g.layout.gap / 2
        XCTAssertNil(g.handle(.tap(CanvasPoint(x: Double(gapRight), y: 400)), at: 2))
        XCTAssertEqual(g.handle(.activate, at: 3), .open(8))
        _ = g.handle(.filter(.audio), at: 4)
        XCTAssertEqual(g.handle(.tap(centre(g.layout.tileRect(1, scroll: 0))), at: 5), .open(20))
        XCTAssertNil(g.handle(.tap(centre(g.layout.tileRect(2, scroll: 0))), at: 6), "no third audio tile")
        XCTAssertEqual(g.handle(.activate, at: 7), .open(20))
        XCTAssertEqual(g.handle(.back, at: 8), .close)
        _ = g.handle(.filter(.videos), at: 9)
        XCTAssertNil(g.handle(.activate, at: 10), "nothing shown, nothing to open")
    }

    func testFlingCoastsAndStopsWithinTheEnds() {
        var g = open(60)
        for k in 0..<5 { _ = g.handle(.drag(dy: -30), at: 0.1 + Double(k) / 60) }
        XCTAssertEqual(g.scroll, 150, "the content follows the finger up")
        XCTAssertFalse(g.isAnimating)
        _ = g.handle(.dragEnded(vy: -1500), at: 0.2)
        XCTAssertTrue(g.isAnimating)
        XCTAssertEqual(g.scroll(at: 0.2 + 0.325), 150 + 487.5 * (1 - exp(-1)), accuracy: 1e-6, "exponential decay")
        let run = settle(&g, from: 0.2)
        XCTAssertEqual(zip(run.seen, run.seen.dropFirst()).filter { $0 > $1 }.count, 0, "never moves back")
        XCTAssertEqual(g.scroll, 150 + 1500 * 0.325, accuracy: 0.5, "v T further: T = 0.325 s")
        XCTAssertLessThan(run.end, 3.5, "comes to rest within a few time constants")
        XCTAssertEqual(g.scroll(at: run.end + 5), g.scroll, "and stays")
        // A slow release does not coast.
        _ = g.handle(.drag(dy: 10), at: 5)
        _ = g.handle(.dragEnded(vy: 5), at: 5.1)
        XCTAssertFalse(g.isAnimating)
    }

    func testFlingPastAnEndBouncesBackToExactlyTheEdge() {
        var g = open(60)
        let cap = GridScrollMotion.overshootFraction * Double(g.layout.viewportHeight)
        g.setScroll(rows: 100)
        let end = g.layout.maxScroll
        XCTAssertEqual(g.scroll, end)
        _ = g.handle(.drag(dy: 20), at: 1)
        _ = g.handle(.dragEnded(vy: -6000), at: 1.02)
        let up = settle(&g, from: 1.02)
        let peak = up.seen.max() ?? 0
        XCTAssertGreaterThan(peak, end + 10, "it overshoots")
        XCTAssertLessThanOrEqual(peak, end + cap, "clamped")
        XCTAssertEqual(g.scroll, end, "exactly the edge")
        XCTAssertLessThan(up.end, 1.02 + 1.5)

        _ = g.handle(.move(.home), at: 5)
        _ = g.handle(.drag(dy: 10), at: 5.5)
        _ = g.handle(.dragEnded(vy: 8000), at: 5.52)
        let down = settle(&g, from: 5.52)
        XCTAssertLessThan(down.seen.min() ?? 0, -10)
        XCTAssertGreaterThanOrEqual(down.seen.min() ?? 0, -cap)
        XCTAssertEqual(g.scroll, 0)
    }

    func testTheBounceIsClampedAndAFunctionOfTime() {
        var g = open(60)
        let cap = GridScrollMotion.overshootFraction * Double(g.layout.viewportHeight)
        _ = g.handle(.drag(dy: -5), at: 1)
        _ = g.handle(.dragEnded(vy: 40000), at: 1)  // a wild fling down at the top
        let samples = stride(from: 1.0, to: 3, by: 0.001).map { g.scroll(at: $0) }
        XCTAssertLessThan(samples.min() ?? 0, -0.9 * cap, "a hard fling nearly reaches the cap")
        XCTAssertGreaterThanOrEqual(samples.min() ?? 0, -cap, "and no further")
        // Unstepped answers agree with stepped ones: the motion is a function of t alone.
        var stepped = g
        for k in 1...30 {
            let t = 1 + Double(k) / 60
            stepped.step(at: t)
            XCTAssertEqual(stepped.scroll, g.scroll(at: t), accuracy: 1e-9)
        }
        _ = settle(&g, from: 1)
        XCTAssertEqual(g.scroll, 0)
    }

    func testDragPastAnEndStretchesAndSpringsBack() {
        var g = open(60)
        let cap = GridScrollMotion.overshootFraction * Double(g.layout.viewportHeight)
        _ = g.handle(.drag(dy: 100), at: 1)
        XCTAssertEqual(g.scroll, -cap * (1 - exp(-0.5 * 100 / cap)), accuracy: 1e-9, "resisted")
        XCTAssertLessThan(g.scroll, -40)
        for k in 0..<40 { _ = g.handle(.drag(dy: 100), at: 1 + Double(k) / 60) }
        XCTAssertGreaterThan(g.scroll, -cap, "never past the cap")
        XCTAssertLessThan(g.scroll, -0.9 * cap)
        _ = g.handle(.drag(dy: -4100), at: 2)
        XCTAssertEqual(g.scroll, 0, accuracy: 1e-9, "back with the finger")
        _ = g.handle(.drag(dy: 300), at: 2.1)
        _ = g.handle(.dragEnded(vy: 0), at: 2.2)
        XCTAssertTrue(g.isAnimating)
        let run = settle(&g, from: 2.2)
        XCTAssertEqual(g.scroll, 0)
        XCTAssertGreaterThan(run.seen.first ?? 0, -cap)
        XCTAssertLessThan(run.end - 2.2, 0.6, "springs back in about 0.3 s")
        XCTAssertEqual(zip(run.seen, run.seen.dropFirst()).filter { $0 > $1 }.count, 0, "no overshoot inwards")
    }

    func testATapDuringAFastFlingOnlyStopsIt() {
        var g = open(200)
        _ = g.handle(.drag(dy: -40), at: 1)
        _ = g.handle(.dragEnded(vy: -3000), at: 1.05)
        let tile = g.tiles(at: 1.2, margin: 0)[7]
        XCTAssertNil(g.handle(.tap(centre(tile.rect)), at: 1.2))
        XCTAssertFalse(g.isAnimating)
        let held = g.scroll
        XCTAssertEqual(g.scroll(at: 3), held)
        XCTAssertEqual(g.handle(.tap(centre(g.layout.tileRect(tile.index, scroll: held))), at: 1.5), .open(tile.entry.id))
    }

    func testWheelAndStartScroll() {
        var g = open(60)
        _ = g.handle(.scroll(rows: 2), at: 1)
        XCTAssertEqual(g.scroll, 762)
        _ = g.handle(.scroll(rows: -5), at: 2)
        XCTAssertEqual(g.scroll, 0)
        g.setScroll(rows: 1.5)
        XCTAssertEqual(g.scroll, 571.5)
        g.setScroll(rows: 1000)
        XCTAssertEqual(g.scroll, g.layout.maxScroll)
    }

    func testTilesAtTFollowTheLiveScroll() {
        var g = open(60)
        XCTAssertEqual(g.tiles(at: 0, margin: 0).map(\.index), Array(0..<15))
        XCTAssertEqual(g.tiles(at: 0, margin: 1).map(\.index), Array(0..<20))
        _ = g.handle(.drag(dy: -10), at: 1)
        _ = g.handle(.dragEnded(vy: -2000), at: 1)
        let later = g.tiles(at: 1.5, margin: 0)
        let s = g.scroll(at: 1.5)
        XCTAssertGreaterThan(s, 400)
        XCTAssertEqual(later.map(\.index), Array(g.layout.visibleRange(scroll: s)))
        for tile in later {
            XCTAssertEqual(tile.rect, g.layout.tileRect(tile.index, scroll: s))
            XCTAssertEqual(tile.entry, g.shown[tile.index])
        }
        XCTAssertEqual(g.scroll, 10, "unchanged until step")
    }

    func testIdleAfterTheLimit() {
        var g = open(10, at: 100)
        XCTAssertFalse(g.isIdle(at: 129.9, limit: 30))
        XCTAssertTrue(g.isIdle(at: 130, limit: 30))
        _ = g.handle(.move(.right), at: 120)
        XCTAssertEqual(g.lastInput, 120)
        XCTAssertFalse(g.isIdle(at: 140, limit: 30))
        XCTAssertTrue(g.isIdle(at: 150, limit: 30))
    }

    func testUpdateKeepsTheFocusOnTheSameItem() {
        var g = open(40, current: 30)
        XCTAssertEqual(g.focus, 30)
        var entries = stills(40)
        entries.removeSubrange(2..<5)
        g.update(entries: entries, current: 30)
        XCTAssertEqual(g.focus, 27)
        XCTAssertEqual(g.focusedEntry?.id, 30)
        entries.removeAll { $0.id == 30 }
        g.update(entries: entries, current: nil)
        XCTAssertEqual(g.focus, 27, "gone: the same place")
        XCTAssertEqual(g.focusedEntry?.id, 31)
        XCTAssertNil(g.currentIndex)
        g.update(entries: Array(entries.prefix(6)), current: nil)
        XCTAssertEqual(g.focus, 5, "clamped")
        XCTAssertEqual(g.scroll, 0, "clamped to the shorter content")
        // Facts learned later move items between filters.
        _ = g.handle(.filter(.videos), at: 1)
        XCTAssertNil(g.focus)
        var probed = Array(entries.prefix(6))
        probed[3].facts = TileFacts(kind: .video, duration: 3)
        g.update(entries: probed, current: nil)
        XCTAssertEqual(g.shown.map(\.id), [probed[3].id])
        XCTAssertEqual(g.focus, 0)
    }

    func testResizeRelaysAndKeepsTheFocusInView() {
        var g = open(40, current: 33)
        g.resize(canvas: PixelSize(width: 1080, height: 1920))
        XCTAssertEqual(g.layout.columns, 3)
        XCTAssertEqual(g.focus, 33)
        let r = g.layout.tileRect(33, scroll: g.scroll)
        XCTAssertGreaterThanOrEqual(r.y, g.layout.tileArea.y)
        XCTAssertLessThanOrEqual(r.maxY, g.layout.tileArea.maxY)
    }
}
