import Foundation
import KioskCore
import KioskMedia
import XCTest

/// Syncbase and event begins on hand-computed timelines: `id.begin`/`id.end` (and their events) place an element
/// by another's times; taps, keys and notifies that have happened (`SMILFiredEvent`) begin what waits on them.
/// Stills last 5 s unless `dur` says otherwise.
final class SMILEventBeginTests: XCTestCase {
    private func document(_ body: String, file: String = "e.smil") throws -> SMILDocument {
        let text = """
            <smil><head><layout><region regionName="main"/><region regionName="side"/></layout></head>
            <body>\(body)</body></smil>
            """
        return try SMILReader.read(try MarkupReader.parse(Array(text.utf8), file: file), file: file)
    }

    private func timeline(_ body: String, fired: [SMILFiredEvent] = []) throws -> SMILTimeline {
        SMILTimeline(document: try document(body), stillDuration: 5, fired: fired) { _ in .still }
    }

    private func shown(_ tl: SMILTimeline, _ t: Double, _ region: String = "main") -> String {
        guard let a = tl.byRegion(at: t)[region] else { return "-" }
        return "\(a.media.src)@\(String(format: "%g", (a.offset * 1000).rounded() / 1000))"
    }

    func testValuesAreRead() throws {
        XCTAssertEqual(try SMILEventBegin.parse("intro.end+2s")?.get(), SMILEventBegin(.end("intro"), offset: 2))
        XCTAssertEqual(try SMILEventBegin.parse("p2-m1.begin - 500ms")?.get(), SMILEventBegin(.begin("p2-m1"), offset: -0.5))
        XCTAssertEqual(try SMILEventBegin.parse("a.b.beginEvent")?.get(), SMILEventBegin(.begin("a.b")))
        XCTAssertEqual(try SMILEventBegin.parse("logo.activateEvent+1s")?.get(), SMILEventBegin(.activate("logo"), offset: 1))
        XCTAssertEqual(try SMILEventBegin.parse("accesskey(A)")?.get(), SMILEventBegin(.accessKey("a")))
        XCTAssertEqual(try SMILEventBegin.parse("notify(fire-alarm)+0.5s")?.get(), SMILEventBegin(.notify("fire-alarm"), offset: 0.5))
        XCTAssertNil(SMILEventBegin.parse("2.5s"), "an offset")
        XCTAssertNil(SMILEventBegin.parse("00:01:30.5"), "a clock value")
        for bad in ["a.end+soon", "accesskey(ab)", "notify()", "notify(a b)", "accesskey(1"] {
            guard case .failure? = SMILEventBegin.parse(bad) else { return XCTFail("\(bad) read") }
        }
    }

    func testSyncbaseBeginsFollowTheElementsTheyName() throws {
        // intro 0-5 in main; b at intro.end+2s = 7, 3 s, in side; c at b.begin+1s = 8 in main (5 s)
        let tl = try timeline("""
            <par><img id="intro" src="intro" dur="5s"/><img id="b" src="b" region="side" begin="intro.end+2s" dur="3s"/>
            <img src="c" begin="b.beginEvent+1s"/></par>
            """)
        XCTAssertEqual(shown(tl, 6, "side"), "-")
        XCTAssertEqual(shown(tl, 7.5, "side"), "b@0.5")
        XCTAssertEqual(shown(tl, 8.5), "c@0.5")
        XCTAssertEqual(tl.duration, 13, accuracy: 1e-9, "c ends at 13")
        // in an excl: b when a ends (4 s), then b's own 5 s
        let excl = try timeline("""
            <excl><img id="a" src="a" begin="0s" dur="4s"/><img src="b" begin="a.end"/></excl>
            """)
        XCTAssertEqual(shown(excl, 4.5), "b@0.5")
        XCTAssertEqual(excl.duration, 9, accuracy: 1e-9)
    }

    func testALoopOfSyncbasesEndsWithoutBeginning() throws {
        let tl = try timeline("""
            <par><img id="a" src="a" begin="b.end"/><img id="b" src="b" region="side" begin="a.end"/></par>
            """)
        XCTAssertEqual(shown(tl, 1), "-")
        XCTAssertEqual(shown(tl, 1, "side"), "-")
    }

    /// A notify interrupts the loop (a 10 s video in the first class, begun by `notify(fire)`); the loop (a, b,
    /// 10 s each) pauses and resumes with its time left. Fired at 30 s: the video 30-40, the loop 30 s in at 40
    /// (without the pause it would be 40 s in: a again).
    func testANotifyBeginsItsElementAndTheLoopResumes() throws {
        let body = """
            <excl><priorityClass><img src="video" begin="notify(fire)" dur="10s"/></priorityClass>
            <priorityClass><seq begin="0s" repeatCount="indefinite"><img src="a" dur="10s"/><img src="b" dur="10s"/></seq></priorityClass>
            </excl>
            """
        let quiet = try timeline(body)
        XCTAssertEqual(shown(quiet, 35), "b@5", "no notify yet: the loop, b at 35")
        let fired = try timeline(body, fired: [SMILFiredEvent(.notify("fire"), at: 30)])
        XCTAssertEqual(shown(fired, 29), "a@9", "29 s: the second pass's a (20-30)")
        XCTAssertEqual(shown(fired, 31), "video@1")
        XCTAssertEqual(shown(fired, 41), "b@1", "resumed at 40 with 30 s played: at 41, 31 s in, b")
        XCTAssertEqual(shown(fired, 29), shown(quiet, 29), "before the notify nothing changed")
        // another name does nothing
        XCTAssertEqual(shown(try timeline(body, fired: [SMILFiredEvent(.notify("smoke"), at: 30)]), 31), "b@1")
    }

    func testAKeyAndATapBeginWhatWaitsOnThem() throws {
        // key 1 starts the product video 0.5 s later; a tap on the logo starts the offer
        let body = """
            <excl><img src="product" begin="accesskey(1)+0.5s" dur="6s"/><img src="offer" begin="logo.activateEvent" dur="4s"/>
            <img id="logo" src="logo" begin="0s" dur="indefinite"/></excl>
            """
        let key = try timeline(body, fired: [SMILFiredEvent(.accessKey("1"), at: 3)])
        XCTAssertEqual(shown(key, 3.2), "logo@3.2")
        XCTAssertEqual(shown(key, 4), "product@0.5")
        XCTAssertEqual(shown(key, 10), "-", "the logo was stopped (peers stop by default)")
        let tap = try timeline(body, fired: [SMILFiredEvent(.activate("logo"), at: 2)])
        XCTAssertEqual(shown(tap, 2.5), "offer@0.5")
    }

    func testBadEventBeginsNameTheirLine() throws {
        XCTAssertThrowsError(try document("<par><img src=\"a\" begin=\"nobody.end\"/></par>")) { e in
            XCTAssertEqual("\(e)", "e.smil:2: begin names nobody, which is no element's id")
        }
        XCTAssertThrowsError(try document("<par><img src=\"a\" begin=\"accesskey(ab)\"/></par>")) { e in
            XCTAssertEqual("\(e)", "e.smil:2: begin=\"accesskey(ab)\": accesskey(ab) is not one letter or digit")
        }
        let seq = SMILTimeline(document: try document("<img id=\"a\" src=\"a\"/><img src=\"b\" begin=\"notify(go)\"/>"),
                               stillDuration: 5) { _ in .still }
        XCTAssertEqual(seq.wallclockProblems,
                       ["e.smil:2: wallclock, syncbase and event begins are read in <par> and <excl> children; this one does not begin by them"])
    }
}
