import KioskCore
import XCTest

/// Regions on clocks of their own (`playlist-next REGION`): hand-worked cases over one layout. main is a seq of
/// a, b, c (2 s each); side holds s for the whole 6 s body (a par around both).
final class RegionClocksTests: XCTestCase {
    private let here = SourceLine(file: "t.smil", line: 1)

    private func clocks(loops: Bool) -> RegionClocks {
        func img(_ i: Int, _ src: String, _ region: String, _ d: Double) -> SMILNode {
            .media(SMILMedia(index: i, kind: .image, src: src, region: region, timing: SMILTiming(duration: .seconds(d)), source: here))
        }
        let main = SMILContainer(kind: .seq, children: [img(0, "a", "main", 2), img(1, "b", "main", 2), img(2, "c", "main", 2)],
                                 source: here)
        let body = SMILContainer(kind: .par, children: [.container(main), img(3, "s", "side", 6)], source: here)
        let doc = SMILDocument(file: "t.smil", rootLayout: SMILRootLayout(width: 640, height: 360),
                               regions: [SMILRegion(name: "main", source: here), SMILRegion(name: "side", source: here)], body: body)
        return RegionClocks(timeline: SMILTimeline(document: doc, stillDuration: 5) { _ in .still }, loops: loops)
    }

    private func shown(_ c: RegionClocks, _ region: String, at t: Double) -> String? { c.byRegion(at: t)[region]?.media.src }

    /// What comes next in each region (the web page's dashboard): main's b after a, c after b, and, the layout
    /// looping, a again after c; side keeps s (the loop shows it on, nothing else comes); after a step of main's
    /// own clock, its next follows it.
    func testWhatComesNextInEachRegion() throws {
        var c = clocks(loops: true)
        XCTAssertEqual(c.upcoming(after: 0.5), ["main": "b"])
        XCTAssertEqual(c.upcoming(after: 2.5)["main"], "c")
        XCTAssertEqual(c.upcoming(after: 4.5)["main"], "a")
        XCTAssertEqual(clocks(loops: false).upcoming(after: 4.5), [:], "without looping nothing follows the end")
        try c.step("main", .next, at: 0.5)
        XCTAssertEqual(c.upcoming(after: 0.5)["main"], "c")
    }

    func testNextMovesOneRegionOnAndTheOthersGoOn() throws {
        var c = clocks(loops: true)
        XCTAssertEqual(shown(c, "main", at: 0.5), "a")
        try c.step("main", .next, at: 0.5)
        // main's clock jumps from 0.5 to b's begin at 2.0: 1.5 s ahead; side is untouched
        XCTAssertEqual(c.time(of: "main", at: 0.5), 2.0, accuracy: 1e-9)
        XCTAssertEqual(shown(c, "main", at: 0.5), "b")
        XCTAssertEqual(c.byRegion(at: 0.5)["main"]?.offset ?? -1, 0, accuracy: 1e-9, "b from its start")
        XCTAssertEqual(shown(c, "side", at: 0.5), "s")
        XCTAssertEqual(c.time(of: "side", at: 0.5), 0.5, accuracy: 1e-9)
        // the next change on the layout's clock: b ends at main time 4.0, layout time 2.5
        XCTAssertEqual(c.nextChange(after: 0.5) ?? -1, 2.5, accuracy: 1e-9)
        XCTAssertEqual(shown(c, "main", at: 2.6), "c")
        // c is the last: next wraps main to a (the layout loops); main time 6.0 is 0.0 again
        try c.step("main", .next, at: 3.0)
        XCTAssertEqual(shown(c, "main", at: 3.0), "a")
        XCTAssertEqual(c.time(of: "main", at: 3.0), 0, accuracy: 1e-9)
    }

    func testPreviousGoesBackToTheMediumBeforeAndResetRealigns() throws {
        var c = clocks(loops: true)
        // at 3.0 main shows b (begun at 2.0); previous: back to a's begin at 0, main 3.0 s behind
        XCTAssertEqual(shown(c, "main", at: 3.0), "b")
        try c.step("main", .previous, at: 3.0)
        XCTAssertEqual(shown(c, "main", at: 3.0), "a")
        XCTAssertEqual(c.time(of: "main", at: 3.0), 0, accuracy: 1e-9)
        XCTAssertEqual(shown(c, "main", at: 4.5), "a", "a's 2 s from layout time 3.0 to 5.0")
        XCTAssertEqual(shown(c, "main", at: 5.5), "b")
        // a is the first: nothing before it
        XCTAssertThrowsError(try c.step("main", .previous, at: 3.5)) { e in
            XCTAssertEqual("\(e)", "region main has nothing before a")
        }
        c.reset()
        XCTAssertEqual(shown(c, "main", at: 3.0), "b", "the layout started again: main on its time")
    }

    func testWithoutLoopingTheLastMediumHasNothingAfterItButTheEnd() throws {
        var c = clocks(loops: false)
        try c.step("side", .next, at: 1.0)
        // side's s lasts the whole body: its next is the body's end, past which the region shows nothing
        XCTAssertNil(shown(c, "side", at: 1.0))
        XCTAssertEqual(shown(c, "main", at: 1.0), "a")
        XCTAssertThrowsError(try c.step("side", .next, at: 1.5)) { e in
            XCTAssertEqual("\(e)", "region side has nothing after its background")
        }
    }

    /// A region that begins late (new content taking it at the end of its item): its own time is 0 there, and it
    /// keeps its phase when the layout starts again, where a stepped region is realigned.
    func testALateRegionBeginsAtZeroAndKeepsItsPhaseThroughAReset() throws {
        var c = clocks(loops: true)
        c.begin("main", at: 3.0)
        XCTAssertEqual(c.time(of: "main", at: 3.0), 0, accuracy: 1e-9)
        XCTAssertEqual(shown(c, "main", at: 3.0), "a", "main begins from its first medium")
        XCTAssertEqual(shown(c, "main", at: 5.5), "b")
        XCTAssertEqual(shown(c, "side", at: 3.0), "s", "side is untouched")
        try c.step("side", .next, at: 1)
        c.reset(keeping: ["main"])
        XCTAssertEqual(c.time(of: "main", at: 0), 3.0, accuracy: 1e-9, "main goes on from where it was (6 s wraps to 0)")
        XCTAssertEqual(c.time(of: "side", at: 0), 0, accuracy: 1e-9, "side, stepped, is back on the layout's time")
        c.reset()
        XCTAssertEqual(c.time(of: "main", at: 0), 0, accuracy: 1e-9)
    }
}
