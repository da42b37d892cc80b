import Foundation
import KioskCore
import KioskInput
import KioskMedia
import KioskOutput
@testable import KioskPlayer
import KioskRender
import XCTest

/// Input through the whole player on a virtual clock into a headless output: scripted device events (screen
/// units, as libinput gives them) zoom the picture exactly as `kiosk snapshot --zoom --center` draws it, and
/// the slideshow pauses while zoomed.
final class PlayerInputTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    private func doubleTap(at p: UnitPoint, from t: Double) -> [DeviceEvent] {
        [.touch(.down, slot: 0, at: p, time: t), .touch(.up, slot: 0, at: p, time: t + 0.05),
         .touch(.down, slot: 0, at: p, time: t + 0.15), .touch(.up, slot: 0, at: p, time: t + 0.2)]
    }

    func testDoubleTapZoomsLikeSnapshotAndPausesTheSlideshow() throws {
        let dir = try RenderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let size = PixelSize(width: 96, height: 54)
        let a = dir.appendingPathComponent("a.png").path, b = dir.appendingPathComponent("b.png").path
        try PNGWriter.write(try RenderTestSupport.smoothPicture(size: size, in: dir), to: a)
        try PNGWriter.write(RGBAImage(size: size, fill: (20, 200, 40, 255)), to: b)
        var config = PlayerConfig()
        config.size = size
        config.slideshow.duration = 1
        config.slideshow.transition = .none
        let clock = VirtualClock()
        var frames: [(Double, RGBAImage)] = []
        let output = try VirtualTimeOutput(size: size, fps: 20, clock: clock, sink: { frames.append((clock.now, $0)) })
        // double tap near the right edge at 0.3 s (zoom in), again at 4 s (zoom out)
        let tap = UnitPoint(x: 0.9, y: 0.5)
        let source = ScriptedDeviceSource(clock: clock, events: doubleTap(at: tap, from: 0.3) + doubleTap(at: tap, from: 4))
        let player = try Player(items: [PlaylistItem(path: a), PlaylistItem(path: b)], config: config, output: output,
                                clock: clock, log: Log(level: .error), waitForDecodes: true)
        player.interaction = InteractionController(source: source, settings: InteractionSettings(), canvas: size,
                                                   rotation: .none, log: Log(level: .error))
        var indexAt3: Int?
        _ = try player.run(length: 6, shouldStop: {
            if indexAt3 == nil, clock.now >= 3 { indexAt3 = player.slideshow.currentID?.value }
            return false
        })
        XCTAssertEqual(indexAt3, 0, "zoomed in: the slideshow pauses past the 1 s slot")
        let zoomed = try XCTUnwrap(frames.last { $0.0 <= 3.5 }?.1)
        let want = try PlayJob.snapshotImage(input: a, config: config, at: 0,
                                             view: FlatView(zoom: 2.5, center: UnitPoint(x: 0.8, y: 0.5)), log: Log(level: .error))
        XCTAssertGreaterThan(RenderTestSupport.psnr(zoomed, want), 40, "the tap at x 0.9 is clamped to centre 0.8 at 2.5x")
        XCTAssertEqual(player.slideshow.currentID?.value, 1, "zoomed out at 4 s: the slideshow resumed and moved on")
    }

    func testTouchesLandWhereTheFingerIsOnAPortraitScreen() {
        // A 1080x1920 canvas shown on a 1920x1080 screen turned 90 degrees clockwise: the screen's top-right corner
        // shows the canvas's top-left corner.
        let c = InteractionController(source: ScriptedDeviceSource(clock: VirtualClock(), events: []), settings: InteractionSettings(),
                                      canvas: PixelSize(width: 1080, height: 1920), rotation: .clockwise90, log: Log(level: .error))
        let p = c.canvasPoint(UnitPoint(x: 1, y: 0))
        XCTAssertEqual(p.x, 0, accuracy: 1e-9)
        XCTAssertEqual(p.y, 0, accuracy: 1e-9)
        let q = c.canvasPoint(UnitPoint(x: 0.25, y: 0.5))
        XCTAssertEqual(q.x, 540, accuracy: 1e-9)
        XCTAssertEqual(q.y, 1440, accuracy: 1e-9)
    }
}
