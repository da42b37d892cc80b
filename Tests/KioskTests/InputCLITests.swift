import Foundation
import XCTest

/// `kiosk play`'s input options from the command line: one-line errors and their exit codes.
final class InputCLITests: XCTestCase {
    private struct Run { var status: Int32; var stderr: String }

    /// Runs the built `kiosk` (next to the test bundle), bounded in time (these runs are short).
    private func kiosk(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        let r = try CLITests.run(args, timeout: 60, file: file, line: line)
        return Run(status: r.status, stderr: r.stderr)
    }

    private let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Kiosk/demo").path

    func testAMissingInputDeviceIsARuntimeErrorNamingIt() throws {
        let r = try kiosk(["play", "--output", "headless", "--size", "32x24", "--length", "1",
                               "--input-device", "/dev/input/event-none", demo])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").last.map(String.init),
                       "kiosk: error: open on /dev/input/event-none: No such file or directory")
    }

    func testABadKeyBindingIsAUsageError() throws {
        let r = try kiosk(["play", "--key", "KEY_NOPE=next"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("--key: 'KEY_NOPE' is not a key code"), r.stderr)
        let s = try kiosk(["play", "--key", "KEY_F5=explode"])
        XCTAssertEqual(s.status, 2)
        XCTAssertTrue(s.stderr.contains("--key: 'explode' is not one of next, previous"), s.stderr)
        let t = try kiosk(["play", "--touch-idle", "0"])
        XCTAssertEqual(t.status, 2)
        XCTAssertTrue(t.stderr.contains("--touch-idle: 0 is out of range"), t.stderr)
    }
}
