// The split's owner and its pieces without rendering: the sweep's curve, the player's effect state (a user's
// split stops the sweep and stays while the effect does), the grab rule, and the `effect` key.
import KioskCore
@testable import KioskPlayer
import KioskRender
import XCTest

final class MosaicSplitStateTests: XCTestCase {
    func testTheSweepCurve() {
        let s = SplitSweep(from: 0.2, to: 0.8, period: 10)
        for (t, want) in [(0.0, 0.2), (2.5, 0.5), (5, 0.8), (7.5, 0.5), (10, 0.2), (12.5, 0.5)] {
            XCTAssertEqual(s.split(after: t), want, accuracy: 1e-9, "t \(t)")
        }
        XCTAssertEqual(SplitSweep(from: 0.8, to: 0.2, period: 10).split(after: 5), 0.2, accuracy: 1e-9, "right to left")
    }

    func testAUsersSplitStopsTheSweepAndStaysWhileTheEffectDoes() throws {
        let sweep = try PieceSpec.split("mosaic:split=0.2..0.8:period=10", flag: "--effect")
        var e = PictureEffect(sweep)
        XCTAssertEqual(try XCTUnwrap(e.split(at: 2.5)), 0.5, accuracy: 1e-9)
        XCTAssertEqual(e.setSplit(0.35, at: 3), .done())
        XCTAssertEqual(e.split(at: 7), 0.35, "the sweep stopped")
        XCTAssertEqual((e.effect(at: 7) as? MosaicEffect)?.settings.split, 0.35, "and is drawn so")
        try e.set(sweep, at: 8)  // the same effect again (a config reload): kept
        XCTAssertEqual(e.split(at: 9), 0.35)
        e.toggle(at: 9)
        XCTAssertNil(e.split(at: 9))
        XCTAssertNil(e.bar(at: 9))
        XCTAssertTrue(e.effect(at: 9) is NoEffect)
        XCTAssertEqual(e.setSplit(0.5, at: 9), .failed("the effect on screen (none) has no split"))
        e.toggle(at: 10)
        XCTAssertEqual(e.split(at: 10), 0.35, "on again: kept")
        XCTAssertEqual(e.setSplit(7, at: 10), .done())
        XCTAssertEqual(e.split(at: 10), 1, "clamped")
        // Another effect: its own split, its sweep from when it was set.
        try e.set(PieceSpec.split("mosaic:split=0.1..0.3:period=4", flag: "--effect"), at: 20)
        XCTAssertEqual(try XCTUnwrap(e.split(at: 21)), 0.2, accuracy: 1e-9)
        XCTAssertThrowsError(try e.set(PieceSpec.split("mosaic:split=2", flag: "--effect"), at: 21))
        XCTAssertEqual(try XCTUnwrap(e.split(at: 22)), 0.3, accuracy: 1e-9, "a refused spec changes nothing")
        // bar=0: the split is there, but no bar to grab.
        var hidden = PictureEffect(try PieceSpec.split("mosaic:bar=0", flag: "--effect"))
        XCTAssertEqual(hidden.split(at: 0), 0.5)
        XCTAssertNil(hidden.bar(at: 0))
        // No effect at first: the toggle turns the plain mosaic on.
        var none = PictureEffect(nil)
        none.toggle(at: 0)
        XCTAssertEqual(none.spec, PieceSpec(name: "mosaic"))
        XCTAssertEqual(none.bar(at: 0), 0.5)
        hidden.toggle(at: 1)
        XCTAssertNil(hidden.spec)
    }

    func testOnlyAPressNearTheBarGrabsIt() {
        let canvas = PixelSize(width: 400, height: 200)
        var d = SplitDrag()
        XCTAssertFalse(d.press(at: CanvasPoint(x: 200, y: 50), canvas: canvas), "no bar drawn")
        d.bar = 0.5
        XCTAssertTrue(d.press(at: CanvasPoint(x: 224, y: 50), canvas: canvas))
        XCTAssertEqual(d.split(at: CanvasPoint(x: 124, y: 80), canvas: canvas), 0.25)
        XCTAssertEqual(d.split(at: CanvasPoint(x: -500, y: 80), canvas: canvas), 0)
        XCTAssertEqual(d.split(at: CanvasPoint(x: 900, y: 80), canvas: canvas), 1)
        d.release()
        XCTAssertNil(d.split(at: CanvasPoint(x: 124, y: 80), canvas: canvas))
        XCTAssertFalse(d.press(at: CanvasPoint(x: 224.5, y: 50), canvas: canvas), "24.5 px away")
        XCTAssertFalse(d.press(at: CanvasPoint(x: 100, y: 50), canvas: canvas))
    }

    func testTheEffectKeyAction() throws {
        var keys = KeyMap()
        XCTAssertEqual(keys.handle(code: 33, pressed: true), .ignored, "no default key")
        try keys.bind("KEY_F=effect")
        _ = keys.handle(code: 33, pressed: false)
        XCTAssertEqual(keys.handle(code: 33, pressed: true), .action(.effect))
        let i = Interaction(canvas: PixelSize(width: 100, height: 100), settings: {
            var s = InteractionSettings()
            s.keys = keys
            return s
        }())
        XCTAssertTrue(i.handle(.key(code: 33, pressed: true, time: 0)).contains(.command(.toggleEffect)))
    }
}
