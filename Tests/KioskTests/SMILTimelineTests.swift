import KioskCore
import XCTest

/// The SMIL timeline on hand-computed cases, one per construct: the expected numbers are worked out in the
/// comments from SMIL 3.0's timing rules, not taken from the code.
final class SMILTimelineTests: XCTestCase {
    private let here = SourceLine(file: "t.smil", line: 1)
    private var count = 0

    private func img(_ src: String, region: String = "main", _ timing: SMILTiming = SMILTiming()) -> SMILNode {
        defer { count += 1 }
        return .media(SMILMedia(index: count, kind: .image, src: src, region: region, timing: timing, source: here))
    }

    private func video(_ src: String, region: String = "main", _ timing: SMILTiming = SMILTiming()) -> SMILNode {
        defer { count += 1 }
        return .media(SMILMedia(index: count, kind: .video, src: src, region: region, timing: timing, source: here))
    }

    private func box(_ kind: SMILContainer.Kind, _ timing: SMILTiming = SMILTiming(), endSync: SMILEndSync = .last,
                     id: String? = nil, _ children: [SMILNode]) -> SMILNode {
        .container(SMILContainer(kind: kind, id: id, timing: timing, endSync: endSync, children: children, source: here))
    }

    private func box(_ kind: SMILContainer.Kind, endSync: SMILEndSync = .last, _ children: [SMILNode]) -> SMILNode {
        box(kind, SMILTiming(), endSync: endSync, children)
    }

    private func dur(_ s: Double) -> SMILTiming { SMILTiming(duration: .seconds(s)) }

    /// A timeline over `body` (the body a seq); stills last 5 s; clips by name: "v4" 4 s, "v10" 10 s, "gone" unplayable.
    private func timeline(_ body: [SMILNode]) -> SMILTimeline {
        let regions = ["main", "side", "logo"].map { SMILRegion(name: $0, source: here) }
        let doc = SMILDocument(file: "t.smil", rootLayout: SMILRootLayout(width: 1920, height: 1080), regions: regions,
                               body: SMILContainer(kind: .seq, children: body, source: here))
        return SMILTimeline(document: doc, stillDuration: 5) { m in
            switch m.src {
            case "v4": return .timed(4)
            case "v10": return .timed(10)
            case "gone", "missing.jpg": return .unplayable
            default: return m.kind == .image ? .still : .unplayable
            }
        }
    }

    /// What shows in `region` at `t`: "src@offset" (frozen ones end in "*"), or "-".
    private func shows(_ tl: SMILTimeline, _ t: Double, _ region: String = "main") -> String {
        guard let a = tl.byRegion(at: t)[region] else { return "-" }
        let o = (a.offset * 1000).rounded() / 1000
        return "\(a.media.src)@\(o == o.rounded() ? String(Int(o)) : String(o))\(a.frozen ? "*" : "")"
    }

    func testSeqOfStillsWithDurAndTheDefaultDuration() {
        // a 2 s, b default 5 s, c 3 s: a [0,2) b [2,7) c [7,10); total 10. With dur given, fill auto is remove.
        let tl = timeline([img("a", dur(2)), img("b"), img("c", dur(3))])
        XCTAssertEqual(tl.duration, 10)
        XCTAssertEqual(shows(tl, 0), "a@0")
        XCTAssertEqual(shows(tl, 1.5), "a@1.5")
        XCTAssertEqual(shows(tl, 2), "b@0")
        XCTAssertEqual(shows(tl, 6.9), "b@4.9")
        XCTAssertEqual(shows(tl, 7), "c@0")
        // after the body's end nothing plays: c has a dur (fill remove), and b (fill auto = freeze, no timing
        // attributes) would be frozen only until the body's own end, which is now
        XCTAssertEqual(shows(tl, 10), "-")
        XCTAssertEqual(tl.nextChange(after: 0), 2)
        XCTAssertEqual(tl.nextChange(after: 2), 7)
        XCTAssertEqual(tl.nextChange(after: 8), 10)
        XCTAssertNil(tl.nextChange(after: 10))
    }

