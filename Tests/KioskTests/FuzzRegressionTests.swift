import Foundation
import KioskCore
import KioskMedia
import XCTest

/// The fuzzer's findings and a few hand-made inputs (Fixtures/fuzz/TARGET/*), each run through the same
/// invariants its `Kiosk/fuzz.sh` target traps on (`FuzzInvariants`, shared with Fuzz/): a value or an error,
/// never a crash, and never a wrong answer (probe and decode disagreeing, a config that does not read back).
final class FuzzRegressionTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz")
    /// Fixtures that are valid inputs: each must get through its target whole, so the invariants past the
    /// probe (decode against probe, config written back) are exercised and not skipped by an early refusal.
    private static let mustComplete = ["gif-anim/three-frames-twice.gif", "webp-anim/three-frames.webp",
                                       "config/options.conf", "config/quoted-values.conf", "m3u/extreme-values.m3u"]

    /// Every fixture of every target keeps that target's invariants.
    func testFuzzFixturesKeepTheTargetsInvariants() throws {
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.root.path)
            .filter { !$0.hasSuffix(".md") }.sorted()
        XCTAssertFalse(targets.isEmpty, "no fixtures in \(Self.root.path)")
        var completed: Set<String> = []
        for target in targets {
            let folder = Self.root.appendingPathComponent(target)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                let path = folder.appendingPathComponent(name).path
                guard let verdict = FuzzInvariants.check(target: target, path: path) else {
                    XCTFail("\(target)/\(name): no such fuzz target (targets: \(FuzzInvariants.targets))")
                    continue
                }
                XCTAssertEqual(verdict.broken, [], "\(target)/\(name)")
                if verdict.reach == .complete { completed.insert("\(target)/\(name)") }
            }
        }
        for fixture in Self.mustComplete {
            XCTAssertTrue(completed.contains(fixture), "\(fixture) was refused before its invariants ran")
        }
    }

    /// A config error names `kiosk.conf:LINE` and stays one short line, however long the bad value.
    func testConfigErrorsAreLocatedShortLines() throws {
        let huge = String(repeating: "9é\u{301}", count: 100_000)
        for text in ["duration = 3\nduration = x\n", "duration = \(huge)\n", "a b c\n", "shuffle = yes\nbogus = 1\n"] {
            guard case .failure(let error) = FuzzInvariants.parseConfig(text) else {
                XCTFail("accepted \(ErrorQuote.cut(text))")
                continue
            }
            let verdict = try XCTUnwrap(FuzzInvariants.check(target: "config", path: try write(text)))
            XCTAssertEqual(verdict.broken, [], ErrorQuote.cut(error.message))
            XCTAssertEqual(verdict.reach, .refused)
        }
    }

    /// A config written back by `FuzzInvariants.render` reads as the same options, values that need quotes too.
    func testConfigWrittenBackReadsTheSame() throws {
        let text = "background = \"#102030\"\nkey = KEY_F5=next\nkey = 0x1c=quit\npath = \" a b \"\npath = c\n"
        guard case .success(let options) = FuzzInvariants.parseConfig(text) else { return XCTFail("refused") }
        XCTAssertEqual(options.all("key"), ["KEY_F5=next", "0x1c=quit"])
        XCTAssertEqual(options.positional, [" a b ", "c"])
        let rendered = FuzzInvariants.render(options)
        XCTAssertTrue(rendered.contains("path = \" a b \"\n"), rendered)
        guard case .success(let again) = FuzzInvariants.parseConfig(rendered) else { return XCTFail("refused \(rendered)") }
        XCTAssertEqual(again.values, options.values)
        XCTAssertEqual(again.positional, options.positional)
    }

    /// Writes `text` to a scratch file and returns its path.
    private func write(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-regression-\(getpid()).conf")
        try Data(text.utf8).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }
}
