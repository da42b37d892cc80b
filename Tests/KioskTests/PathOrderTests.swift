import Foundation
import XCTest
@testable import KioskCore

/// `PathOrder` gives Foundation's `localizedStandardCompare` answer (the folder order kiosk always had) without
/// asking ICU for plain ASCII names.
final class PathOrderTests: XCTestCase {
    private func icu(_ a: String, _ b: String) -> ComparisonResult { a.localizedStandardCompare(b) }

    func testRandomNamesCompareAsFoundationDoes() {
        var rng = SeededGenerator(seed: 12)
        let alphabet = Array("aAbBzZ00019 _-./~$(#")
        func name() -> String {
            String((0..<Int.random(in: 0...8, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? "a" })
        }
        for _ in 0..<20_000 {
            let a = name(), b = name()
            XCTAssertEqual(PathOrder.compare(a, b), icu(a, b), "[\(a)] vs [\(b)]")
        }
    }

    func testEveryPrintableCharacterSortsWhereFoundationPutsIt() {
        let printable = (32..<127).map { String(UnicodeScalar(UInt8($0))) }
        for x in printable {
            for y in printable where x != y {
                // A later difference in the other direction tells a primary difference from a tie broken later.
                for (a, b) in [("q\(x)b", "q\(y)a"), ("\(x)b", "\(y)a"), ("1\(x)", "1\(y)0")] {
                    XCTAssertEqual(PathOrder.compare(a, b), icu(a, b), "[\(a)] vs [\(b)]")
                }
            }
        }
    }

    func testNumbersCaseLeadingZerosAndOtherScripts() {
        let cases: [(String, String)] = [
            ("IMG_9.jpg", "IMG_10.jpg"), ("IMG_0009.jpg", "IMG_10.jpg"), ("a1", "a01"), ("a", "A"), ("Ab", "aC"),
            ("a/b.jpg", "a.jpg"), ("a b", "ab"), ("x 10", "x9"), ("1.5", "1.10"), ("a", "a0"), ("a0", "a00"),
            ("é.jpg", "f.jpg"), ("a.jpg", "á.jpg"), ("Zürich", "Zurich"), ("写真1", "写真2"), ("a\u{301}", "a"),
            (String(repeating: "9", count: 250), String(repeating: "9", count: 251)),
        ]
        for (a, b) in cases {
            XCTAssertEqual(PathOrder.compare(a, b), icu(a, b), "[\(a)] vs [\(b)]")
            XCTAssertEqual(PathOrder.compare(b, a), icu(b, a), "[\(b)] vs [\(a)]")
        }
    }

    func testSortingMatchesFoundationsSortAndIsStable() {
        var rng = SeededGenerator(seed: 3)
        var names = (0..<3000).map { "d\($0 % 7)/IMG_\(Int.random(in: 0..<500, using: &rng))_\($0 % 3 == 0 ? "A" : "a").jpg" }
        names += ["é.jpg", "e.jpg", "f.jpg", "Photo 2.png", "photo 10.png", "photo 02.png", "photo2.png", "_x.jpg"]
        let expected = names.sorted { icu($0, $1) == .orderedAscending }
        XCTAssertEqual(PathOrder.sorted(names), expected)
        for folder in ["/media/Fotos 2024/", "/média/été 2/", "/x1/"] {  // the shared folder is left out of the weights
            let full = names.map { folder + $0 }
            XCTAssertEqual(PathOrder.sorted(full), full.sorted { icu($0, $1) == .orderedAscending }, folder)
        }
        let pairs = [("b", 1), ("a", 2), ("b", 3), ("a", 4)]
        XCTAssertEqual(PathOrder.sorted(pairs, by: \.0).map(\.1), [2, 4, 1, 3], "equal paths keep their order")
    }
}
