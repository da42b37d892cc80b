import Foundation
import KioskCore
import KioskMedia
import KioskOutput
@testable import KioskPlayer
import KioskRender
import XCTest

/// The modes on a playing player's screen as a stack: the grid, the screen off and an alert pushed over the
/// slideshow by rank, whatever order they come in; the top one owns the screen; those beneath are told they are
/// covered (the playlist holds under the grid and the alert, the display lights for an alert over the screen off)
/// and uncovered again.
final class ModeStackTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    func testCoversStackByRankAndTellTheModesBeneath() throws {
        let dir = try RenderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let size = PixelSize(width: 64, height: 36)
        let picture = dir.appendingPathComponent("a.png").path
        try PNGWriter.write(RGBAImage(size: size, fill: (20, 200, 40, 255)), to: picture)
        var config = PlayerConfig()
        config.size = size
        config.slideshow.duration = 1
        let clock = VirtualClock()
        let output = try VirtualTimeOutput(size: size, fps: 10, clock: clock, sink: { _ in })
        let p = try Player(items: [PlaylistItem(path: picture)], config: config, output: output, clock: clock,
                           log: Log(level: .error), waitForDecodes: true)
        var power: [Bool] = []
        p.observe { if case .screenPower(let on) = $0 { power.append(on) } }
        // each step at its time: the command, then what the top mode and the playlist's pause reasons must be
        let steps: [(at: Double, command: PlayerCommand, top: String, paused: Set<PauseReason>)] = [
            (0.5, .grid(.open), "grid", [.grid]),
            (1.0, .alert(AlertRequest(text: "fire")), "alert", [.grid, .alert]),
            (1.5, .screen(on: false), "alert", [.grid, .alert]),  // beneath the alert: the display stays lit
            (2.0, .grid(.close), "alert", [.alert]),
            (2.5, .alert(.clear), "screen off", []),  // the screen off was beneath: the display goes off now
            (3.0, .screen(on: true), "slideshow", []),
        ]
        var seen: [(String, Set<PauseReason>, [Bool])] = []
        var next = 0
        _ = try p.run(length: 3.5, shouldStop: {
            guard next < steps.count, clock.now >= steps[next].at else { return false }
            XCTAssertEqual(p.execute(steps[next].command, at: clock.now), .done(), "\(steps[next].command)")
            seen.append((p.screen.modes.active.name, p.slideshow.pauseReasons, power))
            next += 1
            return false
        })
        XCTAssertEqual(seen.count, steps.count)
        for (step, got) in zip(steps, seen) {
            XCTAssertEqual(got.0, step.top, "on top after \(step.command)")
            XCTAssertEqual(got.1, step.paused, "the playlist's pause reasons after \(step.command)")
        }
        XCTAssertEqual(seen.map(\.2.count), [0, 0, 0, 0, 1, 2], "the display is powered only when the alert goes and when turned on")
        XCTAssertEqual(power, [false, true], "off as the alert went (the schedule had it off), on again")
        XCTAssertFalse(p.screen.modes.has(.alert) || p.screen.modes.has(.grid) || p.screen.modes.has(.screenOff))
    }
}
