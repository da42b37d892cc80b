import Foundation
import KioskCore
import KioskMedia
import XCTest

/// `excl` with `priorityClass` children, read from SMIL text and asked what shows when. Every expected number is
/// worked out in the comments from SMIL 3.0's rules (the class of the child playing decides; the pause queue
/// is ordered by class, the latest on top; a paused child resumes with the time it had left), not from the code.
/// Stills last 5 s unless `dur` says otherwise.
final class SMILPriorityTests: XCTestCase {
    private func timeline(_ body: String) throws -> SMILTimeline {
        let text = """
            <smil xmlns="http://www.w3.org/ns/SMIL"><head><layout><root-layout width="1920" height="1080"/>
            <region regionName="main"/><region regionName="side"/></layout></head>
            <body>\(body)</body></smil>
            """
        let doc = try SMILReader.read(try MarkupReader.parse(Array(text.utf8), file: "t.smil"), file: "t.smil")
        return SMILTimeline(document: doc, stillDuration: 5) { _ in .still }
    }

    /// What region `region` shows at `t`: its `src`, how far in, and whether it is held.
    private func shown(_ tl: SMILTimeline, _ t: Double, _ region: String = "main") -> String {
        guard let a = tl.byRegion(at: t)[region] else { return "-" }
        return "\(a.media.src)@\(String(format: "%g", (a.offset * 1000).rounded() / 1000))\(a.frozen ? " held" : "")"
    }

    private func failure(_ body: String) -> String {
        do {
            _ = try timeline(body)
            return "no error"
        } catch { return "\(error)" }
    }

    func testPeersStopByDefault() throws {
        // a plays 0-10 but b begins at 4 and stops it; b plays 4-7; a does not come back
        let tl = try timeline("""
            <excl><priorityClass><img src="a" begin="0s" dur="10s"/><img src="b" begin="4s" dur="3s"/></priorityClass></excl>
            """)
        XCTAssertEqual(shown(tl, 3), "a@3")
        XCTAssertEqual(shown(tl, 5), "b@1")
        XCTAssertEqual(shown(tl, 8), "-")
        XCTAssertEqual(tl.duration, 7, accuracy: 1e-9)
    }

    func testPeersPauseResumesWithTheTimeLeft() throws {
        // a: 0-4 (4 s played, 6 left), paused while b plays 4-7, then resumes 7-13 from 4 s in
        let tl = try timeline("""
            <excl><priorityClass peers="pause"><img src="a" begin="0s" dur="10s"/><img src="b" begin="4s" dur="3s"/></priorityClass></excl>
            """)
        XCTAssertEqual(shown(tl, 3), "a@3")
        XCTAssertEqual(shown(tl, 5), "b@1")
        XCTAssertEqual(shown(tl, 7.5), "a@4.5")
        XCTAssertEqual(shown(tl, 12.5), "a@9.5")
        XCTAssertEqual(shown(tl, 13.5), "-")
        XCTAssertEqual(tl.duration, 13, accuracy: 1e-9)
        XCTAssertEqual(tl.nextChange(after: 5), 7, "b ends and a resumes")
        XCTAssertEqual(tl.byRegion(at: 3)["main"]?.activation, tl.byRegion(at: 8)["main"]?.activation,
                       "a resumed is the same showing (its clip goes on, it does not start over)")
        XCTAssertEqual(tl.byRegion(at: 8)["main"]?.length ?? 0, 10, accuracy: 1e-9, "its whole dur")
    }

    func testPauseDisplayShowsOrHidesThePausedChild() throws {
        // a in main, b in side: while b plays 4-7, a is held at 4 s (show, disable) or gone (hide)
        for (display, during) in [("show", "a@4 held"), ("disable", "a@4 held"), ("hide", "-")] {
            let tl = try timeline("""
                <excl><priorityClass peers="pause" pauseDisplay="\(display)">
                <img src="a" region="main" begin="0s" dur="10s"/><img src="b" region="side" begin="4s" dur="3s"/></priorityClass></excl>
                """)
            XCTAssertEqual(shown(tl, 5.5), during, display)
            XCTAssertEqual(shown(tl, 5.5, "side"), "b@1.5", display)
            XCTAssertEqual(shown(tl, 8), "a@5", "\(display): resumed at 7 with 4 s played")
        }
    }

