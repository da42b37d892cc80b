// The mosaic's split through the whole player on a virtual clock into a headless output: scripted touches drag
// the bar (and only a drag that starts near it), the split sweeps on the player's clock, a key turns the effect
// off and on, and an mpv IPC session sets, reads and observes `kiosk-split`. Every check reads the bar back from
// the frames drawn.
import Foundation
import KioskCore
import KioskInput
import KioskMedia
import KioskOutput
@testable import KioskPlayer
@testable import KioskRemote
import KioskRender
import XCTest

final class MosaicSplitPlayerTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    let size = PixelSize(width: 320, height: 160)

    /// What a run drew: each frame with its time, and the player after it.
    struct Run {
        var frames: [(t: Double, image: RGBAImage)]
        var player: Player

        /// The frame drawn last at or before `t`.
        func frame(at t: Double) throws -> RGBAImage { try XCTUnwrap(frames.last { $0.t <= t + 1e-9 }?.image, "no frame by \(t)") }

        /// The split the frame at `t` shows, read from its red bar (the pixel edge between its 2 columns, over W).
        func drawnSplit(at t: Double) throws -> Double? {
            let red = RenderMosaicBarTests.columns(try frame(at: t), [255, 0, 0])
            guard let first = red.first, let last = red.last else { return nil }
            let w = Double(try frame(at: t).size.width)
            return red.count == 2 ? Double(last) / w : (first == 0 ? 0 : Double(last + 1) / w)
        }
    }

    /// Plays two red-free pictures (10 s each, no transition) with `--effect effect` for `length` seconds at 20 fps,
    /// with scripted device `events` (keys bound by `keys`); `turn` is called at the top of every loop turn.
    func play(effect: String, events: [DeviceEvent] = [], keys: [String] = [], length: Double,
              turn: ((Player, Double) -> Void)? = nil) throws -> Run {
        let dir = try RenderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("a.png").path, b = dir.appendingPathComponent("b.png").path
        try PNGWriter.write(RenderMosaicBarTests.noRedPicture(size), to: a)
        try PNGWriter.write(RGBAImage(size: size, fill: (0, 90, 200, 255)), to: b)
        var config = PlayerConfig()
        config.size = size
        config.slideshow.duration = 10
        config.slideshow.transition = .none
        config.effect = try PieceSpec.split(effect, flag: "--effect")
        let clock = VirtualClock()
        var frames: [(t: Double, image: RGBAImage)] = []
        let output = try VirtualTimeOutput(size: size, fps: 20, clock: clock, sink: { frames.append((clock.now, $0)) })
        let player = try Player(items: [PlaylistItem(path: a), PlaylistItem(path: b)], config: config, output: output,
                                clock: clock, log: Log(level: .error), waitForDecodes: true)
        var settings = InteractionSettings()
        for k in keys { try settings.keys.bind(k) }
        player.interaction = InteractionController(source: ScriptedDeviceSource(clock: clock, events: events), settings: settings,
                                                   canvas: size, rotation: .none, log: Log(level: .error))
        _ = try player.run(length: length, shouldStop: {
            turn?(player, clock.now)
            return false
        })
        return Run(frames: frames, player: player)
    }

    /// Screen units of canvas pixel x (no rotation), at mid height.
    func at(_ x: Double) -> UnitPoint { UnitPoint(x: x / Double(size.width), y: 0.5) }

    func testADragFromTheBarMovesTheSplitAndTheBar() throws {
        // The bar is at 0.5 W = 160 px; the finger starts on it and goes to 0.25 W.
        let run = try play(effect: "mosaic:tile=8", events: ScriptedDeviceSource.drag(from: at(160), to: at(80), start: 0.3, seconds: 0.3),
                           length: 1.5)
        XCTAssertEqual(try run.drawnSplit(at: 0.25), 0.5)
        let split = try XCTUnwrap(run.player.screen.effects.split(at: 1.5))
        XCTAssertEqual(split, 0.25, accuracy: 0.01)
        XCTAssertEqual(RenderMosaicBarTests.columns(try run.frame(at: 1.5), [255, 0, 0]), [79, 80], "the bar is drawn at the new split")
        XCTAssertEqual(try XCTUnwrap(run.player.board.status.effectSplit), 0.25, accuracy: 0.01)
        XCTAssertEqual(run.player.slideshow.currentID?.value, 0, "no swipe: the drag was the split's")
        // The frame right after the finger lifted already shows it there.
        let lifted = try XCTUnwrap(run.frames.first { $0.t > 0.61 })
        XCTAssertEqual(RenderMosaicBarTests.columns(lifted.image, [255, 0, 0]), [79, 80], "frame at \(lifted.t)")
    }

    func testADragStartingAwayFromTheBarSwipesAndLeavesTheSplit() throws {
        // 100 px right of the bar, a fast leftward drag: a swipe to the next item.
        let run = try play(effect: "mosaic:tile=8", events: ScriptedDeviceSource.drag(from: at(260), to: at(60), start: 0.3, seconds: 0.1),
                           length: 1.5)
        XCTAssertEqual(run.player.slideshow.currentID?.value, 1, "swiped to the next item")
        XCTAssertEqual(run.player.screen.effects.split(at: 1.5), 0.5, "split unchanged")
        XCTAssertEqual(RenderMosaicBarTests.columns(try run.frame(at: 1.5), [255, 0, 0]), [159, 160])
    }

    func testTheSplitIsClampedAtTheEdges() throws {
        // Grabbed 10 px right of the bar and dragged to the left edge: 0.5 - 170/320 < 0, so 0.
        let left = try play(effect: "mosaic", events: ScriptedDeviceSource.drag(from: at(170), to: at(0), start: 0.3, seconds: 0.3),
                            length: 1.2)
        XCTAssertEqual(left.player.screen.effects.split(at: 1.2), 0)
        XCTAssertEqual(RenderMosaicBarTests.columns(try left.frame(at: 1.2), [255, 0, 0]), [0], "half the bar shows at the edge")
        // Grabbed 10 px left of it and dragged to the right edge: 0.5 + 170/320 > 1, so 1.
        let right = try play(effect: "mosaic", events: ScriptedDeviceSource.drag(from: at(150), to: at(320), start: 0.3, seconds: 0.3),
                             length: 1.2)
        XCTAssertEqual(right.player.screen.effects.split(at: 1.2), 1)
        XCTAssertEqual(RenderMosaicBarTests.columns(try right.frame(at: 1.2), [255, 0, 0]), [319])
    }

    func testTheSweepFollowsItsCurveOnThePlayersClockUntilADrag() throws {
        // split = 0.2 + 0.6 · (1 - cos(2π t / 4)) / 2: 0.2 at 0, 0.5 at 1 (P/4), 0.8 at 2 (P/2), 0.5 at 3.
        let sweep = SplitSweep(from: 0.2, to: 0.8, period: 4)
        let grabAt = 3.2
        let bar = sweep.split(after: grabAt) * Double(size.width)
        let run = try play(effect: "mosaic:split=0.2..0.8:period=4",
                           events: ScriptedDeviceSource.drag(from: at(bar), to: at(80), start: grabAt, seconds: 0.3), length: 5)
        for (t, want) in [(0.0, 0.2), (1.0, 0.5), (2.0, 0.8), (3.0, 0.5)] where run.frames.contains(where: { abs($0.t - t) < 1e-9 }) {
            XCTAssertEqual(try XCTUnwrap(try run.drawnSplit(at: t)), want, accuracy: 0.01, "t \(t)")
        }
        XCTAssertTrue(run.frames.contains { abs($0.t - 1) < 1e-9 } && run.frames.contains { abs($0.t - 2) < 1e-9 })
        // Every frame before the grab is on the curve (within a pixel's rounding).
        for f in run.frames where f.t < grabAt {
            XCTAssertEqual(try XCTUnwrap(try run.drawnSplit(at: f.t)), sweep.split(after: f.t), accuracy: 0.01, "t \(f.t)")
        }
        // The drag stopped it where the finger left it.
        for t in [4.0, 4.5, 4.95] {
            XCTAssertEqual(try XCTUnwrap(try run.drawnSplit(at: t)), 0.25, accuracy: 0.01, "t \(t)")
        }
    }

    func testTheEffectKeyTurnsTheEffectOffAndOnKeepingTheUsersSplit() throws {
        let f = try XCTUnwrap(KeyCode.parse("KEY_F"))
        let press: (Double) -> [DeviceEvent] = { [.key(code: f, pressed: true, time: $0), .key(code: f, pressed: false, time: $0 + 0.02)] }
        // The bar at 0.3 W = 96 px is dragged to 0.6 W; F at 0.9 turns the mosaic off, F at 1.3 on again.
        let events = ScriptedDeviceSource.drag(from: at(96), to: at(192), start: 0.2, seconds: 0.3) + press(0.9) + press(1.3)
        var effectAt: [Double: String?] = [:]
        let run = try play(effect: "mosaic:split=0.3", events: events, keys: ["KEY_F=effect"], length: 1.6) { player, t in
            effectAt[t] = player.board.status.effect
        }
        XCTAssertEqual(RenderMosaicBarTests.columns(try run.frame(at: 0.8), [255, 0, 0]), [191, 192])
        let off = try run.frame(at: 1.1)
        XCTAssertEqual(RenderMosaicBarTests.columns(off, [255, 0, 0]), [])
        XCTAssertEqual(off, RenderMosaicBarTests.noRedPicture(size), "no effect: the picture as it is")
        XCTAssertEqual(effectAt[1.1] ?? "?", nil, "kiosk-effect reads none while off")
        XCTAssertEqual(RenderMosaicBarTests.columns(try run.frame(at: 1.55), [255, 0, 0]), [191, 192], "on again, the user's split kept")
        XCTAssertEqual(run.player.board.status.effect, "mosaic:split=0.3")
    }
}
