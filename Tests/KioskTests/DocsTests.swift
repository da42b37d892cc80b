import Foundation
import XCTest

/// The README is a newcomer's page and `docs/` holds the rest: every topic is one click from the README, and no
/// link or anchor in either leads nowhere (a moved section breaks a link here first).
final class DocsTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    private func read(_ relative: String) throws -> String {
        try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
    }

    /// The markdown files checked: the README and every page under docs/.
    private func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root + "/docs").filter { $0.hasSuffix(".md") }.sorted()
        return ["README.md"] + docs.map { "docs/" + $0 }
    }

    /// `text` without its fenced code blocks (a link inside one is an example, not a link).
    static func withoutCode(_ text: String) -> String {
        var out: [Substring] = []
        var inside = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inside.toggle(); continue }
            if !inside { out.append(line) }
        }
        return out.joined(separator: "\n")
    }

    /// The anchors GitHub makes of a page's headings: lower case, punctuation dropped, spaces as `-`, a repeated
    /// heading numbered `-1`, `-2`.
    static func anchors(_ text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var out = Set<String>()
        for line in withoutCode(text).split(separator: "\n") where line.hasPrefix("#") {
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
                .replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "*", with: "")
            let slug = String(title.lowercased().unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " "
            }.map(Character.init)).replacingOccurrences(of: " ", with: "-")
            let n = seen[slug, default: 0]
            seen[slug] = n + 1
            out.insert(n == 0 ? slug : "\(slug)-\(n)")
        }
        return out
    }

    /// The relative link targets in `text` (`[x](path#anchor)`, pictures too), web addresses left out.
    static func links(_ text: String) -> [String] {
        guard let re = try? NSRegularExpression(pattern: #"!?\[[^\]]*\]\(([^)\s]+)\)"#) else { return [] }
        let body = withoutCode(text)
        return re.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap { m in
            Range(m.range(at: 1), in: body).map { String(body[$0]) }
        }.filter { $0.range(of: #"^[a-z]+:"#, options: .regularExpression) == nil }
    }

    func testEveryLinkAndAnchorResolves() throws {
        var broken: [String] = []
        var checked = 0
        for page in try pages() {
            let folder = (page as NSString).deletingLastPathComponent
            for link in Self.links(try read(page)) {
                checked += 1
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? page
                    : ((folder.isEmpty ? parts[0] : folder + "/" + parts[0]) as NSString).standardizingPath
                guard FileManager.default.fileExists(atPath: root + "/" + target) else {
                    broken.append("\(page): \(link): no file \(target)")
                    continue
                }
                if parts.count == 2, target.hasSuffix(".md"), !Self.anchors(try read(target)).contains(parts[1]) {
                    broken.append("\(page): \(link): no heading makes #\(parts[1]) in \(target)")
                }
            }
        }
        XCTAssertGreaterThan(checked, 50, "the pages link to each other")
        XCTAssertEqual(broken, [])
    }

    func testTheReadmeIsShortStartsWithTheTwoCommandsAndReachesEveryPage() throws {
        let readme = try read("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertLessThanOrEqual(lines.count, 250, "the README is a newcomer's page; detail goes in docs/")
        let commands = lines.filter { $0.hasPrefix("./Kiosk/") }.map { $0.split(separator: " ").first.map(String.init) ?? "" }
        XCTAssertEqual(Array(commands.prefix(2)), ["./Kiosk/demo.sh", "./Kiosk/test.sh"], "the first two commands")
        let linked = Set(Self.links(readme).map { String($0.split(separator: "#").first ?? "") })
        for page in try pages().dropFirst() {
            XCTAssertTrue(linked.contains(page), "\(page) is not one click from the README")
            XCTAssertTrue(try read(page).contains("](../README.md"), "\(page) has no way back to the README")
        }
    }

    func testTheAnchorRuleIsGitHubs() {
        XCTAssertEqual(Self.anchors("# Limits and safety\n## `--fit` and *Ken Burns*!\n## Limits and safety\n```\n# not a heading\n```"),
                       ["limits-and-safety", "--fit-and-ken-burns", "limits-and-safety-1"])
    }
}
