import Foundation
import KioskCore
import XCTest

/// `kiosk play --untimed`: the clock follows the decoded frames, so a looping clip must carry it over each end of
/// the clip. A clip whose last frame was drawn before its decoder said it had ended held the loop forever (the
/// clock only moved after a frame was presented).
final class UntimedLoopTests: XCTestCase {
    func testALoopingClipRunsItsWholeLengthUntimed() throws {
        let dir = try TempDir()
        let clip = dir.file("clip.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=3", "-c:v", "libx264",
                              "-preset", "ultrafast", "-pix_fmt", "yuv420p", clip])
        let r = try CLITests.run(["play", clip, "--output", "headless", "--size", "160x90", "--untimed", "--length", "10",
                                  "--no-state", "--log-level", "info"], timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        let passes = r.stderr.split(separator: "\n").filter { $0.contains("showing \(clip) at") }
        XCTAssertGreaterThanOrEqual(passes.count, 4, "the clip came round at 3, 6 and 9 s: \(r.stderr.suffix(600))")
        let played = r.stderr.split(separator: "\n").first { $0.contains("played ") } ?? ""
        let frames = played.split(separator: " ").firstIndex { $0 == "frames," }.flatMap { i in
            Int(played.split(separator: " ")[i - 1])
        } ?? 0
        XCTAssertGreaterThanOrEqual(frames, 290, "about 30 frames a second for 10 s: \(played)")
    }
}
