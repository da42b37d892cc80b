import Foundation
import KioskCore
import KioskInput
import KioskMedia
import KioskOutput
@testable import KioskPlayer
import KioskRender
import XCTest

/// The grid through the whole player on a virtual clock: scripted touches and remote keys (as libinput gives
/// them) open it, move its focus, open the tapped or focused item, and it closes by itself when left alone.
final class GridPlayerTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    private let canvas = PixelSize(width: 1280, height: 720)

    /// A player over `count` small pictures of different colours with scripted `events`; `configure` changes its config.
    private func player(_ dir: TempDir, count: Int, events: [DeviceEvent], clock: VirtualClock,
                        configure: (inout PlayerConfig) -> Void = { _ in }) throws -> Player {
        var items: [PlaylistItem] = []
        for i in 0..<count {
            let path = dir.file("p\(i).png")
            try PNGWriter.write(RGBAImage(size: PixelSize(width: 64, height: 48),
                                          fill: (UInt8(i * 20 % 256), UInt8(255 - i * 15 % 256), 90, 255)), to: path)
            items.append(PlaylistItem(path: path))
        }
        var config = PlayerConfig()
        config.size = canvas
        config.slideshow.duration = 1
        config.slideshow.transition = .none
        config.grid.diskFolder = dir.file("thumbs")
        configure(&config)
        let output = try VirtualTimeOutput(size: canvas, fps: 20, clock: clock, sink: { _ in })
        let p = try Player(items: items, config: config, output: output, clock: clock, log: Log(level: .error), waitForDecodes: true)
        p.interaction = InteractionController(source: ScriptedDeviceSource(clock: clock, events: events), settings: InteractionSettings(),
                                              canvas: canvas, rotation: .none, log: Log(level: .error))
        return p
    }

    private func key(_ name: String, at t: Double) -> [DeviceEvent] {
        let code = KeyCode.byName[name] ?? -1
        return [.key(code: code, pressed: true, time: t), .key(code: code, pressed: false, time: t + 0.02)]
    }

    private func tap(_ p: UnitPoint, at t: Double) -> [DeviceEvent] {
        [.touch(.down, slot: 0, at: p, time: t), .touch(.up, slot: 0, at: p, time: t + 0.05)]
    }

    func testLongPressOpensTheGridAndATapOpensTheTappedItem() throws {
        let dir = try TempDir()
        let clock = VirtualClock()
        let count = 9
        let layout = GridLayout(canvas: canvas, count: count)
        XCTAssertEqual(layout.columns, 3)
        let target = layout.tileRect(2, scroll: 0)
        let centre = UnitPoint(x: (Double(target.x) + Double(target.width) / 2) / Double(canvas.width),
                               y: (Double(target.y) + Double(target.height) / 2) / Double(canvas.height))
        let press: [DeviceEvent] = [.touch(.down, slot: 0, at: UnitPoint(x: 0.5, y: 0.5), time: 0.2),
                                    .touch(.up, slot: 0, at: UnitPoint(x: 0.5, y: 0.5), time: 1.0)]
        let p = try player(dir, count: count, events: press + tap(centre, at: 2.5), clock: clock)
        var seen: [String: Any] = [:]
        _ = try p.run(length: 4, shouldStop: {
            let t = clock.now
            if seen["open"] == nil, t >= 1.5 {
                seen["open"] = p.screen.grid.isOpen
                seen["reasons"] = p.slideshow.pauseReasons
                seen["item"] = p.slideshow.currentID?.value
            }
            if seen["at2.3"] == nil, t >= 2.3 { seen["at2.3"] = p.slideshow.currentID?.value }
            if seen["at3.2"] == nil, t >= 3.2 {
                seen["at3.2"] = p.slideshow.currentID?.value
                seen["closed"] = !p.screen.grid.isOpen && !p.slideshow.pauseReasons.contains(.grid)
            }
            return false
        })
        XCTAssertEqual(seen["open"] as? Bool, true, "a 0.8 s press opens the grid")
        XCTAssertTrue((seen["reasons"] as? Set<PauseReason>)?.contains(.grid) == true, "paused with the reason grid")
        XCTAssertEqual(seen["at2.3"] as? Int, seen["item"] as? Int, "the slideshow holds its item while the grid is open")
        XCTAssertEqual(seen["closed"] as? Bool, true, "the tap closed it and the slideshow runs")
        XCTAssertEqual(seen["at3.2"] as? Int, 2, "the tapped tile's item is on screen")
        XCTAssertEqual(p.slideshow.currentID?.value, 3, "and the slideshow went on from it")
    }

    func testRemoteKeysMoveTheFocusAndOKOpensTheFocusedItem() throws {
        let dir = try TempDir()
        let clock = VirtualClock()
        let count = 12
        let columns = GridLayout(canvas: canvas, count: count).columns
        let events = key("KEY_MENU", at: 0.3) + key("KEY_RIGHT", at: 0.5) + key("KEY_DOWN", at: 0.6) + key("KEY_OK", at: 0.8)
            + key("KEY_MENU", at: 2.0) + key("KEY_END", at: 2.2) + key("KEY_BACK", at: 2.4)
        let p = try player(dir, count: count, events: events, clock: clock)
        var focus: String?
        var afterBack: (open: Bool, item: Int?)?
        var atBack: Int?
        _ = try p.run(length: 3, shouldStop: {
            if focus == nil, clock.now >= 0.7 { focus = p.screen.grid.focusedPath }
            if atBack == nil, clock.now >= 2.3 { atBack = p.slideshow.currentID?.value }
            if afterBack == nil, clock.now >= 2.5 { afterBack = (p.screen.grid.isOpen, p.slideshow.currentID?.value) }
            return false
        })
        XCTAssertEqual(focus, dir.file("p\(1 + columns).png"), "right, then down one row of \(columns)")
        XCTAssertEqual(afterBack?.open, false, "BACK closed the grid")
        XCTAssertEqual(afterBack?.item, atBack, "BACK goes back to where the slideshow was")
        XCTAssertNotEqual(atBack, count - 1, "END only moved the focus")
    }

    func testTheGridClosesAfterItsIdleTime() throws {
        let dir = try TempDir()
        let clock = VirtualClock()
        let p = try player(dir, count: 4, events: key("KEY_MENU", at: 0.3), clock: clock) { $0.grid.idle = 2 }
        var at2: Bool?
        var at2_5: Bool?
        _ = try p.run(length: 3, shouldStop: {
            if at2 == nil, clock.now >= 2.0 { at2 = p.screen.grid.isOpen }
            if at2_5 == nil, clock.now >= 2.5 { at2_5 = p.screen.grid.isOpen }
            return false
        })
        XCTAssertEqual(at2, true, "still open 1.7 s after the last key")
        XCTAssertEqual(at2_5, false, "closed 2 s after it")
        XCTAssertFalse(p.slideshow.pauseReasons.contains(.grid))
    }
}
