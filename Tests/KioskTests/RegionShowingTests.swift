import KioskCore
import XCTest

/// What a region shows while media change, worked out by hand: a seq of a, b, c in main (4 s each) with a 1 s
/// transition, as `transIn` of the incoming medium or `transOut` of the outgoing one.
final class RegionShowingTests: XCTestCase {
    private let here = SourceLine(file: "t.smil", line: 1)

    private func timeline(_ media: [(src: String, transIn: String?, transOut: String?)]) -> SMILTimeline {
        let nodes = media.enumerated().map { i, m in
            SMILNode.media(SMILMedia(index: i, kind: .image, src: m.src, region: "main", transIn: m.transIn, transOut: m.transOut,
                                     timing: SMILTiming(duration: .seconds(4)), source: here))
        }
        let fade = SMILTransition(id: "fade", type: "fade", subtype: "crossfade", duration: 1, source: here)
        let wipe = SMILTransition(id: "wipe", type: "barWipe", duration: 1, source: here)
        let doc = SMILDocument(file: "t.smil", rootLayout: SMILRootLayout(width: 640, height: 360),
                               regions: [SMILRegion(name: "main", source: here)], transitions: ["fade": fade, "wipe": wipe],
                               body: SMILContainer(kind: .seq, children: nodes, source: here))
        return SMILTimeline(document: doc, stillDuration: 5) { _ in .still }
    }

    func testTransInRunsOverTheIncomingMediumsFirstSecond() {
        let t = timeline([("a", nil, nil), ("b", "fade", nil), ("c", nil, nil)])
        let s = t.showings(at: 4.25)["main"]
        XCTAssertEqual(s?.current?.media.src, "b")
        XCTAssertEqual(s?.outgoing?.media.src, "a", "a, held on its last frame, goes out")
        XCTAssertEqual(s?.outgoing?.frozen, true)
        XCTAssertEqual(s?.progress ?? -1, 0.25, accuracy: 1e-9)
        XCTAssertEqual(s?.transition?.id, "fade")
        XCTAssertNil(t.showings(at: 5.0)["main"]?.outgoing, "over after 1 s")
        XCTAssertNil(t.showings(at: 8.5)["main"]?.outgoing, "c has no transIn and b no transOut: a cut")
        XCTAssertNil(t.showings(at: 0.5)["main"]?.outgoing, "the first medium has nothing to come from")
    }

    func testTransOutOfTheOutgoingMediumRunsWhenTheNextComesIn() {
        // b leaves with a wipe; c comes in with no transIn of its own: b's transOut runs over c's first second
        let t = timeline([("a", nil, nil), ("b", nil, "wipe"), ("c", nil, nil)])
        let s = t.showings(at: 8.5)["main"]
        XCTAssertEqual(s?.current?.media.src, "c")
        XCTAssertEqual(s?.outgoing?.media.src, "b")
        XCTAssertEqual(s?.progress ?? -1, 0.5, accuracy: 1e-9)
        XCTAssertEqual(s?.transition?.id, "wipe")
        XCTAssertNil(t.showings(at: 4.5)["main"]?.outgoing, "a has no transOut, b no transIn: a cut")
        // the incoming medium's transIn wins over the outgoing one's transOut
        let both = timeline([("a", nil, "wipe"), ("b", "fade", nil)])
        XCTAssertEqual(both.showings(at: 4.5)["main"]?.transition?.id, "fade")
    }
}
