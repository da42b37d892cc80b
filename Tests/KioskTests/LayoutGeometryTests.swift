import KioskCore
import XCTest

/// SMIL region positioning, the root layout on the screen and the five fits, against hand-computed rectangles.
final class LayoutGeometryTests: XCTestCase {
    private let here = SourceLine(file: "t.smil", line: 1)
    private let root = SMILRootLayout(width: 1920, height: 1080)

    private func region(left: LayoutLength? = nil, top: LayoutLength? = nil, width: LayoutLength? = nil,
                        height: LayoutLength? = nil, right: LayoutLength? = nil, bottom: LayoutLength? = nil) -> SMILRegion {
        SMILRegion(name: "r", left: left, top: top, width: width, height: height, right: right, bottom: bottom, source: here)
    }

    func testEachCombinationOfStartSizeAndEnd() {
        // start + size: as given, the end ignored
        XCTAssertEqual(region(left: .pixels(100), width: .pixels(300), right: .pixels(5)).frame(in: root).x, 100)
        XCTAssertEqual(region(left: .pixels(100), width: .pixels(300), right: .pixels(5)).frame(in: root).width, 300)
        // start + end: 1920 - 100 - 20 = 1800
        XCTAssertEqual(region(left: .pixels(100), right: .pixels(20)).frame(in: root), LayoutRect(x: 100, y: 0, width: 1800, height: 1080))
        // size + end: left = 1920 - 20 - 300 = 1600
        XCTAssertEqual(region(width: .pixels(300), right: .pixels(20)).frame(in: root).x, 1600)
        // start alone runs to the far edge: 1080 - 880 = 200
        XCTAssertEqual(region(top: .pixels(880)).frame(in: root), LayoutRect(x: 0, y: 880, width: 1920, height: 200))
        // size alone starts at 0; end alone starts at 0 and stops short of the end
        XCTAssertEqual(region(height: .pixels(90)).frame(in: root), LayoutRect(x: 0, y: 0, width: 1920, height: 90))
        XCTAssertEqual(region(bottom: .pixels(80)).frame(in: root), LayoutRect(x: 0, y: 0, width: 1920, height: 1000))
        // nothing: the whole root layout
        XCTAssertEqual(region().frame(in: root), LayoutRect(x: 0, y: 0, width: 1920, height: 1080))
        // a start past the far edge gives no width, never a negative one
        XCTAssertEqual(region(left: .pixels(2000)).frame(in: root).width, 0)
    }

    func testPercentagesAreOfTheRootsWidthOrHeight() {
        // left 75% of 1920 = 1440, width 25% = 480; top 10% of 1080 = 108, bottom 20% = 216 -> height 1080-108-216 = 756
        let r = region(left: .percent(75), top: .percent(10), width: .percent(25), bottom: .percent(20)).frame(in: root)
        XCTAssertEqual(r, LayoutRect(x: 1440, y: 108, width: 480, height: 756))
    }

    func testRootLayoutIsScaledToTheScreenKeepingItsAspect() {
        // 1920x1080 on 1280x1024: scale min(1280/1920, 1024/1080) = 2/3; 1280x720, centred: (1024-720)/2 = 152
        let p = LayoutPlacement(root: root, screen: PixelSize(width: 1280, height: 1024))
        XCTAssertEqual(p.scale, 2.0 / 3.0, accuracy: 1e-12)
        XCTAssertEqual(p.canvas, LayoutRect(x: 0, y: 152, width: 1280, height: 720))
        // a region 1440,108 480x756 -> 960, 152+72 = 224, 320x504
        let r = region(left: .percent(75), top: .percent(10), width: .percent(25), bottom: .percent(20))
        XCTAssertEqual(p.screenFrame(of: r, in: root), LayoutRect(x: 960, y: 224, width: 320, height: 504))
        // a portrait layout 1080x1920 on 1920x1080: scale 1080/1920 = 0.5625, 607.5 wide, (1920-607.5)/2 = 656.25
        let tall = LayoutPlacement(root: SMILRootLayout(width: 1080, height: 1920), screen: PixelSize(width: 1920, height: 1080))
        XCTAssertEqual(tall.canvas, LayoutRect(x: 656.25, y: 0, width: 607.5, height: 1080))
    }

