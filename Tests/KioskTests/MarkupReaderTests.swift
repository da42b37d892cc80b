import Foundation
import KioskCore
import KioskMedia
import XCTest

/// The libxml2 markup reader: the tree it gives, its FILE:LINE errors, and what it refuses (DTDs and entities,
/// depth, size).
final class MarkupReaderTests: XCTestCase {
    private func parse(_ text: String) throws -> MarkupElement { try MarkupReader.parse(Array(text.utf8), file: "t.smil") }

    private func error(_ text: String) -> MarkupError? {
        do { _ = try MarkupReader.parse(Array(text.utf8), file: "t.smil"); return nil } catch { return error }
    }

    func testTreeWithNamespacesAttributesTextAndLines() throws {
        let root = try parse("""
        <?xml version="1.0"?>
        <smil xmlns="http://www.w3.org/ns/SMIL" xmlns:k="urn:kiosk">
          <head><layout><region regionName="main" xml:id="r1" k:extra="1"/></layout></head>
          <body><![CDATA[a<b]]> &amp; text</body>
        </smil>
        """)
        XCTAssertEqual(root.name, "smil")
        XCTAssertEqual(root.namespace, "http://www.w3.org/ns/SMIL")
        XCTAssertEqual(root.line, 2)
        let region = try XCTUnwrap(root.children.first?.children.first?.children.first)
        XCTAssertEqual(region.name, "region")
        XCTAssertEqual(region.line, 3)
        XCTAssertEqual(region.attribute("regionName"), "main")
        XCTAssertEqual(region.attribute("id", namespace: "http://www.w3.org/XML/1998/namespace"), "r1")
        XCTAssertEqual(region.attribute("extra", namespace: "urn:kiosk"), "1")
        XCTAssertNil(region.attribute("extra"), "a namespaced attribute is not the plain one")
        XCTAssertEqual(root.children(named: "body").first?.text, "a<b & text")
    }

    func testNotWellFormedNamesTheLine() {
        let e = error("<smil>\n<head>\n<layout>\n</head>\n</smil>")
        XCTAssertEqual(e?.line, 4, "\(String(describing: e))")
        XCTAssertTrue(e?.description.hasPrefix("t.smil:4: not well-formed XML") ?? false, "\(String(describing: e))")
        XCTAssertEqual(error("")?.description, "t.smil: empty")
    }

    func testDoctypesAndEntitiesAreRefusedBeforeParsing() throws {
        let dir = try TempDir()
        let secret = dir.file("secret.txt")
        try "TOP-SECRET-42".write(toFile: secret, atomically: true, encoding: .utf8)
        let laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n"
            + (1...9).map { " <!ENTITY lol\($0) \"" + String(repeating: "&lol\($0 - 1 == 0 ? "" : String($0 - 1));", count: 10) + "\">" }.joined(separator: "\n")
            + "\n]>\n<smil>&lol9;</smil>"
        XCTAssertEqual(error(laughs)?.description, "t.smil:2: a DOCTYPE (DTDs and entities are not read)")
        let external = "<?xml version=\"1.0\"?>\n\n<!DOCTYPE smil [<!ENTITY x SYSTEM \"file://\(secret)\">]>\n<smil>&x;</smil>"
        let e = error(external)
        XCTAssertEqual(e?.line, 3)
        XCTAssertFalse(e?.description.contains("TOP-SECRET") ?? true)
        // the same words inside a comment are text, not a DOCTYPE
        XCTAssertEqual(try parse("<!-- <!DOCTYPE x> --><smil/>").name, "smil")
    }

    func testDepthAndSizeAreBounded() throws {
        let deep = String(repeating: "<seq>", count: 70) + String(repeating: "</seq>", count: 70)
        XCTAssertEqual(error("<smil>\n" + deep + "</smil>")?.reason, "elements nested deeper than 64")
        let ok = String(repeating: "<seq>", count: 60) + String(repeating: "</seq>", count: 60)
        XCTAssertNoThrow(try parse("<smil>" + ok + "</smil>"))
        let dir = try TempDir()
        let big = dir.file("big.smil")
        try Data(("<smil>" + String(repeating: " ", count: MarkupReader.maxBytes) + "</smil>").utf8).write(to: URL(fileURLWithPath: big))
        XCTAssertThrowsError(try MarkupReader.read(file: big)) { e in
            XCTAssertTrue("\(e)".hasPrefix("\(big): larger than 4 MiB"), "\(e)")
        }
        XCTAssertThrowsError(try MarkupReader.read(file: dir.file("none.smil"))) { e in
            XCTAssertTrue("\(e)".hasPrefix(dir.file("none.smil") + ": "), "\(e)")
        }
    }
}