    func testPeersDeferAndNever() throws {
        // defer: b waits until a ends at 10, then plays 10-13
        let deferred = try timeline("""
            <excl><priorityClass peers="defer"><img src="a" begin="0s" dur="10s"/><img src="b" begin="4s" dur="3s"/></priorityClass></excl>
            """)
        XCTAssertEqual(shown(deferred, 9), "a@9")
        XCTAssertEqual(shown(deferred, 11), "b@1")
        XCTAssertEqual(deferred.duration, 13, accuracy: 1e-9)
        // never: b's begin is refused; a plays its 10 s
        let never = try timeline("""
            <excl><priorityClass peers="never"><img src="a" begin="0s" dur="10s"/><img src="b" begin="4s" dur="3s"/></priorityClass></excl>
            """)
        XCTAssertEqual(shown(never, 5), "a@5")
        XCTAssertEqual(shown(never, 11), "-")
        XCTAssertEqual(never.duration, 10, accuracy: 1e-9)
    }

    func testAHigherClassPausesOrStopsTheLoop() throws {
        // the promotion (first class) at 5 s for 5 s: the loop (a, 20 s) pauses at 5 s and resumes at 10, ending at 25
        let paused = try timeline("""
            <excl><priorityClass><img src="promo" begin="5s" dur="5s"/></priorityClass>
            <priorityClass><img src="a" begin="0s" dur="20s"/></priorityClass></excl>
            """)
        XCTAssertEqual(shown(paused, 4), "a@4")
        XCTAssertEqual(shown(paused, 6), "promo@1")
        XCTAssertEqual(shown(paused, 10.5), "a@5.5")
        XCTAssertEqual(shown(paused, 24.5), "a@19.5")
        XCTAssertEqual(paused.duration, 25, accuracy: 1e-9)
        // higher="stop" on the loop's class: it is stopped at 5 s and does not come back
        let stopped = try timeline("""
            <excl><priorityClass><img src="promo" begin="5s" dur="5s"/></priorityClass>
            <priorityClass higher="stop"><img src="a" begin="0s" dur="20s"/></priorityClass></excl>
            """)
        XCTAssertEqual(shown(stopped, 6), "promo@1")
        XCTAssertEqual(shown(stopped, 11), "-")
        XCTAssertEqual(stopped.duration, 10, accuracy: 1e-9)
    }

    func testALowerClassIsDeferredOrRefused() throws {
        // the alarm (first class) plays 0-10; the loop's a tries to begin at 3: deferred to 10 (plays 10-30)
        let deferred = try timeline("""
            <excl><priorityClass><img src="alarm" begin="0s" dur="10s"/></priorityClass>
            <priorityClass><img src="a" begin="3s" dur="20s"/></priorityClass></excl>
            """)
        XCTAssertEqual(shown(deferred, 5), "alarm@5")
        XCTAssertEqual(shown(deferred, 10.5), "a@0.5", "a begins when the alarm ends, from its start")
        XCTAssertEqual(deferred.duration, 30, accuracy: 1e-9)
        let refused = try timeline("""
            <excl><priorityClass lower="never"><img src="alarm" begin="0s" dur="10s"/></priorityClass>
            <priorityClass><img src="a" begin="3s" dur="20s"/></priorityClass></excl>
            """)
        XCTAssertEqual(shown(refused, 10.5), "-")
        XCTAssertEqual(refused.duration, 10, accuracy: 1e-9)
    }

