import Foundation
import KioskCore
import KioskMedia
import XCTest

/// `end` lists on hand-computed timelines (SMIL 3.0 Timing, "Evaluation of begin and end time lists"): each
/// activation ends at the first end value not before its begin; an event end that has not happened yet leaves the
/// end unresolved (the element plays on by its `dur`, or for ever without one); an end list whose every value came
/// before the begin and can come no more ends it at once. Stills last 5 s unless `dur` says otherwise; a still
/// that stays past its simple duration holds it (`a@5*`), as a clip holds its last frame.
final class SMILEventEndTests: XCTestCase {
    private func document(_ body: String, file: String = "n.smil") throws -> SMILDocument {
        let text = """
            <smil><head><layout><region regionName="main"/><region regionName="side"/></layout></head>
            <body>\(body)</body></smil>
            """
        return try SMILReader.read(try MarkupReader.parse(Array(text.utf8), file: file), file: file)
    }

    private func timeline(_ body: String, fired: [SMILFiredEvent] = [], anchor: SMILTimeline.WallAnchor? = nil) throws -> SMILTimeline {
        SMILTimeline(document: try document(body), stillDuration: 5, anchor: anchor, fired: fired) { m in
            m.src == "clip" ? .timed(10) : .still
        }
    }

    private func shown(_ tl: SMILTimeline, _ t: Double, _ region: String = "main") -> String {
        guard let a = tl.byRegion(at: t)[region] else { return "-" }
        return "\(a.media.src)@\(String(format: "%g", (a.offset * 1000).rounded() / 1000))\(a.frozen ? "*" : "")"
    }

    private func notify(_ name: String, at t: Double) -> SMILFiredEvent { SMILFiredEvent(.notify(name), at: t) }

