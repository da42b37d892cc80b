import Foundation
import KioskCore
import XCTest

/// The progress bar and the countdown on a virtual clock, the TV safe area, and `--clip-info`.
final class OverlayProgressTests: XCTestCase {
    typealias F = OverlayFixture

    private func bar(_ filled: Double, safe: OverlayRect = .canvas) -> OverlayBar {
        OverlayBar(role: .progress, rect: OverlayRect(x: safe.x, y: safe.maxY - 0.006, width: safe.width, height: 0.006), filled: filled)
    }

    func testTheBarFillsWithTheSlotForStillsAndClips() {
        let s = OverlayState(settings: F.settings { $0.progress = .bar })
        for kind: OverlayContext.Item.Kind in [.still, .clip] {
            XCTAssertEqual(s.scene(at: 0, context: F.context(F.item(kind, time: 0))), OverlayScene(bars: [bar(0)]))
            XCTAssertEqual(s.scene(at: 2.5, context: F.context(F.item(kind, time: 2.5))), OverlayScene(bars: [bar(0.25)]))
            XCTAssertEqual(s.scene(at: 12, context: F.context(F.item(kind, time: 12))), OverlayScene(bars: [bar(1)]))
        }
        XCTAssertEqual(s.scene(at: 0, context: F.context(F.item(time: 3, length: .infinity))), OverlayScene(bars: [bar(0)]))
        XCTAssertEqual(s.scene(at: 0, context: F.context(nil)), OverlayScene(), "idle: no bar")
        XCTAssertEqual(s.nextChange(after: 1, context: F.context(F.item(time: 1))), 1 + OverlayState.animationStep)
        XCTAssertEqual(s.nextChange(after: 1, context: F.context(F.item(time: 1, length: 600))), 1 + 600.0 / 1920,
                       "a slow bar wakes once a pixel")
        XCTAssertNil(s.nextChange(after: 1, context: F.context(F.item(time: 1, paused: true))), "paused: it holds")
    }

    func testOverscanShrinksTheSafeArea() {
        let s = OverlayState(settings: F.settings { $0.progress = .bar; $0.overscan = 5 })
        let safe = OverlayRect(x: 0.05, y: 0.05, width: 0.9, height: 0.9)
        XCTAssertEqual(s.safeArea, safe)
        XCTAssertEqual(s.scene(at: 5, context: F.context(F.item(time: 5))), OverlayScene(bars: [bar(0.5, safe: safe)], safeArea: safe))
    }

    func testTheCountdownIsForClipsOnly() {
        let s = OverlayState(settings: F.settings { $0.progress = .countdown })
        func countdown(_ text: String) -> OverlayScene {
            OverlayScene(texts: [OverlayText(role: .countdown, text: text, anchor: .bottomRight, area: F.area, sizeFraction: 0.045,
                                             maxWidthFraction: 0.3, box: true)])
        }
        XCTAssertEqual(s.scene(at: 2.5, context: F.context(F.item(.clip, time: 2.5))), countdown("0:08"))
        XCTAssertEqual(s.scene(at: 9.5, context: F.context(F.item(.clip, time: 9.5))), countdown("0:01"))
        XCTAssertEqual(s.scene(at: 10, context: F.context(F.item(.clip, time: 10))), countdown("0:00"))
        XCTAssertEqual(s.scene(at: 0, context: F.context(F.item(.clip, time: 0, length: 125))), countdown("2:05"))
        XCTAssertEqual(s.nextChange(after: 2.5, context: F.context(F.item(.clip, time: 2.5))), 3, "when 0:08 becomes 0:07")
        XCTAssertEqual(s.scene(at: 2.5, context: F.context(F.item(.still, time: 2.5))), OverlayScene(), "nothing for stills")
        XCTAssertNil(s.nextChange(after: 2.5, context: F.context(F.item(.still, time: 2.5))))
    }

    func testClipInfoShowsTheTitleAndTime() {
        let s = OverlayState(settings: F.settings { $0.clipInfo = true })
        var tags = ItemMetadata(path: "/m/waves.mp4")
        tags.offer("Waves", for: \.title)
        func info(_ text: String) -> OverlayScene {
            OverlayScene(texts: [OverlayText(role: .clipInfo, text: text, anchor: .bottomLeft, area: F.area, sizeFraction: 0.045 * 0.8,
                                             maxWidthFraction: 0.6, box: true)])
        }
        XCTAssertEqual(s.scene(at: 4, context: F.context(F.item(.clip, time: 4.6, metadata: tags))), info("Waves  0:04 / 0:10"))
        XCTAssertEqual(s.scene(at: 4, context: F.context(F.item(.clip, time: 4.6))), info("photo  0:04 / 0:10"), "untagged: its name")
        XCTAssertEqual(s.scene(at: 4, context: F.context(F.item(.still, time: 4.6))), OverlayScene(), "videos only")
        XCTAssertEqual(s.nextChange(after: 4, context: F.context(F.item(.clip, time: 4.5))), 4.5)
    }
}
