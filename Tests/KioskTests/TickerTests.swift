import Foundation
import KioskCore
import KioskMedia
@testable import KioskPlayer
import KioskRender
import XCTest

/// Text media: a `smilText` crawl whose position in recorded frames follows the formula (its leading edge at
/// `640 - textRate × t`, moving `textRate ÷ fps` pixels a frame, ± 1 px), whose text tesseract reads back, and a
/// `text/plain` file read again at the end of a pass when it changed.
final class TickerTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    /// A 640x360 screen: the main region and a 60 px ticker band at the bottom (black band, yellow text).
    private func layout(_ dir: TempDir, ticker: String) throws -> String {
        _ = try ColourPictures.make(dir, "green.png", "green")
        let smil = dir.file("ticker.smil")
        try """
            <smil><head><layout><root-layout width="640" height="360" backgroundColor="#203040"/>
            <region regionName="main" left="0" top="0" width="640" height="300"/>
            <region regionName="ticker" left="0" top="300" width="640" height="60"/></layout></head>
            <body><par><img src="green.png" region="main" dur="indefinite" fit="fill"/>
            \(ticker)</par></body></smil>
            """.write(toFile: smil, atomically: true, encoding: .utf8)
        return smil
    }

    /// The leftmost column of yellow ink in the band (rows 300-359), or nil.
    private func leadingEdge(_ image: RGBAImage) -> Int? {
        for x in 0..<image.size.width {
            for y in 300..<360 {
                let i = (y * image.size.width + x) * 4
                if image.pixels[i] > 128 && image.pixels[i + 1] > 128 && image.pixels[i + 2] < 80 { return x }
            }
        }
        return nil
    }

    /// The yellow ink as white (each pixel grey at the lesser of its red and green), for the OCR's keying.
    private func whitened(_ image: RGBAImage) -> RGBAImage {
        var px = image.pixels
        for i in stride(from: 0, to: px.count, by: 4) {
            let v = min(px[i], px[i + 1])
            (px[i], px[i + 1], px[i + 2]) = (v, v, v)
        }
        return RGBAImage(size: image.size, pixels: px)
    }

    private let crawl = """
        <smilText region="ticker" dur="indefinite" textMode="crawl" textRate="120" textColor="#FFFF00"
        textBackgroundColor="#000000" textFontSize="32">Ticker: 12 items in stock</smilText>
        """

    func testACrawlMovesByItsRateEachFrameAndReadsBack() throws {
        let dir = try TempDir()
        let smil = try layout(dir, ticker: crawl)
        let out = dir.file("rec.y4m")
        let r = try CLITests.run(["record", smil, "--output", out, "--size", "640x360", "--fps", "10", "--length", "5"], timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        let frames = try FFmpegCLI.referenceFrames(out, size: PixelSize(width: 640, height: 360))
        XCTAssertEqual(frames.count, 50)
        // frame n shows t = n / 10: the strip's left edge at 640 - 12 n (its glyphs start a few pixels in)
        var edges: [(Int, Int)] = []
        for (n, f) in frames.enumerated() { if let e = leadingEdge(f) { edges.append((n, e)) } }
        XCTAssertGreaterThan(edges.count, 40, "the text is in the band from the first frames")
        let offset = try XCTUnwrap(edges.first.map { $0.1 - (640 - 12 * $0.0) })
        XCTAssertTrue((0...8).contains(offset), "the ink starts \(offset) px into the strip")
        for (n, e) in edges {
            XCTAssertEqual(Double(e), Double(640 - 12 * n + offset), accuracy: 1, "frame \(n)")
        }
        for (a, b) in zip(edges, edges.dropFirst()) where b.0 == a.0 + 1 {
            XCTAssertEqual(Double(a.1 - b.1), 12, accuracy: 1, "12 px a frame between frames \(a.0) and \(b.0)")
        }
        // the frame whose line starts nearest 10 px has all of it in the band: tesseract reads it
        let whole = try XCTUnwrap(edges.min { abs($0.1 - 10) < abs($1.1 - 10) })
        let last = frames[whole.0]
        let band = try XCTUnwrap(OverlayOCR.drawnBox(last, RGBAImage(size: last.size, fill: (0, 0, 0, 255)),
                                                     within: PixelRect(x: 0, y: 300, width: 640, height: 60)))
        let text = try OverlayOCR.read(whitened(last), band, name: "ticker", in: dir.path, minimum: 120)
        XCTAssertEqual(text, "Ticker: 12 items in stock")
    }

    /// A file ticker crawling fast (a pass of about a second): changed on disk mid-pass, the new text shows from the
    /// next pass, not before.
    func testATickerFileIsReadAgainAtTheEndOfItsPass() throws {
        let dir = try TempDir()
        let news = dir.file("news.txt")
        try "OLD NEWS\n".write(toFile: news, atomically: true, encoding: .utf8)
        let smil = try layout(dir, ticker: """
            <ref src="news.txt" type="text/plain" region="ticker" dur="indefinite"><param name="textMode" value="crawl"/>
            <param name="textRate" value="800"/><param name="textColor" value="#FFFF00"/><param name="textFontSize" value="32"/></ref>
            """)
        let lines = LockedLines()
        let log = Log(level: .info, sink: { lines.append($0) })
        let presenter = try FramePresenter.headless(size: PixelSize(width: 640, height: 360), log: log)
        var config = PlayerConfig()
        config.size = PixelSize(width: 640, height: 360)
        let screen = LayoutScreen(file: try SMILFile.load(smil), config: config, context: presenter.output.context, waitsForDecodes: true,
                                  log: log)
        func read(at t: Double, _ name: String) throws -> String {
            let image = try presenter.capture(try screen.frame(at: t).frame)
            guard let box = OverlayOCR.drawnBox(image, RGBAImage(size: image.size, fill: (0x20, 0x30, 0x40, 255)),
                                                within: PixelRect(x: 0, y: 300, width: 640, height: 60)) else { return "" }
            return try OverlayOCR.read(whitened(image), box, name: name, in: dir.path, minimum: 120)
        }
        // the strip is about 170 px: a pass is (640 + 170) / 800 ≈ 1 s; at 0.3 s its start is at 400 px
        XCTAssertEqual(try read(at: 0.3, "a"), "OLD NEWS")
        try "NEW NEWS\n".write(toFile: news, atomically: true, encoding: .utf8)
        XCTAssertEqual(try read(at: 0.4, "b"), "OLD NEWS", "the pass goes on with the text it began with")
        XCTAssertEqual(try read(at: 1.35, "c"), "NEW NEWS", "the next pass reads the file again")
        XCTAssertTrue(lines.all.contains { $0.contains("news.txt changed: read again for its next pass") }, "\(lines.all)")
    }

    func testTextMediaAreReadAndTheirErrorsNameTheirLine() throws {
        func read(_ body: String) throws -> SMILDocument {
            let text = "<smil><head><layout><region regionName=\"t\"/></layout></head><body>\n\(body)\n</body></smil>"
            return try SMILReader.read(try MarkupReader.parse(Array(text.utf8), file: "x.smil"), file: "x.smil")
        }
        let doc = try read("""
            <par><smilText region="t" textMode="scroll" textRate="25px" textAlign="center" textColor="#FF0000"
            textFontSize="20">  Line one
            Line two  </smilText><ref src="n.txt" type="text/plain" region="t"><param name="textMode" value="crawl"/></ref></par>
            """)
        let (a, b) = (doc.mediaInDocumentOrder[0], doc.mediaInDocumentOrder[1])
        XCTAssertEqual(a.kind, .text)
        XCTAssertEqual(a.text, "Line one\nLine two")
        XCTAssertEqual(a.textStyle?.mode, .scroll)
        XCTAssertEqual(a.textStyle?.rate, 25)
        XCTAssertEqual(a.textStyle?.align, .center)
        XCTAssertEqual(a.textStyle?.color, LayoutColor(red: 1, green: 0, blue: 0))
        XCTAssertEqual(a.textStyle?.fontSize, 20)
        XCTAssertEqual(b.kind, .text)
        XCTAssertEqual(b.textStyle?.mode, .crawl)
        XCTAssertEqual(doc.warnings, [])
        XCTAssertThrowsError(try read("<smilText region=\"t\" textRate=\"fast\">x</smilText>")) {
            XCTAssertEqual("\($0)", "x.smil:2: textRate=\"fast\" is not pixels a second (above 0)")
        }
        // a colour that is none is a warning, and the default white (as the signage players take it)
        let sunset = try read("<smilText region=\"t\" textColor=\"sunset\">x</smilText>")
        XCTAssertEqual(sunset.warnings, ["x.smil:2: textColor=\"sunset\" is not a colour; white is used"])
        XCTAssertEqual(sunset.mediaInDocumentOrder.first?.textStyle?.color, LayoutColor(red: 1, green: 1, blue: 1))
        // a text file that is not there is one problem line, and check-config exits 2
        let dir = try TempDir()
        let smil = try layout(dir, ticker: #"<ref src="gone.txt" type="text/plain" region="ticker" dur="5s"/>"#)
        let r = try CLITests.run(["check-config", smil], timeout: 30)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("src \"gone.txt\": "), r.stderr)
    }

    /// A scroll moves up by its rate: between 1 s and 1.5 s at 60 px a second its top moves 30 px.
    func testAScrollMovesUpByItsRate() throws {
        let dir = try TempDir()
        let smil = try layout(dir, ticker: """
            <smilText region="main" dur="indefinite" textMode="scroll" textRate="60" textColor="#FFFF00" textFontSize="28">
            First line of the notice
            Second line of the notice</smilText>
            """)
        func top(at t: Double) throws -> Int? {
            let out = dir.file("s\(t).png")
            let r = try CLITests.run(["snapshot", smil, "--at", "\(t)", "--size", "640x360", "--output", out], timeout: 60)
            XCTAssertEqual(r.status, 0, r.stderr)
            let image = try OverlayOCR.load(out, size: PixelSize(width: 640, height: 360))
            for y in 0..<300 {
                for x in 0..<640 {
                    let i = (y * 640 + x) * 4
                    if image.pixels[i] > 128 && image.pixels[i + 1] > 128 && image.pixels[i + 2] < 80 { return y }
                }
            }
            return nil
        }
        let a = try XCTUnwrap(try top(at: 1)), b = try XCTUnwrap(try top(at: 1.5))
        XCTAssertEqual(Double(a - b), 30, accuracy: 1, "\(a) then \(b)")
        XCTAssertEqual(Double(a), 300 - 60 + 2, accuracy: 8, "entered from the bottom of main at 60 px a second")
    }
}
