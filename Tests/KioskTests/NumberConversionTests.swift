import Foundation
import XCTest

/// A floating-point value becomes an integer in one place: `KioskCore/Support/WholeNumber.swift` (`Int(whole:in:)`,
/// `Int(clamping:rounding:to:)`, `Int(saturating:rounding:)`), which never traps. `Int(someDouble)` traps on NaN,
/// infinity and past 2^63, and such a trap took the player down (an alert of 1e300 s, a SMIL `dur` of 1e18 h).
///
/// A text scan cannot know types, so it reads the signs of one: an unlabelled integer initialiser (`Int(`,
/// `Int64(`, `UInt8(` …; a labelled one such as `Int(exactly:)` or `UInt8(clamping:)` takes only what cannot
/// trap) whose argument shows a floating value — `.rounded`, `Double(`, `floor(`, a decimal literal, a time word
/// (`seconds`, `duration`, `timeInterval`), `* 1000` — or names a variable the same file declares `Double` or
/// `Float`. `lround`, `llround`, `lrint` and `llrint` are out everywhere. What it cannot see (a `Double` from
/// another file passed bare) is what review is for; what it wrongly sees is listed below with its reason.
final class NumberConversionTests: XCTestCase {
    private let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources").path

    /// The one home of the conversion.
    static let home = "KioskCore/Support/WholeNumber.swift"

    /// Conversions the scan takes for floating but are not, as (file, argument, why). Keep it tiny.
    static let exempt: [(file: String, argument: String, why: String)] = [
        ("KioskCore/Layout/SMILWallclock.swift", "n", "a repeat count's digits (Substring): `Int(n)` parses, returning nil"),
    ]

    /// Signs that an argument is floating.
    static let floatingSigns = [
        #"\.rounded\b"#, #"\b(Double|Float|CGFloat|TimeInterval)\("#, #"\b(floor|ceil|round|trunc|sqrt|pow|exp|log)\("#,
        #"(?<![\w.])\d[\d_]*\.\d"#, #"(?<![\w.])\d[\d_]*(\.\d+)?e[-+]?\d"#, #"[Ss]econds\b"#, #"[Dd]uration\b"#,
        #"timeInterval"#, #"\.magnitude\b"#, #"\* 1_?000\b"#, #"\.pts\b"#,
    ].map { try? NSRegularExpression(pattern: $0) }

    /// Variables a file declares floating: `x: Double`, `case .double(let x)`, `let x = 5.0`, `let x = ….rounded()`
    /// (`min(…)`, `(…)`, `x.doubleValue` with `Double(`, `.rounded(` or `.doubleValue` in it; not a condition's
    /// binding), the seconds of `LocalClock.wallClock`.
    static let floatingDeclaration = try? NSRegularExpression(pattern: [
        #"\b(\w+)\s*:\s*(?:Double|Float|TimeInterval|CGFloat)\b"#, #"case \.(?:double|real|number)\(let (\w+)\)"#,
        #"\b(?:let|var) (\w+) = [\d_]+\.\d"#, #"\b(?:let|var) (\w+) = (?:Double\(|[a-z][\w.]*\.(?:rounded\(|doubleValue))"#,
        #"(?<!if |guard |, )\b(?:let|var) (\w+) = (?:\(|min\(|max\(|abs\()[^\n]*(?:\bDouble\(|\.rounded\(|\.doubleValue)"#,
        #"let \(\w+, (\w+)\) = LocalClock\.wallClock"#,
    ].joined(separator: "|"))

