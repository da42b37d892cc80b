import KioskCore
import XCTest

/// SMIL transition types and subtypes as kiosk's passes: each one the signage subset names, and the fallback.
final class SMILTransitionMapTests: XCTestCase {
    private func map(_ type: String, _ subtype: String? = nil, reversed: Bool = false) -> (String, Bool) {
        let t = SMILTransition(id: "t", type: type, subtype: subtype, reversed: reversed, source: SourceLine(file: "a.smil", line: 3))
        return (t.mapping.spec.description, t.mapping.fellBack)
    }

    func testFades() {
        XCTAssertEqual(map("fade").0, "crossfade", "crossfade is fade's default subtype")
        XCTAssertEqual(map("fade", "crossfade").0, "crossfade")
        XCTAssertEqual(map("fade", "fadeToColor").0, "fade")
        XCTAssertEqual(map("fade", "fadeFromColor").0, "fade")
    }

    func testBarWipesRevealFromTheEdgeTheyStartAt() {
        XCTAssertEqual(map("barWipe").0, "wipe:left", "leftToRight is barWipe's default: revealed from the left edge")
        XCTAssertEqual(map("barWipe", "topToBottom").0, "wipe:up")
        XCTAssertEqual(map("barWipe", "leftToRight", reversed: true).0, "wipe:right")
        XCTAssertEqual(map("barWipe", "topToBottom", reversed: true).0, "wipe:down")
    }

    func testPushWipesPushTheOldPictureAwayFromWhereTheNewComes() {
        XCTAssertEqual(map("pushWipe").0, "slide:right", "fromLeft is the default: the old picture goes right")
        XCTAssertEqual(map("pushWipe", "fromRight").0, "slide:left")
        XCTAssertEqual(map("pushWipe", "fromTop").0, "slide:down")
        XCTAssertEqual(map("pushWipe", "fromBottom").0, "slide:up")
        XCTAssertEqual(map("pushWipe", "fromRight", reversed: true).0, "slide:right")
    }

    func testEverythingElseFallsBackToACrossfadeAndSaysSo() {
        for (type, subtype) in [("clockWipe", "clockwiseTwelve"), ("irisWipe", nil), ("fade", "sparkle"), ("barWipe", "diagonal"),
                                ("pushWipe", "fromNowhere")] {
            XCTAssertEqual(map(type, subtype).0, "crossfade", "\(type) \(subtype ?? "")")
            XCTAssertTrue(map(type, subtype).1, "\(type) \(subtype ?? "")")
        }
        XCTAssertFalse(map("pushWipe", "fromTop").1)
    }
}
