import Foundation
import XCTest
@testable import KioskCore
@testable import KioskMedia

/// Picture metadata read for captions, compared with exiftool's reading of the same file: XMP, IPTC and EXIF in
/// JPEGs (both EXIF byte orders, UTF-8 and Latin-1 text), text chunks, XMP and EXIF in PNGs.
final class CaptionPictureTests: XCTestCase {
    private static let tags = ["XMP-dc:Description", "IPTC:Caption-Abstract", "EXIF:ImageDescription", "EXIF:DateTimeOriginal",
                               "XMP-dc:Title", "XMP-dc:Creator", "EXIF:Artist"]

    /// Our reading of each source of `path` against exiftool's (`IFD0:`/`ExifIFD:` are exiftool's -G1 groups).
    private func assertMatchesExiftool(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = try CaptionFixtures.exiftoolValues(path, Self.tags)
        let reads = try BoundedFileReads(path, budget: 1 << 20)
        let segments = JPEGMetadata(reads)
        let xmp = segments.xmp.map { XMPText(packet: $0) }, iptc = segments.photoshop.map { IPTCText(photoshopResources: $0) }
        let exif = segments.exif.map { EXIFText(tiff: $0) }
        XCTAssertEqual(xmp?.description, reference["XMP-dc:Description"], "XMP", file: file, line: line)
        XCTAssertEqual(xmp?.title, reference["XMP-dc:Title"], "XMP title", file: file, line: line)
        XCTAssertEqual(iptc?.caption, reference["IPTC:Caption-Abstract"], "IPTC", file: file, line: line)
        XCTAssertEqual(exif?.imageDescription, reference["IFD0:ImageDescription"], "EXIF", file: file, line: line)
        XCTAssertEqual(exif?.artist, reference["IFD0:Artist"], "EXIF artist", file: file, line: line)
        XCTAssertEqual(exif?.dateTimeOriginal, reference["ExifIFD:DateTimeOriginal"].flatMap { CivilDateTime(parsing: $0) },
                       "EXIF date", file: file, line: line)
    }

    func testJPEGMetadataMatchesExiftool() throws {
        let dir = try TempDir()
        let photo = try CaptionFixtures.jpeg(dir)
        try CaptionFixtures.exiftool(photo, ["-XMP-dc:Description=XMP words & <more>", "-XMP-dc:Title=A title",
                                             "-XMP-dc:Creator=Ann", "-XMP-dc:Creator=Bob",
                                             "-IPTC:Caption-Abstract=IPTC words", "-IPTC:By-line=Carl",
                                             "-EXIF:ImageDescription=EXIF words", "-EXIF:Artist=Dora",
                                             "-EXIF:DateTimeOriginal=2026:12:24 08:30:00"])
        try assertMatchesExiftool(photo)
        let m = try XCTUnwrap(CaptionFixtures.read(photo).metadata)
        XCTAssertEqual(m.caption, "XMP words & <more>")
        XCTAssertEqual(m.title, "A title")
        XCTAssertEqual(m.artist, "Ann, Bob")
        XCTAssertEqual(m.date?.description, "2026-12-24 08:30:00")
        XCTAssertEqual(try CaptionFormat(parsing: "{caption} · {date:%d %B %Y}").render(m, index: 1, count: 1),
                       "XMP words & <more> · 24 December 2026")
    }

    func testBothEXIFByteOrders() throws {
        for order in ["II", "MM"] {
            let dir = try TempDir()
            let photo = try CaptionFixtures.jpeg(dir)
            try CaptionFixtures.exiftool(photo, ["-ExifByteOrder#=\(order)", "-EXIF:ImageDescription=Order \(order)",
                                                 "-EXIF:Artist=Eve", "-EXIF:DateTimeOriginal=2001:02:03 04:05:06",
                                                 "-EXIF:ModifyDate=2002:01:01 00:00:00"])
            let bytes = try CaptionFixtures.bytes(photo)
            XCTAssertNotNil(CaptionFixtures.findSegment(bytes, marker: 0xE1, prefix: Array("Exif\0\0\(order)".utf8)),
                            "exiftool wrote \(order)")
            try assertMatchesExiftool(photo)
            let m = try XCTUnwrap(CaptionFixtures.read(photo).metadata)
            XCTAssertEqual(m.caption, "Order \(order)")
            XCTAssertEqual(m.captionSource, .exif)
            XCTAssertEqual(m.artist, "Eve")
            XCTAssertEqual(m.date?.description, "2001-02-03 04:05:06", "DateTimeOriginal before DateTime")
        }
    }

    func testNonASCIIText() throws {
        let words = "Café Zürich – 東京"
        let dir = try TempDir()
        let utf8 = try CaptionFixtures.jpeg(dir, "utf8.jpg")
        try CaptionFixtures.exiftool(utf8, ["-XMP-dc:Description=\(words)", "-IPTC:CodedCharacterSet=UTF8",
                                            "-IPTC:Caption-Abstract=\(words)", "-EXIF:ImageDescription=\(words)"])
        try assertMatchesExiftool(utf8)
        XCTAssertEqual(CaptionFixtures.read(utf8).metadata?.caption, words)
        // Without a coded character set exiftool writes IPTC as Latin-1 (é is the single byte E9).
        let latin = try CaptionFixtures.jpeg(dir, "latin.jpg")
        try CaptionFixtures.exiftool(latin, ["-IPTC:Caption-Abstract=Café Zürich"])
        let bytes = try CaptionFixtures.bytes(latin)
        XCTAssertNotNil(bytes.firstRange(of: Array("Caf\u{E9}".unicodeScalars.map { UInt8($0.value) })), "Latin-1 in the file")
        try assertMatchesExiftool(latin)
        XCTAssertEqual(CaptionFixtures.read(latin).metadata?.caption, "Café Zürich")
    }

