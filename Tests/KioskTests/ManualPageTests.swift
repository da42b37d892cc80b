import Foundation
import XCTest

/// The manual page kiosk(1) against the real binary's `--help`: every flag any `--help` prints is in the manual,
/// in the same command's section, and the manual names no flag that no `--help` prints. The page renders with
/// man(1) without a warning.
final class ManualPageTests: XCTestCase {
    /// A flag as help text writes it (`--drm-mode`).
    static let flag = try? NSRegularExpression(pattern: "--[a-z0-9][a-z0-9-]*")

    /// The flags in `text`, each once.
    static func flags(in text: String) -> Set<String> {
        guard let flag else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return Set(flag.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } })
    }

    /// Roff as plain text: font changes and break points dropped, escaped minus signs and backslashes as typed.
    static func plain(_ roff: String) -> String {
        roff.replacingOccurrences(of: #"\\f[BIR]"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: "\\:", with: "").replacingOccurrences(of: "\\&", with: "")
            .replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\e", with: "\\")
    }

    /// The manual's parts: "" for everything before COMMANDS, then each command's section (`.SS "kiosk NAME"`)
    /// by its name. FILES and SEE ALSO are left out: they are about paths, not flags.
    static func sections(_ roff: String) -> [String: String] {
        var parts: [String: String] = [:]
        var current: String? = ""
        for line in roff.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix(".SS ") {
                let title = plain(String(line.dropFirst(4))).trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
                let name = title.hasPrefix("kiosk ") ? String(title.dropFirst(6)) : title
                parts[name, default: ""] += ""
                current = name
            } else if line.hasPrefix(".SH "), line == ".SH COMMANDS" || current != "" {
                current = nil  // the head ends at COMMANDS; FILES ends the last command's section
            } else if let current {
                parts[current, default: ""] += plain(line) + "\n"
            }
        }
        return parts
    }

    /// The commands `kiosk --help` lists: the first word of each indented line under "commands:".
    static func commands(inHelp help: String) -> [String] {
        var names: [String] = []
        var inList = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "commands:" { inList = true; continue }
            guard inList else { continue }
            if line.isEmpty { break }
            if line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first { names.append(String(word)) }
        }
        return names
    }

    func testEveryHelpFlagIsInTheManualAndNoOther() throws {
        let help = try CLITests.run(["--help"], timeout: 30)
        XCTAssertEqual(help.status, 0, help.stderr)
        let manual = try CLITests.run(["--manual"], timeout: 30)
        XCTAssertEqual(manual.status, 0, manual.stderr)
        let parts = Self.sections(manual.stdout)
        let commands = Self.commands(inHelp: help.stdout)
        XCTAssertGreaterThanOrEqual(commands.count, 9, "kiosk --help lists its commands: \(help.stdout)")
        XCTAssertEqual(Set(parts.keys), Set([""] + commands), "the manual has one section per command --help lists")
        var pages = [("kiosk --help", "", help.stdout)]
        for command in commands {
            let r = try CLITests.run([command, "--help"], timeout: 30)
            XCTAssertEqual(r.status, 0, "kiosk \(command) --help: \(r.stderr)")
            pages.append(("kiosk \(command) --help", command, r.stdout))
        }
        var total = 0
        for (name, part, text) in pages {
            let shown = Self.flags(in: text)
            let written = Self.flags(in: parts[part] ?? "")
            total += shown.count
            XCTAssertFalse(shown.isEmpty, "\(name) prints flags")
            XCTAssertEqual(shown.subtracting(written).sorted(), [], "\(name) prints flags the manual's \(part.isEmpty ? "head" : part) lacks")
            XCTAssertEqual(written.subtracting(shown).sorted(), [], "the manual's \(part.isEmpty ? "head" : part) names flags \(name) does not")
        }
        XCTAssertGreaterThan(total, 100, "the commands' flags were all read")
        XCTAssertTrue(parts["play"]?.contains("--transition NAME[:DIR]\nhow items change") ?? false,
                      "an option's value and help follow its flag")
    }

    func testManualRendersWithoutWarnings() throws {
        let dir = try TempDir()
        let manual = try CLITests.run(["--manual"], timeout: 30)
        XCTAssertEqual(manual.status, 0, manual.stderr)
        let page = dir.file("kiosk.1")
        try manual.stdout.write(toFile: page, atomically: true, encoding: .utf8)
        // As lintian reads a page: man-db's warnings on, UTF-8 out.
        let r = try BoundedProcess.run("/usr/bin/man", ["--warnings", "-E", "UTF-8", "-l", page],
                                       environment: ["MANWIDTH": "80"],
                                       timeout: 30)
        let text = String(decoding: r.stdout, as: UTF8.self)
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(String(decoding: r.stderr, as: UTF8.self), "", "man has no warnings")
        XCTAssertTrue(text.hasPrefix("KIOSK(1)"), String(text.prefix(200)))
        for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "COMMANDS", "   kiosk snapshot", "   kiosk ctl"] {
            XCTAssertTrue(text.contains("\n" + heading + "\n"), "the page shows \(heading)")
        }
    }
}