    /// The conversions in `text` (a Swift file) that trap on a floating value: (line number, argument).
    static func trappingConversions(in text: String) -> [(line: Int, argument: String)] {
        let whole = NSRange(text.startIndex..., in: text)
        var floating = Set<String>()
        for m in floatingDeclaration?.matches(in: text, range: whole) ?? [] {
            for g in 1..<m.numberOfRanges {
                if let r = Range(m.range(at: g), in: text) { floating.insert(String(text[r])) }
            }
        }
        floating.remove("_")
        let initialiser = try? NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.])U?Int(?:8|16|32|64)?\("#)
        let label = try? NSRegularExpression(pattern: #"^\s*[A-Za-z_]\w*\s*:"#)
        let rounding = try? NSRegularExpression(pattern: #"\b(l|ll)(round|rint)f?\("#)
        let identifier = try? NSRegularExpression(pattern: #"(?<![.\w])([A-Za-z_]\w*)\b(?!\s*[(:])"#)
        var found: [(Int, String)] = []
        for (n, raw) in text.components(separatedBy: "\n").enumerated() {
            let line = Self.code(raw)
            let ns = line as NSString
            let all = NSRange(location: 0, length: ns.length)
            if let hit = rounding?.firstMatch(in: line, range: all) { found.append((n + 1, ns.substring(with: hit.range))) }
            for m in initialiser?.matches(in: line, range: all) ?? [] {
                let argument = Self.withoutCheckedCalls(Self.argument(ns, from: m.range.location + m.range.length))
                let a = argument as NSString
                let aAll = NSRange(location: 0, length: a.length)
                if label?.firstMatch(in: argument, range: aAll) != nil || argument.contains(", radix:") { continue }  // labelled; a string's digits
                let signed = floatingSigns.contains { $0?.firstMatch(in: argument, range: aAll) != nil }
                let bare = argument.replacingOccurrences(of: "Self.", with: "").replacingOccurrences(of: "self.", with: "") as NSString
                let names = (identifier?.matches(in: bare as String, range: NSRange(location: 0, length: bare.length)) ?? [])
                    .map { bare.substring(with: $0.range(at: 1)) }
                if signed || names.contains(where: floating.contains) { found.append((n + 1, argument)) }
            }
        }
        return found
    }

    /// `line` without its comment (`// …` at the start or after a space).
    private static func code(_ line: String) -> String {
        if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { return "" }
        return line.range(of: " // ").map { String(line[..<$0.lowerBound]) } ?? line
    }

    /// `argument` with each checked conversion in it (`Int(saturating: …)`) read as `0`: `Int64(Int(saturating: x))`
    /// is checked.
    private static func withoutCheckedCalls(_ argument: String) -> String {
        var text = argument as NSString
        for form in ["Int(saturating:", "Int(clamping:", "Int(whole:"] {
            while true {
                let at = text.range(of: form)
                guard at.location != NSNotFound else { break }
                let inner = Self.argument(text, from: at.location + 4)
                let length = min(4 + (inner as NSString).length + 1, text.length - at.location)
                text = text.replacingCharacters(in: NSRange(location: at.location, length: length), with: "0") as NSString
            }
        }
        return text as String
    }

    /// The text from `start` to the parenthesis that closes the one before it.
    private static func argument(_ line: NSString, from start: Int) -> String {
        var depth = 1, i = start
        while i < line.length {
            let c = line.character(at: i)
            if c == 40 { depth += 1 } else if c == 41 { depth -= 1; if depth == 0 { break } }
            i += 1
        }
        return line.substring(with: NSRange(location: start, length: i - start))
    }

    func testFloatingValuesBecomeIntegersOnlyThroughTheCheckedConversion() throws {
        let fm = FileManager.default
        var bad: [String] = []
        var exemptionsUsed = Set<String>()
        for target in try fm.contentsOfDirectory(atPath: sources).sorted() {
            guard let walk = fm.enumerator(atPath: sources + "/" + target) else { continue }
            while let rel = walk.nextObject() as? String {
                let path = target + "/" + rel
                guard rel.hasSuffix(".swift"), path != Self.home else { continue }
                let text = try String(contentsOfFile: sources + "/" + path, encoding: .utf8)
                for (line, argument) in Self.trappingConversions(in: text) {
                    if Self.exempt.contains(where: { $0.file == path && $0.argument == argument }) {
                        exemptionsUsed.insert(path + argument)
                        continue
                    }
                    bad.append("\(path):\(line): `\(argument)`")
                }
            }
        }
        XCTAssertEqual(bad, [], "floating values made integers without Int(saturating:), Int(clamping:to:) or Int(whole:in:)")
        XCTAssertEqual(exemptionsUsed.count, Self.exempt.count, "an exemption no longer needed: take it out of the list")
    }

    /// The scan sees what it is for, and lets the checked forms pass.
    func testTheScanSeesATrappingConversion() {
        let caught = Self.trappingConversions(in: """
            let a = Int(someDouble)  // a comment: Int(x.rounded())
            func f(wait: Double) -> Int { Int(wait) }
            let b = Int((x * 1000).rounded()), c = UInt8(Double(p) * 0.5), d = lround(x)
            let e = Int64(t.timeIntervalSince1970), g = Int32(1.5)
            let ok = Int(saturating: x.rounded()), fine = Int(exactly: d), same = UInt8(clamping: Int(saturating: v)), n = Int(count)
            """)
        XCTAssertEqual(caught.map(\.line), [2, 3, 3, 3, 4, 4], "\(caught)")
        XCTAssertEqual(caught.first?.argument, "wait")
    }
}
