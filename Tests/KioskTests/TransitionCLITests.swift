// Transitions through the `kiosk` binary: record and play with each, a slide's mid frame read back from the
// recording, bad --transition and --effect specs refused with one line before anything plays, and --help.
import Foundation
import KioskCore
import XCTest

final class TransitionCLITests: XCTestCase {
    /// Runs kiosk with `args` (software GL), bounded in time (the runner CLITests uses).
    func kiosk(_ args: [String], timeout: Double = 120) throws -> CLITests.Run {
        try CLITests.run(args, timeout: timeout)
    }

    /// Two flat colour pictures, black then white, in a folder (played in name order).
    func blackThenWhite(_ dir: TempDir) throws {
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=black:size=32x32", "-frames:v", "1", dir.file("a.png")])
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=white:size=32x32", "-frames:v", "1", dir.file("b.png")])
    }

    func testRecordWithEveryTransitionWritesAVideo() throws {
        let dir = try TempDir()
        try blackThenWhite(dir)
        for transition in ["crossfade", "slide", "slide:up", "wipe", "wipe:right", "zoom", "fade", "random", "none"] {
            let out = dir.file("t-\(transition.replacingOccurrences(of: ":", with: "-")).mp4")
            let r = try kiosk(["record", dir.file("a.png"), dir.file("b.png"), "--output", out, "--size", "64x36", "--fps", "10",
                               "--duration", "1", "--transition", transition, "--transition-time", "0.5", "--no-loop"])
            XCTAssertEqual(r.status, 0, "\(transition): \(r.stderr)")
            let size = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
            XCTAssertGreaterThan(size, 0, "\(transition) wrote no video")
        }
        let play = try kiosk(["play", dir.file("a.png"), dir.file("b.png"), "--output", "headless", "--size", "64x36",
                              "--duration", "0.2", "--transition", "wipe:up", "--transition-time", "0.1", "--length", "0.5"])
        XCTAssertEqual(play.status, 0, play.stderr)
    }

    func testRecordedSlidePushesTheOldItemOutToTheLeft() throws {
        let dir = try TempDir()
        try blackThenWhite(dir)
        let y4m = dir.file("s.y4m")
        let r = try kiosk(["record", dir.file("a.png"), dir.file("b.png"), "--output", y4m, "--size", "32x32", "--fps", "10",
                           "--duration", "2", "--transition", "slide", "--transition-time", "1", "--no-loop"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // Frame 25 is t = 2.5 s, half way: the old (black) item fills x < 16, the new (white) one x ≥ 16.
        let data = [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-i", y4m, "-vf", "select=eq(n\\,25)", "-frames:v", "1",
                                                        "-pix_fmt", "gray", "-f", "rawvideo", "-"]))
        XCTAssertEqual(data.count, 32 * 32)
        XCTAssertEqual(Double(data[16 * 32 + 4]), 0, accuracy: 20)
        XCTAssertEqual(Double(data[16 * 32 + 12]), 0, accuracy: 20)
        XCTAssertEqual(Double(data[16 * 32 + 20]), 255, accuracy: 20)
        XCTAssertEqual(Double(data[16 * 32 + 28]), 255, accuracy: 20)
    }

    func testBadTransitionOrEffectExitsTwoWithOneLineNamingTheFlag() throws {
        let dir = try TempDir()
        try blackThenWhite(dir)
        let bad = [("--transition", "wipe:diagonal"), ("--transition", "spin"), ("--transition", "slide:left:up"),
                   ("--effect", "mosaic:tile=0"), ("--effect", "blur")]
        for command in [["record", dir.file("a.png"), "--output", dir.file("o.mp4")],
                        ["play", dir.file("a.png"), "--output", "headless", "--length", "0.1"]] {
            for (flag, value) in bad {
                let r = try kiosk(command + [flag, value])
                XCTAssertEqual(r.status, 2, "\(command[0]) \(flag) \(value): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains(flag), r.stderr)
                XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.file("o.mp4")), "nothing is recorded after a usage error")
    }

    func testHelpListsTheTransitions() throws {
        for command in ["play", "record"] {
            let r = try kiosk([command, "--help"])
            XCTAssertEqual(r.status, 0)
            for usage in ["crossfade", "slide[:left|right|up|down]", "wipe[:left|right|up|down]", "zoom", "fade", "random"] {
                XCTAssertTrue(r.stdout.contains(usage), "\(command) --help lacks \(usage)")
            }
        }
    }
}
