import Foundation
import KioskCore
import XCTest

/// Captions as overlays on a virtual clock: for the whole slot or for `--caption-time` with a fade, where they
/// sit, turned off and on by the tap or the info key, and all overlays off with `--no-overlays`.
final class OverlayCaptionTests: XCTestCase {
    typealias F = OverlayFixture

    private func caption(_ text: String, opacity: Double = 1, anchor: OverlayAnchor = .bottom) -> OverlayScene {
        OverlayScene(texts: [OverlayText(role: .caption, text: text, anchor: anchor, area: F.area, sizeFraction: 0.05,
                                         opacity: opacity, maxLines: 3, maxWidthFraction: 0.9, box: true)])
    }

    private func at(_ t: Double, sequence: Int = 1) -> OverlayContext {
        F.context(F.item(sequence: sequence, time: t, caption: "Sunset at the pier"))
    }

    func testACaptionStaysForTheWholeSlot() {
        let s = OverlayState(captions: CaptionSettings())
        XCTAssertEqual(s.scene(at: 0, context: at(0)), caption("Sunset at the pier"))
        XCTAssertEqual(s.scene(at: 9.9, context: at(9.9)), caption("Sunset at the pier"))
        XCTAssertNil(s.nextChange(after: 0, context: at(0)))
        XCTAssertEqual(s.scene(at: 1, context: F.context(F.item(time: 1))), OverlayScene(), "an item without a caption")
        let top = OverlayState(captions: CaptionSettings(position: .top))
        XCTAssertEqual(top.scene(at: 0, context: at(0)), caption("Sunset at the pier", anchor: .top))
        XCTAssertEqual(OverlayState().scene(at: 0, context: at(0)), OverlayScene(), "captions off")
    }

    func testACaptionTimeFadesOutOverHalfASecond() {
        let s = OverlayState(captions: CaptionSettings(seconds: 3))
        XCTAssertEqual(s.scene(at: 0, context: at(0)), caption("Sunset at the pier"))
        XCTAssertEqual(s.scene(at: 2.9, context: at(2.9)), caption("Sunset at the pier"))
        XCTAssertEqual(s.scene(at: 3.2, context: at(3.2)), caption("Sunset at the pier", opacity: 0.6))
        XCTAssertEqual(s.scene(at: 3.45, context: at(3.45)), caption("Sunset at the pier", opacity: 0.1))
        XCTAssertEqual(s.scene(at: 3.5, context: at(3.5)), OverlayScene())
        XCTAssertEqual(s.scene(at: 4, context: at(4)), OverlayScene())
        XCTAssertEqual(s.nextChange(after: 1, context: at(1)), 3, "the fade's start")
        XCTAssertEqual(s.nextChange(after: 3.2, context: at(3.2)), 3.2 + OverlayState.animationStep, "every frame while it fades")
        XCTAssertNil(s.nextChange(after: 4, context: at(4)))
        XCTAssertEqual(s.scene(at: 10, context: F.context(F.item(time: 2, caption: "Sunset at the pier", paused: true))),
                       caption("Sunset at the pier"), "the slot's own time counts: a pause holds the caption")
    }

    func testTheTapAndTheInfoKeyTurnCaptionsOffAndOnAgain() {
        let s = OverlayState(captions: CaptionSettings(seconds: 3))
        s.handle(.itemStarted(ItemID(4), path: "/m/pier.jpg", sequence: 1), at: 0)
        s.apply(.toggleInfo, at: 1)
        XCTAssertFalse(s.captionsShown)
        XCTAssertEqual(s.scene(at: 1, context: at(1)), OverlayScene())
        XCTAssertEqual(s.scene(at: 2, context: at(2)), OverlayScene())
        s.apply(.toggleInfo, at: 5)
        XCTAssertEqual(s.scene(at: 5, context: at(5)), caption("Sunset at the pier"), "turned on, it shows its time again")
        XCTAssertEqual(s.scene(at: 7.9, context: at(7.9)), caption("Sunset at the pier"))
        XCTAssertEqual(s.scene(at: 8.2, context: at(8.2)), caption("Sunset at the pier", opacity: 0.6))
        XCTAssertEqual(s.scene(at: 9, context: at(9)), OverlayScene())
        XCTAssertEqual(s.scene(at: 10, context: at(0, sequence: 2)), caption("Sunset at the pier"),
                       "the next slot's caption starts from its own beginning")
    }

    func testNoOverlaysShowsNothing() throws {
        let off = OverlayState(settings: F.settings { $0.enabled = false; $0.clock = .standard; $0.progress = .bar },
                               captions: CaptionSettings())
        off.handle(.pauseChanged([.user]), at: 0)
        off.showText("hello", seconds: 2, at: 0)
        XCTAssertEqual(off.scene(at: 0, context: at(0)), OverlayScene())
        XCTAssertTrue(off.scene(at: 0, context: at(0)).isEmpty)
        XCTAssertNil(off.nextChange(after: 0, context: at(0)))
    }
}
