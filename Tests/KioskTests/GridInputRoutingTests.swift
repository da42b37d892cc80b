import KioskCore
import XCTest

/// Input while the grid is open: keys drive the grid, and those that would move, pause or zoom the hidden
/// slideshow are swallowed (volume and the menu key still act); a mouse drag ends with a release the grid hears.
final class GridInputRoutingTests: XCTestCase {
    private func press(_ input: Interaction, _ name: String, at t: Double) -> [InteractionRequest] {
        let code = KeyCode.byName[name] ?? -1
        return input.handle(.key(code: code, pressed: true, time: t)) + input.handle(.key(code: code, pressed: false, time: t + 0.01))
    }

    private func commands(_ r: [InteractionRequest]) -> [PlayerCommand] {
        r.compactMap { if case .command(let c) = $0 { return c } else { return nil } }
    }

    func testKeysDriveTheOpenGridAndLeaveTheSlideshowAlone() {
        let input = Interaction(canvas: PixelSize(width: 1920, height: 1080), settings: InteractionSettings())
        XCTAssertEqual(commands(press(input, "KEY_MENU", at: 0)), [.grid(.toggle)], "closed: the menu key opens it")
        XCTAssertEqual(commands(press(input, "KEY_RIGHT", at: 0.1)), [.next], "closed: the arrows move the slideshow")
        input.gridOpen = true
        XCTAssertEqual(commands(press(input, "KEY_RIGHT", at: 1)), [.grid(.input(.move(.right)))])
        XCTAssertEqual(commands(press(input, "KEY_CHANNELDOWN", at: 1.1)), [.grid(.input(.move(.pageDown)))])
        XCTAssertEqual(commands(press(input, "KEY_OK", at: 1.2)), [.grid(.input(.activate))])
        XCTAssertEqual(commands(press(input, "KEY_BACK", at: 1.3)), [.grid(.close)])
        XCTAssertEqual(commands(press(input, "KEY_NEXTSONG", at: 1.4)), [], "the slideshow under the grid stays put")
        XCTAssertEqual(commands(press(input, "KEY_SPACE", at: 1.5)), [], "and is not paused by the user")
        XCTAssertEqual(commands(press(input, "KEY_VOLUMEUP", at: 1.6)), [.volume(.by(10))], "volume still works")
        XCTAssertEqual(commands(press(input, "KEY_MENU", at: 1.7)), [.grid(.toggle)], "the menu key closes it")
        XCTAssertEqual(commands(input.handle(.wheel(steps: 1, at: CanvasPoint(x: 10, y: 10), time: 2))),
                       [.grid(.input(.scroll(rows: -1)))], "a detent away scrolls up a row")
    }

    func testAMouseDragOnTheGridEndsWhenTheButtonIsReleased() {
        let input = Interaction(canvas: PixelSize(width: 1920, height: 1080), settings: InteractionSettings())
        input.gridOpen = true
        let p = CanvasPoint(x: 500, y: 600)
        _ = input.handle(.pointerButton(pressed: true, at: p, time: 0))
        let moved = commands(input.handle(.pointerMove(at: CanvasPoint(x: 500, y: 400), time: 0.1)))
        XCTAssertEqual(moved, [.grid(.input(.drag(dy: -200)))])
        let released = commands(input.handle(.pointerButton(pressed: false, at: CanvasPoint(x: 500, y: 400), time: 0.2)))
        XCTAssertEqual(released, [.grid(.input(.dragEnded(vy: 0)))])
    }
}
