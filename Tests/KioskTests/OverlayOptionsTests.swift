import Foundation
import KioskCore
import XCTest

/// The overlay flags: defaults, values, and bad values as one line naming the flag (parsed here, and through
/// the built `kiosk` binary with exit status 2).
final class OverlayOptionsTests: XCTestCase {
    private func settings(_ args: [String], specs: [OptionSpec] = CommandSpecs.play) throws -> OverlaySettings {
        try CommandSpecs.config(from: ParsedOptions.parse(args, specs: specs, command: "play")).overlays
    }

    func testDefaultsAndValues() throws {
        XCTAssertEqual(try settings([]), OverlaySettings())
        let d = OverlaySettings()
        XCTAssertEqual([d.osdLevel, d.progress == .none ? 0 : 1], [1, 0])
        XCTAssertEqual([d.osdSize, d.captionSize, d.overscan], [0.045, 0.05, 0])
        XCTAssertEqual(d.clockPosition, .topRight)
        XCTAssertTrue(d.enabled)
        XCTAssertNil(d.clock)
        let s = try settings(["--osd-level", "2", "--osd-size", "0.06", "--caption-size", "0.07", "--clock", "%H:%M:%S",
                              "--clock-position", "bottom-left", "--progress", "countdown", "--clip-info", "--overscan", "3.5"])
        XCTAssertEqual(s.osdLevel, 2)
        XCTAssertEqual([s.osdSize, s.captionSize, s.overscan], [0.06, 0.07, 3.5])
        XCTAssertEqual(s.clock, try ClockFormat(parsing: "%H:%M:%S"))
        XCTAssertEqual(s.clock?.showsSeconds, true)
        XCTAssertEqual(s.clockPosition, .bottomLeft)
        XCTAssertEqual(s.progress, .countdown)
        XCTAssertTrue(s.clipInfo)
        XCTAssertFalse(try settings(["--no-overlays", "--clock", "%H"]).enabled, "--no-overlays wins")
        XCTAssertEqual(try settings(["--no-overlays", "--clock", "%R"], specs: CommandSpecs.snapshot).clock?.source, "%R")
        XCTAssertFalse(CommandSpecs.snapshot.contains { $0.name == "osd-level" }, "snapshot shows no messages")
        for specs in [CommandSpecs.play, CommandSpecs.record, CommandSpecs.snapshot] {
            XCTAssertTrue(specs.contains { $0.name == "no-overlays" })
            XCTAssertEqual(Set(specs.map(\.name)).count, specs.count, "no flag twice")
        }
    }

    func testBadValuesNameTheFlag() {
        let cases: [([String], String)] = [
            (["--osd-level", "3"], "--osd-level: 3 is out of range 0...2"),
            (["--osd-size", "0.5"], "--osd-size: 0.5 is out of range"),
            (["--clock", "%H:%q"], "--clock: '%H:%q': column 4: unknown date conversion '%q'"),
            (["--clock-position", "middle"], "--clock-position: 'middle' is not one of top-left, top, top-right"),
            (["--clock-position", "top"], "--clock-position needs --clock FORMAT"),
            (["--progress", "pie"], "--progress: 'pie' is not one of none, bar, countdown"),
            (["--overscan", "12"], "--overscan: 12 is out of range 0...10"),
        ]
        for (args, message) in cases {
            XCTAssertThrowsError(try settings(args), "\(args)") { error in
                XCTAssertTrue("\(error)".hasPrefix(message), "\(args): \(error)")
            }
        }
    }

    func testTheCommandLineRefusesBadValuesWithOneLineAndStatusTwo() throws {
        let cases: [([String], String)] = [
            (["play", "--osd-level", "5"], "--osd-level"),
            (["play", "--clock", "%Q"], "--clock"),
            (["record", "--output", "x.mp4", "--overscan", "11"], "--overscan"),
            (["snapshot", "a.png", "--output", "x.png", "--clock-position", "nowhere"], "--clock-position"),
        ]
        for (args, flag) in cases {
            let r = try CLITests.run(args, timeout: 60)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): one line: \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(flag), "\(args) names \(flag): \(r.stderr)")
        }
    }
}