    func testEndListsAreRead() throws {
        let doc = try document(#"<par><img id="a" src="a" end="notify(stop); 20s; a.begin+3s; wallclock(09:00)"/></par>"#)
        guard case .container(let par)? = doc.body.children.first, case .media(let m)? = par.children.first else {
            return XCTFail("no par")
        }
        XCTAssertTrue(m.timing.hasEnd)
        XCTAssertEqual(m.timing.ends, [20])
        XCTAssertEqual(m.timing.eventEnds, [SMILEventBegin(.notify("stop")), SMILEventBegin(.begin("a"), offset: 3)])
        XCTAssertEqual(m.timing.wallclockEnds.count, 1)
        XCTAssertEqual(doc.outsideTriggers, [.notify("stop")], "the layout listens for what ends elements too")
        XCTAssertTrue(doc.usesSyncbase)
        XCTAssertTrue(doc.hasWallclockBegins)
    }

    func testANotifyEndsAnElementThatHasNoOtherEnd() throws {
        // a has no dur and an end that waits on notify(stop): it shows until the notify (fill remove: then nothing)
        let body = #"<par><img src="a" begin="0s" end="notify(stop)"/><img src="b" region="side" dur="4s"/></par>"#
        let quiet = try timeline(body)
        XCTAssertEqual(shown(quiet, 3600), "a@5*", "unresolved: it stays on (its 5 s simple duration held)")
        XCTAssertEqual(quiet.duration, .infinity)
        let stopped = try timeline(body, fired: [notify("stop", at: 12)])
        XCTAssertEqual(shown(stopped, 11.9), "a@5*")
        XCTAssertEqual(shown(stopped, 12), "-")
        XCTAssertEqual(stopped.duration, 12, accuracy: 1e-9, "the par ends with its last child, at the notify")
    }

    func testAnEndListEndsAtItsFirstValueAfterTheBegin() throws {
        // end="notify(stop); 20s" with dur 30 s: 20 s without a notify, the notify when it comes first
        let body = #"<par><img src="a" begin="2s" dur="30s" end="notify(stop); 20s"/></par>"#
        XCTAssertEqual(shown(try timeline(body), 19.5), "a@17.5")
        XCTAssertEqual(shown(try timeline(body), 20), "-")
        let early = try timeline(body, fired: [notify("stop", at: 9)])
        XCTAssertEqual(shown(early, 8.9), "a@6.9")
        XCTAssertEqual(shown(early, 9), "-")
        // a notify before the begin (at 1 s) is not an end of it: 20 s still ends it
        XCTAssertEqual(shown(try timeline(body, fired: [notify("stop", at: 1)]), 19.5), "a@17.5")
    }

    func testAnEventEndBeforeItsBeginLeavesTheEndUnresolved() throws {
        // begin and end both by notifies; stop at 3 comes before go at 5: the activation plays its dur, 5 + 10 = 15
        let body = #"<excl><img src="a" begin="notify(go)" end="notify(stop)" dur="10s"/></excl>"#
        let tl = try timeline(body, fired: [notify("stop", at: 3), notify("go", at: 5)])
        XCTAssertEqual(shown(tl, 14.5), "a@9.5")
        XCTAssertEqual(shown(tl, 15), "-")
        // every end is an offset, and all came before the begin: the activation ends as it begins
        let passed = try timeline(#"<par><img src="a" begin="6s" end="4s; 5s"/></par>"#)
        XCTAssertEqual(shown(passed, 6.5), "-")
    }

    func testSyncbaseEndsFollowTheElementsTheyName() throws {
        // a is 8 s in main; b (no dur) ends 2 s before a ends: side 0-6; c begins as b ends and ends 1 s after a's
        // end event: side 6-9 (an end is given, so fill is remove: nothing after)
        let tl = try timeline("""
            <par><img id="a" src="a" dur="8s"/><img id="b" src="b" region="side" begin="0s" end="a.end-2s"/>
            <img src="c" region="side" begin="b.end" end="a.endEvent+1s"/></par>
            """)
        XCTAssertEqual(shown(tl, 5.9, "side"), "b@5*")
        XCTAssertEqual(shown(tl, 6, "side"), "c@0")
        XCTAssertEqual(shown(tl, 8.9, "side"), "c@2.9")
        XCTAssertEqual(shown(tl, 9, "side"), "-")
        XCTAssertEqual(tl.duration, 9, accuracy: 1e-9)
    }

    func testAnInterruptEndsByNotifyAndTheLoopResumesWithItsTimeLeft() throws {
        // the loop (a, b, 10 s each, for ever) is paused by the offer at notify(go) = 30 s; the offer lasts until
        // notify(stop) = 37 s (its dur of 60 s would be 90); the loop resumes at 37 with the 30 s it had played:
        // at 38, 31 s in: b at 1 s
        let body = """
            <excl><priorityClass><video src="clip" begin="notify(go)" end="notify(stop)" dur="60s"/></priorityClass>
            <priorityClass><seq begin="0s" repeatCount="indefinite"><img src="a" dur="10s"/><img src="b" dur="10s"/></seq></priorityClass>
            </excl>
            """
        let tl = try timeline(body, fired: [notify("go", at: 30), notify("stop", at: 37)])
        XCTAssertEqual(shown(tl, 36.5), "clip@6.5")
        XCTAssertEqual(shown(tl, 38), "b@1")
        // without the stop the offer runs its 60 s: the loop is back at 90
        let long = try timeline(body, fired: [notify("go", at: 30)])
        XCTAssertEqual(shown(long, 89), "clip@10*", "the clip (10 s) holds its last frame within its 60 s")
        XCTAssertEqual(shown(long, 91), "b@1")
    }

    func testAnEndInASeqMovesItOn() throws {
        // a kiosk's "tap to go on": a stays until notify(next) at 7 s, then b for 5 s
        let body = #"<seq><img src="a" end="notify(next)"/><img src="b" dur="5s"/></seq>"#
        let tl = try timeline(body, fired: [notify("next", at: 7)])
        XCTAssertEqual(shown(tl, 6.9), "a@5*")
        XCTAssertEqual(shown(tl, 8), "b@1")
        XCTAssertEqual(tl.duration, 12, accuracy: 1e-9)
        XCTAssertEqual(tl.wallclockProblems, [], "ends in a seq need only the seq's begin")
    }

    func testAWallclockEndIsPlacedOnTheLayoutsClock() throws {
        // the layout starts at 08:59:00 in Berlin; a shows until 09:00 local: 60 s
        let zone = try XCTUnwrap(TimeZone(identifier: "Europe/Berlin"))
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        let start = try XCTUnwrap(cal.date(from: DateComponents(year: 2026, month: 12, day: 24, hour: 8, minute: 59)))
        let tl = try timeline(#"<par><img src="a" end="wallclock(2026-12-24T09:00)"/></par>"#,
                              anchor: SMILTimeline.WallAnchor(start: start, zone: zone))
        XCTAssertEqual(shown(tl, 59.9), "a@5*")
        XCTAssertEqual(shown(tl, 60), "-")
    }

    func testIndefiniteAndBadEnds() throws {
        XCTAssertEqual(shown(try timeline(#"<par><img src="a" end="indefinite"/></par>"#), 500), "a@5*")
        XCTAssertThrowsError(try document(#"<par><img src="a" end="nobody.end"/></par>"#)) { e in
            XCTAssertEqual("\(e)", "n.smil:2: end names nobody, which is no element's id")
        }
        XCTAssertThrowsError(try document(#"<par><img src="a" end="notify(a b)"/></par>"#)) { e in
            XCTAssertEqual("\(e)", "n.smil:2: end=\"notify(a b)\": notify(a b) is not a name of letters, digits, - _ or .")
        }
        XCTAssertThrowsError(try document(#"<par><img src="a" end="soon"/></par>"#)) { e in
            XCTAssertEqual("\(e)", "n.smil:2: end=\"soon\" is not a clock value or a wallclock() time")
        }
    }
}
