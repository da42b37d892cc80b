import Foundation
import KioskCore
import XCTest

/// Interrupts through the built binary on the simulated clock (`--start-time`): a promotion on the hour, in a
/// higher priority class, pauses the loop, and the loop resumes with the time it had left. Recorded frames are
/// read back by ffmpeg; `check-config` lists the wall-clock begins ahead.
final class LayoutInterruptTests: XCTestCase {
    override func setUp() { setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1) }

    /// The loop (green 5 s, blue 5 s, for ever) and a red promotion of 2 s every hour from 09:00; the layout
    /// begins at 08:59:50 in Berlin.
    private func makeLayout(_ dir: TempDir) throws -> String {
        for c in ["green", "blue", "red"] {
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=\(c):s=64x36", "-frames:v", "1", dir.file("\(c).png")])
        }
        let smil = dir.file("promo.smil")
        try """
            <smil><head><layout><root-layout width="160" height="90"/><region regionName="main" fit="fill"/></layout></head>
            <body><excl>
            <priorityClass id="promo"><img src="red.png" begin="wallclock(R/2026-12-24T09:00:00/PT1H)" dur="2s"/></priorityClass>
            <priorityClass id="loop"><seq begin="0s" repeatCount="indefinite">
            <img src="green.png" dur="5s"/><img src="blue.png" dur="5s"/></seq></priorityClass>
            </excl></body></smil>
            """.write(toFile: smil, atomically: true, encoding: .utf8)
        return smil
    }

    /// The colour at the centre of frame `n` of `recording` (160x90).
    private func centre(_ n: Int, of recording: String) throws -> [Int] {
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", recording, "-vf", "select=eq(n\\,\(n))",
                                                "-frames:v", "1", "-pix_fmt", "rgb24", "-f", "rawvideo", "-"])
        let px = [UInt8](data), i = (45 * 160 + 80) * 3
        guard px.count >= i + 3 else { return [] }
        return px[i..<i + 3].map(Int.init)
    }

    private func name(_ rgb: [Int]) -> String {
        guard rgb.count == 3 else { return "none" }
        if rgb[0] > 200 && rgb[1] < 60 && rgb[2] < 60 { return "red" }
        if rgb[1] > 100 && rgb[0] < 60 && rgb[2] < 60 { return "green" }
        if rgb[2] > 200 && rgb[0] < 60 && rgb[1] < 60 { return "blue" }
        return "\(rgb)"
    }

    func testAnHourlyPromotionPausesTheLoopInARecording() throws {
        let dir = try TempDir()
        let smil = try makeLayout(dir)
        let out = dir.file("rec.y4m")
        let r = try CLITests.run(["record", smil, "--output", out, "--size", "160x90", "--fps", "5", "--length", "25",
                                  "--start-time", "2026-12-24T08:59:50", "--timezone", "Europe/Berlin"], timeout: 120)
        XCTAssertEqual(r.status, 0, r.stderr)
        // 0-10 s: green then blue; 09:00:00 is 10 s in: red for 2 s while the loop waits 10 s in; it resumes at 12
        // with green's 5 s (12-17), then blue (17-22). Had the loop run on under the promotion, 16 s would be blue.
        let expected = [(4, "green"), (9, "blue"), (11, "red"), (13, "green"), (16, "green"), (18, "blue"), (23, "green")]
        for (second, colour) in expected {
            XCTAssertEqual(name(try centre(second * 5, of: out)), colour, "at \(second) s")
        }
    }

    func testCheckConfigListsTheWallClockBeginsAhead() throws {
        let dir = try TempDir()
        let smil = try makeLayout(dir)
        let r = try CLITests.run(["check-config", smil, "--start-time", "2026-12-24T08:59:50", "--timezone", "Europe/Berlin"], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("main    0:10.0-0:12.0  red.png\nmain    0:12.0-0:17.0  green.png"), r.stdout)
        XCTAssertTrue(r.stdout.contains("wall-clock begins in the next 24 h (Europe/Berlin):\n  red.png (\(smil):3): "
                                        + "2026-12-24 09:00:00, 2026-12-24 10:00:00"), r.stdout)
    }

    /// Every example layout checks clean (no problem, no warning), the interrupt examples listing their begins.
    func testTheExampleLayoutsCheckClean() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Kiosk/examples").path
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".smil") }.sorted()
        XCTAssertEqual(files, ["hourly-promo.smil", "shop-window.smil", "touch-menu.smil"])
        for f in files {
            let r = try CLITests.run(["check-config", folder + "/" + f, "--start-time", "2026-12-24T08:59:50", "--timezone", "Europe/Berlin"],
                                     timeout: 60)
            XCTAssertEqual(r.status, 0, "\(f): \(r.stderr)")
            XCTAssertEqual(r.stderr, "", f)
        }
        let promo = try CLITests.run(["check-config", folder + "/hourly-promo.smil", "--start-time", "2026-12-24T08:59:50",
                                      "--timezone", "Europe/Berlin"], timeout: 60)
        XCTAssertTrue(promo.stdout.contains("2026-12-24 09:00:00, 2026-12-24 10:00:00"), promo.stdout)
        XCTAssertTrue(promo.stdout.contains("main    0:10.0-"), "the promotion at 09:00, 10 s in: \(promo.stdout)")
    }
}
