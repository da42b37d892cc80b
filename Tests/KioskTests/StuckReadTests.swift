import Foundation
import XCTest

/// A decode whose read is really stuck: a regular JPEG whose every read by kiosk is held by fanotify
/// (`Fixtures/stuck/hold_reads.py`, FAN_ACCESS_PERM), as a read on a dead network mount would hang. kiosk must give
/// the item up at `--decode-timeout`, show the next one, and exit on time while the read is still held (issue 23,
/// test audit item 3: the FIFO the older test used is refused as a non-regular file before any read).
final class StuckReadTests: XCTestCase {
    private static let holder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/stuck/hold_reads.py").path

    func testADecodeStuckInAReadIsAbandonedAtTheDecodeTimeoutAndTheShowGoesOn() throws {
        let dir = try TempDir()
        let stuck = dir.file("a-stuck.jpg"), next = dir.file("b.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48", "-frames:v", "1", stuck])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48,hue=h=120", "-frames:v", "1", next])
        // reads of a-stuck.jpg are held for 60 s: far past the timeout and the test's own bound on kiosk
        let hold = try LiveProcess([Self.holder, stuck, "60"], executable: "/usr/bin/python3")
        defer {
            hold.send(SIGTERM)
            _ = hold.finish(timeout: 10)
        }
        XCTAssertTrue(hold.waitForOutput("ready", timeout: 10), "fanotify (root, FAN_ACCESS_PERM): \(hold.stdout)\(hold.stderr)")
        let r = try CLITests.run(["play", dir.path, "--size", "64x48", "--duration", "0.3", "--no-loop", "--decode-timeout", "1",
                                  "--log-level", "info"], timeout: 40)
        XCTAssertTrue(hold.stdout.contains("holding a read by pid"), "kiosk's read was really held: \(hold.stdout)")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(stuck): decode took longer than 1"), r.stderr)
        XCTAssertTrue(r.stderr.contains("showing \(next)"), r.stderr)
        XCTAssertGreaterThanOrEqual(r.seconds, 1, "the decode timeout was reached: \(r.stderr)")
        XCTAssertLessThan(r.seconds, 30, "given up and exited, not waited out (the read is held for 60 s): \(r.stderr)")
    }
}
