import Foundation
import KioskCore
import KioskMedia
import XCTest

/// SMIL documents read into the model: the example layout, each value form, and each error, with its FILE:LINE.
final class SMILReaderTests: XCTestCase {
    private func read(_ body: String, head: String = "<layout><root-layout width=\"1920\" height=\"1080\"/><region regionName=\"main\"/></layout>") throws -> SMILDocument {
        let text = "<smil xmlns=\"http://www.w3.org/ns/SMIL\">\n<head>\(head)</head>\n<body>\n\(body)\n</body>\n</smil>"
        return try SMILReader.read(try MarkupReader.parse(Array(text.utf8), file: "t.smil"), file: "t.smil")
    }

    private func failure(_ body: String, head: String? = nil) -> String {
        do {
            _ = try head.map { try read(body, head: $0) } ?? read(body)
            return "no error"
        } catch { return "\(error)" }
    }

    func testTheShopWindowExample() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Kiosk/examples/shop-window.smil").path
        let file = try SMILFile.load(example)
        let doc = file.document
        XCTAssertEqual(doc.warnings, [])
        XCTAssertEqual(file.problems, [])
        XCTAssertEqual(doc.rootLayout.width, 1920)
        XCTAssertEqual(doc.regions.map(\.name), ["main", "logo", "offers"])
        XCTAssertEqual(doc.regions[0].frame(in: doc.rootLayout), LayoutRect(x: 0, y: 0, width: 1440, height: 1080))
        XCTAssertEqual(doc.regions[0].mediaAlign, .center)
        XCTAssertEqual(doc.regions[2].fit, .slice)
        XCTAssertEqual(doc.transitions["slide"]?.mapping.spec.description, "slide:left")
        XCTAssertEqual(doc.mediaInDocumentOrder.count, 7)
        XCTAssertEqual(file.lengths[0], .timed(6), "the demo's sunrise clip is 6 s")
        XCTAssertEqual(file.lengths[1], .still)
        // The loop: 2 x 6 s of clip + 2 x 6 s photos = 24 s (endsync main-loop), for ever; offers 8 s each.
        let tl = file.timeline(stillDuration: 10)
        XCTAssertEqual(tl.duration, .infinity)
        XCTAssertEqual(tl.byRegion(at: 7)["main"]?.media.src, "../demo/03-sunrise.mp4")
        XCTAssertEqual(tl.byRegion(at: 13)["main"]?.media.src, "../demo/02-picos-de-europa.jpg")
        XCTAssertEqual(tl.byRegion(at: 17)["offers"]?.media.src, "offer-3.png")
        XCTAssertEqual(tl.byRegion(at: 24 * 100 + 1)["offers"]?.media.src, "offer-1.png")
        XCTAssertEqual(tl.byRegion(at: 24 * 100 + 1)["logo"]?.media.src, "logo.png")
    }

    func testTimingValues() throws {
        let doc = try read("""
        <seq repeatCount="indefinite">
          <img src="a.jpg" dur="1.5min" begin="500ms" fill="freeze"/>
          <video src="b.mp4" end="00:01:30" repeatCount="2.5" soundLevel="50%"/>
          <par endsync="first" repeatDur="01:30.5"><img src="c.jpg" dur="indefinite" region="main"/></par>
        </seq>
        """)
        guard case .container(let seq)? = doc.body.children.first else { return XCTFail() }
        XCTAssertEqual(seq.timing.repeatCount, .indefinite)
        guard case .media(let a) = seq.children[0], case .media(let b) = seq.children[1], case .container(let par) = seq.children[2] else {
            return XCTFail()
        }
        XCTAssertEqual(a.timing.duration, .seconds(90))
        XCTAssertEqual(a.timing.begin, 0.5)
        XCTAssertEqual(a.timing.fill, .freeze)
        XCTAssertEqual(b.timing.end, 90)
        XCTAssertEqual(b.timing.repeatCount, .count(2.5))
        XCTAssertEqual(b.soundLevel, 0.5)
        XCTAssertEqual(par.endSync, .first)
        XCTAssertEqual(par.timing.repeatDuration, .seconds(90.5))
        XCTAssertEqual(b.source.line, 6)
    }

    func testEachErrorNamesItsLine() {
        XCTAssertEqual(failure("<img src=\"a.jpg\" dur=\"soon\"/>"), "t.smil:4: dur=\"soon\" is not a clock value")
        XCTAssertEqual(failure("<img src=\"a.jpg\" region=\"side\"/>"), "t.smil:4: region=\"side\" is not a region of the layout")
        XCTAssertEqual(failure("<img src=\"a.jpg\" transIn=\"wipe\"/>"), "t.smil:4: transIn=\"wipe\" is not a transition in <head>")
        XCTAssertEqual(failure("<img dur=\"2s\"/>"), "t.smil:4: <img> has no src")
        XCTAssertEqual(failure("<img src=\"a\" begin=\"soon\"/>"), "t.smil:4: begin=\"soon\" is not a clock value or a wallclock() time")
        XCTAssertEqual(failure("<img src=\"a\" repeatCount=\"-1\"/>"), "t.smil:4: repeatCount=\"-1\" is not a number above 0 or indefinite")
        XCTAssertEqual(failure("<par endsync=\"nobody\"><img src=\"a\"/></par>"), "t.smil:4: endsync=\"nobody\" names no child of this <par>")
        XCTAssertEqual(failure("", head: "<layout><region regionName=\"a\" left=\"ten\"/></layout>"),
                       "t.smil:2: left=\"ten\" is not pixels or a percentage")
        XCTAssertEqual(failure("", head: "<layout><region regionName=\"a\"/><region regionName=\"a\"/></layout>"),
                       "t.smil:2: region a is defined twice")
    }

    func testUnknownThingsAreWarnedAboutOncePerNameAndTheRestPlays() throws {
        // an unknown attribute or element is one line at its first FILE:LINE, however often it comes
        let noise = (1...14).map { "<img src=\"a\" dur=\"1s\" flavour=\"\($0)\"/>" }.joined(separator: "\n")
        let doc = try read("<textstream src=\"news.rt\"/>\n<ref src=\"page.html\" type=\"text/html\"/>\n" + noise + "\n<textstream/>")
        XCTAssertEqual(doc.warnings, ["t.smil:4: <textstream> is not played (1 more in the file)",
                                      "t.smil:5: page.html: web pages (text/html) are not played",
                                      "t.smil:6: attribute flavour of <img> is not read (13 more in the file)"])
        XCTAssertEqual(doc.mediaInDocumentOrder.count, 14)
        // at most 20 lines: distinct names past them are counted in one last line
        let many = (1...30).map { "<img src=\"a\" dur=\"1s\" flavour\($0)=\"x\"/>" }.joined(separator: "\n")
        let noisy = try read(many)
        XCTAssertEqual(noisy.warnings.count, SMILReader.maxWarnings + 1)
        XCTAssertEqual(noisy.warnings.first, "t.smil:4: attribute flavour1 of <img> is not read")
        XCTAssertEqual(noisy.warnings.last, "t.smil: 10 more warnings not shown")
    }

    func testAColourThatIsNoneIsAWarningAndTheDefault() throws {
        let doc = try read("", head: "<layout><root-layout width=\"10\" height=\"10\" backgroundColor=\"blurple\"/>"
                                + "<region regionName=\"a\" backgroundColor=\"#12345\"/></layout>")
        XCTAssertEqual(doc.warnings, ["t.smil:2: backgroundColor=\"blurple\" is not a colour; black is used",
                                      "t.smil:2: backgroundColor=\"#12345\" is not a colour; transparent is used"])
        XCTAssertEqual(doc.rootLayout.backgroundColor, .black)
        XCTAssertNil(doc.regions.first?.backgroundColor)
    }

    func testColoursAndLengths() {
        XCTAssertEqual(SMILValues.color("#fff"), LayoutColor(red: 1, green: 1, blue: 1))
        XCTAssertEqual(SMILValues.color("Navy"), LayoutColor(red: 0, green: 0, blue: 128.0 / 255))
        XCTAssertEqual(SMILValues.color("rgb(255, 0, 50%)"), LayoutColor(red: 1, green: 0, blue: 0.5))
        XCTAssertEqual(SMILValues.color("transparent")?.alpha, 0)
        XCTAssertNil(SMILValues.color("rgb(256,0,0)"))
        // CSS 4's names, alpha in hex and in rgba(), the space syntax
        XCTAssertEqual(SMILValues.color("RebeccaPurple"), LayoutColor(red: 0x66 / 255.0, green: 0x33 / 255.0, blue: 0x99 / 255.0))
        XCTAssertEqual(SMILValues.color("lightgoldenrodyellow"), LayoutColor(red: 0xFA / 255.0, green: 0xFA / 255.0, blue: 0xD2 / 255.0))
        XCTAssertEqual(SMILValues.color("#f008"), LayoutColor(red: 1, green: 0, blue: 0, alpha: 0x88 / 255.0))
        XCTAssertEqual(SMILValues.color("#00FF0080"), LayoutColor(red: 0, green: 1, blue: 0, alpha: 0x80 / 255.0))
        XCTAssertEqual(SMILValues.color("rgba(0, 0, 255, 0.25)"), LayoutColor(red: 0, green: 0, blue: 1, alpha: 0.25))
        XCTAssertEqual(SMILValues.color("rgb(255 0 0 / 50%)"), LayoutColor(red: 1, green: 0, blue: 0, alpha: 0.5))
        XCTAssertEqual(SMILValues.color("rgb(100%, 0%, 0%)"), LayoutColor(red: 1, green: 0, blue: 0))
        for bad in ["#12345", "#ggg", "rgba(0,0,0,2)", "rgb(1,2)", "rgb(1,2,3,4,5)", "blurple", "", "rgb(1,2,3"] {
            XCTAssertNil(SMILValues.color(bad), bad)
        }
        XCTAssertEqual(SMILValues.length("25%"), .percent(25))
        XCTAssertEqual(SMILValues.length("120px"), .pixels(120))
        XCTAssertNil(SMILValues.length("1e400"))
        XCTAssertEqual(SMILValues.clock("00:01:30.25"), 90.25)
        XCTAssertEqual(SMILValues.clock("2h"), 7200)
        XCTAssertNil(SMILValues.clock("1:2:3"), "a full clock value has two-digit minutes and seconds")
        XCTAssertNil(SMILValues.clock("-5s"))
    }

    func testURLSourcesAreRefusedWithTheirLine() throws {
        let dir = try TempDir()
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=64x64:d=1", "-frames:v", "1", dir.file("a.png")])
        let smil = dir.file("l.smil")
        try """
        <smil><head><layout><region regionName="main"/></layout></head><body>
        <img src="http://example.com/ad.jpg" dur="2s"/>
        <img src="a.png" dur="2s"/>
        <img src="missing.png" dur="2s"/>
        </body></smil>
        """.write(toFile: smil, atomically: true, encoding: .utf8)
        let file = try SMILFile.load(smil)
        XCTAssertEqual(file.paths, [1: dir.file("a.png")])
        XCTAssertEqual(file.problems.count, 2, "\(file.problems)")
        XCTAssertEqual(file.problems.first, "\(smil):2: src \"http://example.com/ad.jpg\": not a local file (kiosk plays only local files; `kiosk play URL` fetches remote content)")
        XCTAssertTrue(file.problems.last?.hasPrefix("\(smil):4: src \"missing.png\": ") ?? false, "\(file.problems)")
        // the timeline skips both: a.png plays from 0
        XCTAssertEqual(file.timeline(stillDuration: 5).byRegion(at: 0)["main"]?.media.src, "a.png")
    }
}