    func testAVideosImplicitDurationIsItsLengthAndAMissingMediumIsSkipped() {
        // v4 [0,4), the missing one has no duration (skipped), a [4,9)
        let tl = timeline([video("v4"), img("missing.jpg"), img("a")])
        XCTAssertEqual(tl.duration, 9)
        XCTAssertEqual(shows(tl, 3), "v4@3")
        XCTAssertEqual(shows(tl, 4), "a@0")
        XCTAssertFalse(tl.active(at: 4).contains { $0.media.src == "missing.jpg" })
    }

    func testParEndSync() {
        // v4 in main [0,4), v10 in side [0,10), a 6 s in logo [0,6)
        let kids = { [self.video("v4"), self.video("v10", region: "side"), self.img("a", region: "logo", self.dur(6))] }
        XCTAssertEqual(timeline([box(.par, kids())]).duration, 10, "last: the latest end")
        XCTAssertEqual(timeline([box(.par, endSync: .first, kids())]).duration, 4, "first: the earliest end")
        XCTAssertEqual(timeline([box(.par, endSync: .all, kids())]).duration, 10)
        count = 0
        let byID = timeline([box(.par, endSync: .id("logo-a"), [video("v4"), video("v10", region: "side"),
                                                                 .media(SMILMedia(index: 9, id: "logo-a", kind: .image, src: "a",
                                                                                  region: "logo", timing: dur(6), source: here))])])
        XCTAssertEqual(byID.duration, 6, "an id: that child's end")
        // v4 has no timing attributes: fill auto = freeze, so after its 4 s it holds its last frame in main
        XCTAssertEqual(shows(byID, 5, "main"), "v4@4*")
        XCTAssertEqual(shows(byID, 5, "side"), "v10@5")
        // the par ends at 6 (endsync id): v10 is cut there, though it would run to 10
        XCTAssertEqual(shows(byID, 6.5, "side"), "-")
    }

    func testBeginOffsetsInSeqAndPar() {
        // seq: a 2 s, then b begins 1 s after a's end: a [0,2), gap [2,3), b [3,5)
        let seq = timeline([img("a", dur(2)), img("b", SMILTiming(begin: 1, duration: .seconds(2)))])
        XCTAssertEqual(shows(seq, 2.5), "-")
        XCTAssertEqual(shows(seq, 3.5), "b@0.5")
        XCTAssertEqual(seq.duration, 5)
        // par: b begins at 2 in side and lasts 3 -> [2,5); the par lasts until 5
        let par = timeline([box(.par, [img("a", dur(4)), img("b", region: "side", SMILTiming(begin: 2, duration: .seconds(3)))])])
        XCTAssertEqual(shows(par, 1, "side"), "-")
        XCTAssertEqual(shows(par, 2, "side"), "b@0")
        XCTAssertEqual(par.duration, 5)
    }

    func testEndCutsDurAndAnEndAloneHoldsTheLastFrame() {
        // dur 10, end 3 (from the parent's begin): active [0,3)
        let cut = timeline([img("a", SMILTiming(duration: .seconds(10), end: 3)), img("b", dur(1))])
        XCTAssertEqual(shows(cut, 2.9), "a@2.9")
        XCTAssertEqual(shows(cut, 3), "b@0")
        // a 4 s clip with end 6 and no dur: active until 6; from 4 it holds its last frame
        let held = timeline([video("v4", SMILTiming(end: 6)), img("b", dur(1))])
        XCTAssertEqual(shows(held, 3), "v4@3")
        XCTAssertEqual(shows(held, 5), "v4@4*")
        XCTAssertEqual(shows(held, 6), "b@0")
        // end past dur: dur wins (dur 2, end 8 -> [0,2))
        XCTAssertEqual(timeline([img("a", SMILTiming(duration: .seconds(2), end: 8))]).duration, 2)
    }

