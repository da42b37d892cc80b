import Foundation
import KioskCore
import KioskMedia
import KioskOutput
@testable import KioskPlayer
import KioskRender
import XCTest

/// Overlays through the real player on a virtual clock into a headless canvas: commands and events reach its
/// `OverlayState`, and `overlayScene(at:)` says what a frame overlays (the caption from the playlist, the
/// item's place, the wall clock of `--start-time`).
final class OverlayPlayerTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    private let size = PixelSize(width: 64, height: 36)

    func testCommandsAndEventsShowInTheFramesOverlays() throws {
        let dir = try RenderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var items: [PlaylistItem] = []
        for (i, name) in ["red", "green", "blue"].enumerated() {
            let path = dir.appendingPathComponent("\(name).png").path
            try PNGWriter.write(RGBAImage(size: size, fill: (UInt8(60 * i), 100, 200, 255)), to: path)
            items.append(PlaylistItem(path: path, caption: "The \(name) one"))
        }
        var config = PlayerConfig()
        config.size = size
        config.slideshow.duration = 10
        config.slideshow.transition = .none
        config.captions = CaptionSettings()
        config.overlays.clock = try ClockFormat(parsing: "%H:%M:%S")
        let clock = VirtualClock()
        let output = try VirtualTimeOutput(size: size, fps: 10, clock: clock, sink: { _ in })
        let player = try Player(items: items, config: config, output: output, clock: clock, log: Log(level: .error),
                                waitForDecodes: true)
        let berlin = try XCTUnwrap(TimeZone(identifier: "Europe/Berlin"))
        let start = try ClockOptions.startTime("2026-12-24T08:59:50", timeZone: berlin)
        player.wallClock = ({ start.addingTimeInterval($0) }, berlin)
        var scenes: [(Double, OverlayScene)] = []
        var sent: Set<String> = []
        func once(_ key: String, at time: Double, _ t: Double, _ command: PlayerCommand) {
            if t >= time, !sent.contains(key) { player.inbox.send(command); sent.insert(key) }
        }
        _ = try player.run(length: 9) {
            let t = clock.now
            scenes.append((t, player.screen.overlayScene(at: t)))
            once("text", at: 1, t, .showText("hello", seconds: 2, level: 1))
            once("volume", at: 4, t, .volume(.set(40)))
            once("next", at: 6, t, .next)
            once("tap", at: 7.5, t, .overlay(.toggleInfo))
            return false
        }
        func scene(_ time: Double) throws -> OverlayScene { try XCTUnwrap(scenes.first { $0.0 >= time - 1e-9 }?.1, "\(time)") }
        XCTAssertEqual(try scene(0.5).text(.caption)?.text, "The red one")
        XCTAssertEqual(try scene(0.5).text(.clock)?.text, "08:59:50")
        XCTAssertEqual(try scene(5).text(.clock)?.text, "08:59:55")
        XCTAssertNil(try scene(0.5).text(.osd))
        XCTAssertEqual(try scene(1.2).text(.osd)?.text, "hello", "the frame after the command")
        XCTAssertEqual(try scene(2.9).text(.osd)?.text, "hello")
        XCTAssertNil(try scene(3.3).text(.osd), "gone after its 2 s")
        XCTAssertEqual(try scene(4.2).text(.osd)?.text, "Volume 40 %")
        XCTAssertEqual(try scene(6.2).text(.osd)?.text, "2 / 3", "a skip shows the place")
        XCTAssertEqual(try scene(6.2).text(.caption)?.text, "The green one")
        XCTAssertNil(try scene(7.8).text(.caption), "the tap turned captions off")
        XCTAssertEqual(player.overlays.captionsShown, false)
        let context = player.screen.overlayContext(at: 8)
        XCTAssertEqual(context.item?.index, 2)
        XCTAssertEqual(context.item?.count, 3)
        XCTAssertEqual(context.item?.kind, .still)
        XCTAssertEqual(context.item?.name, "green")
        XCTAssertEqual(context.item?.nextName, "blue")
        XCTAssertEqual(context.now, start.addingTimeInterval(8))
        XCTAssertEqual(player.screen.overlayDeadline(after: 8), 9, "the clock's next second")
    }
}