    func testRegionsReachingPastTheRootAreCutToIt() {
        let p = LayoutPlacement(root: root, screen: PixelSize(width: 1920, height: 1080))
        let r = region(left: .pixels(1800), top: .pixels(-50), width: .pixels(400), height: .pixels(100))
        XCTAssertEqual(p.screenFrame(of: r, in: root), LayoutRect(x: 1800, y: 0, width: 120, height: 50))
    }

    func testRegionsThatTouchShareAnEdgeInWholePixels() {
        // thirds of 1000: 333.33 | 333.33 | 333.33 on the screen; rounded edges 0,333 / 333,667 / 667,1000
        let p = LayoutPlacement(root: SMILRootLayout(width: 3, height: 1), screen: PixelSize(width: 1000, height: 1000))
        let cells = (0..<3).map { p.onScreen(LayoutRect(x: Double($0), y: 0, width: 1, height: 1)).pixels }
        XCTAssertEqual(cells.map(\.x), [0, 333, 667])
        XCTAssertEqual(cells.map(\.maxX), [333, 667, 1000])
    }

    func testFits() {
        let box = LayoutRect(x: 0, y: 0, width: 400, height: 300)
        let wide = PixelSize(width: 800, height: 200)  // aspect 4, the box's 4/3
        XCTAssertEqual(SMILFit.fill.placement(picture: wide, region: box), LayoutRect(x: 0, y: 0, width: 400, height: 300))
        // meet: factor min(0.5, 1.5) = 0.5 -> 400x100, top-left by default
        XCTAssertEqual(SMILFit.meet.placement(picture: wide, region: box), LayoutRect(x: 0, y: 0, width: 400, height: 100))
        // centred: (300-100)/2 = 100
        XCTAssertEqual(SMILFit.meet.placement(picture: wide, region: box, align: .center),
                       LayoutRect(x: 0, y: 100, width: 400, height: 100))
        // slice: factor max(0.5, 1.5) = 1.5 -> 1200x300, bottom-right: x = 400-1200 = -800
        XCTAssertEqual(SMILFit.slice.placement(picture: wide, region: box, align: .bottomRight),
                       LayoutRect(x: -800, y: 0, width: 1200, height: 300))
        // hidden: own size (times the layout's scale 0.5 -> 400x100), mid-right: y = (300-100)/2
        XCTAssertEqual(SMILFit.hidden.placement(picture: wide, region: box, align: .midRight, scale: 0.5),
                       LayoutRect(x: 0, y: 100, width: 400, height: 100))
        // meetBest never enlarges: a 100x50 picture stays 100x50 where meet would make it 400x200
        let small = PixelSize(width: 100, height: 50)
        XCTAssertEqual(SMILFit.meet.placement(picture: small, region: box).width, 400)
        XCTAssertEqual(SMILFit.meetBest.placement(picture: small, region: box), LayoutRect(x: 0, y: 0, width: 100, height: 50))
    }

    func testTransformMapsTheRegionOntoThePicture() {
        // meet, centred: picture at y 100...200 of a 300-high region. Region point (0.5, 0.5) is the picture's
        // centre; region top (y 0) is picture v = -100/100 = -1 (background); region x 0 is picture u 0.
        let t = SMILFit.meet.transform(picture: PixelSize(width: 800, height: 200),
                                      region: LayoutRect(x: 0, y: 0, width: 400, height: 300), align: .center)
        let mid = t.apply(UnitPoint(x: 0.5, y: 0.5))
        XCTAssertEqual(mid.x, 0.5, accuracy: 1e-12)
        XCTAssertEqual(mid.y, 0.5, accuracy: 1e-12)
        XCTAssertEqual(t.apply(UnitPoint(x: 0, y: 0)).y, -1, accuracy: 1e-12)
        XCTAssertEqual(t.apply(UnitPoint(x: 1, y: 1)).y, 2, accuracy: 1e-12)
        XCTAssertEqual(t.apply(UnitPoint(x: 1, y: 1)).x, 1, accuracy: 1e-12)
    }
}