    func testThePauseQueueResumesTheHighestThenTheLatest() throws {
        // classes: alarm (0), promo (1), loop (2). loop a begins 0 (dur 30); promo p at 5 (dur 10) pauses a;
        // alarm x at 8 (dur 4) pauses p. Queue at 8: p (class 1) over a (class 2). x ends 12: p resumes with 7 s
        // left (played 5-8 = 3 s), 12-19; then a resumes with 25 s left (played 0-5), 19-44.
        let tl = try timeline("""
            <excl><priorityClass><img src="x" begin="8s" dur="4s"/></priorityClass>
            <priorityClass><img src="p" begin="5s" dur="10s"/></priorityClass>
            <priorityClass><img src="a" begin="0s" dur="30s"/></priorityClass></excl>
            """)
        XCTAssertEqual(shown(tl, 9), "x@1")
        XCTAssertEqual(shown(tl, 12.5), "p@3.5")
        XCTAssertEqual(shown(tl, 19.5), "a@5.5")
        XCTAssertEqual(shown(tl, 43.5), "a@29.5")
        XCTAssertEqual(tl.duration, 44, accuracy: 1e-9)
        // peers that pause: the latest paused is on top. a (0, dur 10) paused by b at 2 (dur 10), b paused by c at 4
        // (dur 2): c 4-6, then b resumes (2 s played, 8 left) 6-14, then a (2 s played) 14-22.
        let lifo = try timeline("""
            <excl><priorityClass peers="pause"><img src="a" begin="0s" dur="10s"/><img src="b" begin="2s" dur="10s"/>
            <img src="c" begin="4s" dur="2s"/></priorityClass></excl>
            """)
        XCTAssertEqual(shown(lifo, 6.5), "b@2.5")
        XCTAssertEqual(shown(lifo, 14.5), "a@2.5")
        XCTAssertEqual(lifo.duration, 22, accuracy: 1e-9)
    }

    func testABeginListInterruptsEachTime() throws {
        // the promotion every 20 s for 4 s over a 30 s loop that pauses: a 0-20, promo 20-24, a 24-34 (20 played,
        // 10 left); the promo's second begin at 40 finds nothing playing, and the excl ends with it at 44
        let tl = try timeline("""
            <excl><priorityClass><img src="promo" begin="20s; 40s" dur="4s"/></priorityClass>
            <priorityClass><img src="a" begin="0s" dur="30s"/></priorityClass></excl>
            """)
        XCTAssertEqual(shown(tl, 21), "promo@1")
        XCTAssertEqual(shown(tl, 25), "a@21")
        XCTAssertEqual(shown(tl, 35), "-", "a has a dur, so its fill is remove")
        XCTAssertEqual(shown(tl, 41), "promo@1")
        XCTAssertEqual(tl.duration, 44, accuracy: 1e-9)
    }

    func testAnEndCutsAPausedChild() throws {
        // a (dur 20, end 12) paused at 4 by the promo (dur 10): it would resume at 14, past its end at 12, so it
        // does not; held while paused until 12
        let tl = try timeline("""
            <excl><priorityClass><img src="promo" region="side" begin="4s" dur="10s"/></priorityClass>
            <priorityClass><img src="a" region="main" begin="0s" dur="20s" end="12s"/></priorityClass></excl>
            """)
        XCTAssertEqual(shown(tl, 11), "a@4 held")
        XCTAssertEqual(shown(tl, 13), "-")
        XCTAssertEqual(shown(tl, 15), "-")
    }

    func testBadPriorityClassesNameTheirLine() throws {
        XCTAssertTrue(failure("""
            <excl><priorityClass peers="wait"><img src="a" begin="0s"/></priorityClass></excl>
            """).contains("t.smil:3: peers=\"wait\" is not stop, pause, defer, never"), failure("<excl><priorityClass peers=\"wait\"/></excl>"))
        XCTAssertTrue(failure("""
            <excl><priorityClass><img src="a" begin="0s"/></priorityClass>
            <img src="b" begin="1s"/></excl>
            """).contains("t.smil:4: <img> beside <priorityClass> elements"))
        XCTAssertTrue(failure("""
            <excl><priorityClass higher="defer"><img src="a" begin="0s"/></priorityClass></excl>
            """).contains("higher=\"defer\" is not pause, stop"))
    }

    func testAPriorityClassOutsideAnExclAndABeginListInASeqWarn() throws {
        // a par and an excl take every begin of a list (each one begins the child again); a seq only the first
        let text = """
            <smil><head><layout><region regionName="main"/></layout></head><body>
            <seq><priorityClass><img src="a" begin="0s"/></priorityClass><img src="b" begin="0s; 5s" dur="2s"/></seq>
            <par><img src="c" begin="0s; 5s" dur="2s"/></par></body></smil>
            """
        let doc = try SMILReader.read(try MarkupReader.parse(Array(text.utf8), file: "w.smil"), file: "w.smil")
        XCTAssertEqual(doc.warnings, ["w.smil:2: <priorityClass> outside an <excl> is not played",
                                      "w.smil:2: begin=\"0s; 5s\": only its first time is used in a <seq>"])
    }
}