    func testRepeatCountAndRepeatDur() {
        // v4 twice: [0,8); at 5 the second play is 1 s in
        let twice = timeline([video("v4", SMILTiming(repeatCount: .count(2))), img("b", dur(1))])
        XCTAssertEqual(twice.duration, 9)
        XCTAssertEqual(shows(twice, 5), "v4@1")
        XCTAssertEqual(twice.byRegion(at: 5)["main"]?.iteration, 1)
        XCTAssertNotEqual(twice.byRegion(at: 1)["main"]?.activation, twice.byRegion(at: 5)["main"]?.activation,
                          "each repeat is a showing of its own (a clip starts over)")
        XCTAssertEqual(twice.byRegion(at: 1)["main"]?.activation, twice.byRegion(at: 2)["main"]?.activation)
        XCTAssertEqual(twice.nextChange(after: 1), 4, "the repeat is a change")
        // 2.5 times a 4 s clip: 10 s, the last play cut at 2 s in
        let partly = timeline([video("v4", SMILTiming(repeatCount: .count(2.5))), img("b", dur(1))])
        XCTAssertEqual(partly.duration, 11)
        XCTAssertEqual(shows(partly, 9.5), "v4@1.5")
        XCTAssertEqual(shows(partly, 10), "b@0")
        // repeatDur 6 on a 4 s clip: one play and half of the next
        let forSix = timeline([video("v4", SMILTiming(repeatDuration: .seconds(6))), img("b", dur(1))])
        XCTAssertEqual(shows(forSix, 5.5), "v4@1.5")
        XCTAssertEqual(shows(forSix, 6), "b@0")
        // both: the shorter (3 x 4 = 12 against 7)
        XCTAssertEqual(timeline([video("v4", SMILTiming(repeatCount: .count(3), repeatDuration: .seconds(7)))]).duration, 7)
    }

    func testIndefiniteRepeatIsTheSignageLoopAndIsAskedByArithmetic() {
        // body: a seq of a 2 s, b 3 s repeated for ever: period 5
        let tl = timeline([box(.seq, SMILTiming(repeatCount: .indefinite), [img("a", dur(2)), img("b", dur(3))])])
        XCTAssertEqual(tl.duration, .infinity)
        // 10 hours = 36000 s = 7200 periods exactly: a at 0; 36003.5 is 3.5 into a period: b, 1.5 in
        XCTAssertEqual(shows(tl, 36000), "a@0")
        XCTAssertEqual(shows(tl, 36003.5), "b@1.5")
        XCTAssertEqual(tl.nextChange(after: 36003.5), 36005)
        XCTAssertEqual(tl.nextChange(after: 36000.5), 36002)
        // a day of changes, stepped through: two per period, 86400 / 5 = 17280 periods
        var t = 0.0, steps = 0
        while let n = tl.nextChange(after: t), n <= 86400, steps < 100_000 {
            XCTAssertGreaterThan(n, t)
            t = n
            steps += 1
        }
        XCTAssertEqual(steps, 2 * 17280)
    }

    func testFreezeAndRemove() {
        // par (endsync last): a in side, no timing attributes (fill auto = freeze), lasts 5 (the default);
        // b in main 8 s. At 6: a frozen in side until the par ends at 8.
        let auto = timeline([box(.par, [img("a", region: "side"), img("b", dur(8))])])
        XCTAssertEqual(shows(auto, 6, "side"), "a@5*")
        XCTAssertEqual(shows(auto, 8, "side"), "-", "frozen only until the par's end")
        // with dur the default fill is remove: gone at its end
        let removed = timeline([box(.par, [img("a", region: "side", dur(5)), img("b", dur(8))])])
        XCTAssertEqual(shows(removed, 6, "side"), "-")
        // fill=freeze written out keeps it even with dur
        let frozen = timeline([box(.par, [img("a", region: "side", SMILTiming(duration: .seconds(5), fill: .freeze)),
                                          img("b", dur(8))])])
        XCTAssertEqual(shows(frozen, 7.9, "side"), "a@5*")
    }