    /// The XMP forms: an alternative whose x-default is not first, the attribute form, plain element text; each
    /// embedded in a JPEG and checked against exiftool's reading.
    func testXMPForms() throws {
        func packet(_ description: String) -> [UInt8] {
            XMPText.jpegHeader + Array("""
            <?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>
            <x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>
            \(description)
            </rdf:RDF></x:xmpmeta><?xpacket end='w'?>
            """.utf8)
        }
        let ns = "xmlns:dc='http://purl.org/dc/elements/1.1/'"
        let forms: [(String, String)] = [
            ("<rdf:Description rdf:about='' \(ns)><dc:description><rdf:Alt><rdf:li xml:lang='de'>Hallo</rdf:li>"
             + "<rdf:li xml:lang='x-default'>Hello &amp; bye &#233;&#x4E2D;</rdf:li></rdf:Alt></dc:description></rdf:Description>",
             "Hello & bye é中"),
            ("<rdf:Description rdf:about='' \(ns)><dc:description><rdf:Alt><rdf:li xml:lang='fr'>Bonjour</rdf:li>"
             + "<rdf:li xml:lang='de'>Hallo</rdf:li></rdf:Alt></dc:description></rdf:Description>", "Bonjour"),
            ("<rdf:Description rdf:about='' \(ns) dc:description='Attribute &quot;form&quot;'/>", "Attribute \"form\""),
        ]
        let dir = try TempDir()
        let base = try CaptionFixtures.bytes(try CaptionFixtures.jpeg(dir, "base.jpg"))
        for (i, (xml, expected)) in forms.enumerated() {
            let path = dir.file("form\(i).jpg")
            try CaptionFixtures.write(CaptionFixtures.inserting([CaptionFixtures.segment(0xE1, packet(xml))], into: base), to: path)
            let reference = try CaptionFixtures.exiftoolValues(path, ["XMP-dc:Description"])
            let m = CaptionFixtures.read(path).metadata
            XCTAssertEqual(m?.caption, expected, xml)
            XCTAssertEqual(m?.captionSource, .xmp)
            if i != 1 { XCTAssertEqual(reference["XMP-dc:Description"], expected, "exiftool agrees: \(xml)") }
        }
        // Plain element text (under any prefix: the namespace is what counts), and an empty element followed by
        // the real one; a packet that is not XML gives nothing.
        func bare(_ body: String) -> [UInt8] { Array(packet(body).dropFirst(XMPText.jpegHeader.count)) }
        XCTAssertEqual(XMPText(packet: bare("<rdf:Description \(ns)><dc:description>Plain</dc:description></rdf:Description>")).description, "Plain")
        XCTAssertEqual(XMPText(packet: bare("<rdf:Description xmlns:d='http://purl.org/dc/elements/1.1/'><d:description>Prefix</d:description></rdf:Description>")).description, "Prefix")
        XCTAssertEqual(XMPText(packet: bare("<rdf:Description \(ns)><dc:description/></rdf:Description><rdf:Description \(ns) dc:description='Later'/>")).description, "Later")
        XCTAssertNil(XMPText(packet: bare("<rdf:Description \(ns)><dc:descriptionX>no</dc:descriptionX></rdf:Description>")).description)
        XCTAssertNil(XMPText(packet: Array("<dc:description>unclosed".utf8)).description)
    }

    func testPNGTextXMPAndEXIF() throws {
        let dir = try TempDir()
        let png = try CaptionFixtures.png(dir)
        try CaptionFixtures.exiftool(png, ["-PNG:Description=Plain text chunk", "-PNG:Title=PNG title", "-PNG:Author=Fay"])
        let reference = try CaptionFixtures.exiftoolValues(png, ["PNG:Description", "PNG:Title"])
        var m = try XCTUnwrap(CaptionFixtures.read(png).metadata)
        XCTAssertEqual(m.caption, reference["PNG:Description"])
        XCTAssertEqual(m.captionSource, .pngText)
        XCTAssertEqual(m.title, reference["PNG:Title"])
        XCTAssertEqual(m.artist, "Fay")
        try CaptionFixtures.exiftool(png, ["-PNG:Description=Zürich in iTXt"])  // not Latin-1-safe: exiftool writes iTXt
        XCTAssertEqual(CaptionFixtures.read(png).metadata?.caption, try CaptionFixtures.exiftoolValues(png, ["PNG:Description"])["PNG:Description"])
        try CaptionFixtures.exiftool(png, ["-XMP-dc:Description=PNG XMP", "-EXIF:DateTimeOriginal=2020:02:29 12:00:00"])
        let bytes = try CaptionFixtures.bytes(png)
        XCTAssertNotNil(bytes.firstRange(of: Array("XML:com.adobe.xmp".utf8)), "exiftool wrote iTXt XMP")
        m = try XCTUnwrap(CaptionFixtures.read(png).metadata)
        XCTAssertEqual(m.caption, "PNG XMP")
        XCTAssertEqual(m.captionSource, .xmp)
        XCTAssertEqual(m.date?.description, "2020-02-29 12:00:00", "eXIf chunk")
    }
}
