import Foundation
import XCTest

/// `Kiosk/results.sh`, the counting that `Kiosk/test.sh` and the VM scripts end with, on logs made up here: a
/// run that crashed, was cut short or shrank must never read as green.
final class ResultCountingTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Runs `call` (a results.sh function and its arguments) in bash with the script sourced; (stdout, stderr).
    private func results(_ call: String) throws -> (out: String, err: String) {
        let r = try BoundedProcess.run("/bin/bash", ["-c", ". Kiosk/results.sh; " + call], timeout: 20, directory: root)
        XCTAssertEqual(r.status, 0, String(decoding: r.stderr, as: UTF8.self))
        return (String(decoding: r.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines),
                String(decoding: r.stderr, as: UTF8.self))
    }

    private func write(_ dir: TempDir, _ name: String, _ lines: [String]) throws -> String {
        let path = dir.file(name)
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func testCase(_ name: String, _ result: String) -> [String] {
        ["Test Case '\(name)' started at 2026-12-07 01:54:30.475", "Test Case '\(name)' \(result) (0.041 seconds)"]
    }

    private func allTests(_ verdict: String, executed: Int, failures: Int) -> [String] {
        ["Test Suite 'All tests' \(verdict) at 2026-12-07 01:54:31.000",
         "\t Executed \(executed) tests, with \(failures) failures (0 unexpected) in 1.0 (1.0) seconds"]
    }

    func testXCTestCountsAreTestCasesNotAssertions() throws {
        let dir = try TempDir()
        // One test failed three assertions: one failed test, not three.
        let log = try write(dir, "log", testCase("A.t1", "passed") + testCase("A.t2", "failed") + testCase("A.t3", "skipped")
            + ["Test Suite 'A' failed at x", "\t Executed 3 tests, with 1 test skipped and 3 failures (0 unexpected)"]
            + allTests("failed", executed: 3, failures: 3))
        let r = try results("xctest_counts \(log) 1")
        XCTAssertEqual(r.out, "1 1 1")
        XCTAssertEqual(r.err, "")
    }

    func testXCTestThatDiedPartWayIsAFailureEvenWithASuitesSummary() throws {
        let dir = try TempDir()
        // The bundle crashed in suite B: A's own summary is there, "All tests" is not.
        let log = try write(dir, "log", testCase("A.t1", "passed") + testCase("A.t2", "passed")
            + ["Test Suite 'A' passed at x", "\t Executed 2 tests, with 0 failures (0 unexpected)",
               "Test Case 'B.t1' started at x", "Fatal error: Unexpectedly found nil"])
        let r = try results("xctest_counts \(log) 132")
        XCTAssertEqual(r.out, "2 1 0")
        XCTAssertTrue(r.err.contains("no \"All tests\" summary"), r.err)
    }

    func testXCTestSummaryThatDisagreesWithTheCasesIsAFailure() throws {
        let dir = try TempDir()
        let log = try write(dir, "log", testCase("A.t1", "passed") + allTests("passed", executed: 2, failures: 0))
        let r = try results("xctest_counts \(log) 0")
        XCTAssertEqual(r.out, "1 1 0")
        XCTAssertTrue(r.err.contains("executed 2 tests"), r.err)
    }

    func testNonZeroExitWithNoFailedCaseIsAFailure() throws {
        let dir = try TempDir()
        let log = try write(dir, "log", testCase("A.t1", "passed") + allTests("passed", executed: 1, failures: 0))
        XCTAssertEqual(try results("xctest_counts \(log) 0").out, "1 0 0")
        let r = try results("xctest_counts \(log) 1")
        XCTAssertEqual(r.out, "1 1 0")
        XCTAssertTrue(r.err.contains("exited 1"), r.err)
    }

    func testCheckerThatCrashedHidesNoCheck() throws {
        let dir = try TempDir()
        // check.py died after two checks: the old count (grep PASS/FAIL, `|| true`) read "2 passed, 0 failed".
        let crashed = try write(dir, "crashed", ["PASS bochs screen-a: ok", "PASS bochs screen-b: ok",
                                                 "Traceback (most recent call last):", "KeyError: 'a'"])
        let r = try results("judge_checks \(crashed) 1 29 'vm-test bochs'")
        XCTAssertEqual(r.out, "2 2")
        XCTAssertTrue(r.err.contains("no summary line"), r.err)
        XCTAssertTrue(r.err.contains("2 checks ran, 29 expected"), r.err)
    }

    func testCheckerCountsMustMatchItsLinesAndTheExpectedNumber() throws {
        let dir = try TempDir()
        let good = try write(dir, "good", ["PASS x: 1", "FAIL y: 2", "bochs: 1 passed, 1 failed"])
        XCTAssertEqual(try results("judge_checks \(good) 1 2 bochs").out, "1 1")
        // the same lines with a summary that lies
        let lying = try write(dir, "lying", ["PASS x: 1", "FAIL y: 2", "2 passed, 0 failed"])
        XCTAssertEqual(try results("judge_checks \(lying) 0 2 sd").out, "1 2")
        // a step that stopped checking: fewer checks than the list
        let short = try write(dir, "short", ["PASS x: 1", "1 passed, 0 failed"])
        let r = try results("judge_checks \(short) 0 2 cec")
        XCTAssertEqual(r.out, "1 1")
        XCTAssertTrue(r.err.contains("1 checks ran, 2 expected"), r.err)
        // every check passed but the checker exited non-zero
        let exit = try write(dir, "exit", ["PASS x: 1", "PASS y: 1", "2 passed, 0 failed"])
        XCTAssertEqual(try results("judge_checks \(exit) 1 2 sd").out, "2 1")
        XCTAssertEqual(try results("judge_checks \(exit) 0 2 sd").out, "2 0")
    }
}