    func testHoldOutlivesItsParent() {
        // seq: [par (4 s, fill remove): logo a, hold; b 4 s] then c 3 s. After the par ends at 4, a (hold) stays
        // in logo until the par's parent (the body) ends at 7; a frozen one (fill=freeze) goes with the par at 4.
        // (Without fill=remove the par itself would freeze, and a with it.)
        let gone = SMILTiming(fill: .remove)
        let tl = timeline([box(.par, gone, [img("a", region: "logo", SMILTiming(duration: .seconds(1), fill: .hold)), img("b", dur(4))]),
                           img("c", dur(3))])
        XCTAssertEqual(shows(tl, 5, "logo"), "a@1*")
        XCTAssertEqual(shows(tl, 5, "main"), "c@1")
        let freeze = timeline([box(.par, gone, [img("a", region: "logo", SMILTiming(duration: .seconds(1), fill: .freeze)), img("b", dur(4))]),
                               img("c", dur(3))])
        XCTAssertEqual(shows(freeze, 3, "logo"), "a@1*")
        XCTAssertEqual(shows(freeze, 5, "logo"), "-")
    }

    func testNestedSeqInParInSeq() {
        // body seq: [par: (seq: a 2, b 2) in main, v10 in side; endsync last = 10] then c 1 -> c at [10,11).
        // a [0,2), b [2,4); the seq ends at 4 and, having no timing attributes, freezes until the par ends at 10.
        let tl = timeline([box(.par, [box(.seq, [img("a", dur(2)), img("b", dur(2))]), video("v10", region: "side")]),
                           img("c", dur(1))])
        XCTAssertEqual(shows(tl, 3), "b@1")
        XCTAssertEqual(shows(tl, 5), "b@2*", "the inner seq (no timing attributes) is frozen as it ended: on b")
        XCTAssertEqual(shows(tl, 9, "side"), "v10@9")
        XCTAssertEqual(shows(tl, 10), "c@0")
        XCTAssertEqual(tl.duration, 11)
    }

    func testExclPlaysOneChildAtATime() {
        // excl: a begins at 0 (dur 10), b at 3 (dur 2), c has no begin (never plays). b stops a at 3; b [3,5).
        let tl = timeline([box(.excl, [img("a", SMILTiming(begin: 0, duration: .seconds(10))),
                                       img("b", SMILTiming(begin: 3, duration: .seconds(2))),
                                       img("c", dur(1))])])
        XCTAssertEqual(shows(tl, 2), "a@2")
        XCTAssertEqual(shows(tl, 3), "b@0")
        XCTAssertEqual(shows(tl, 4.5), "b@1.5")
        XCTAssertEqual(shows(tl, 5), "-", "a was stopped, not paused")
        XCTAssertFalse((0..<20).contains { shows(tl, Double($0) / 2) == "c@0" }, "a child without a begin never plays")
        XCTAssertEqual(tl.duration, 5, "endsync last over a (cut at 3) and b (5)")
    }

    func testAnIndefiniteStillInAParWithAFiniteClip() {
        // the logo shows for ever; endsync first ends the par with the clip at 4, and the loop starts again
        let tl = timeline([box(.par, SMILTiming(repeatCount: .indefinite), endSync: .first,
                               [img("logo", region: "logo", SMILTiming(duration: .indefinite)), video("v4")])])
        XCTAssertEqual(shows(tl, 3.5), "v4@3.5")
        XCTAssertEqual(shows(tl, 4.5), "v4@0.5", "the par repeated: the clip again")
        XCTAssertEqual(shows(tl, 4.5, "logo"), "logo@0.5")
        XCTAssertEqual(tl.nextChange(after: 4.5), 8)
    }
}
