import Foundation
import XCTest

/// Several screens on DRM displays through the real `kiosk` binary, where no display is needed: each further
/// screen's own `drm-mode` is read (a bad one is one line naming the screen, exit 2), and
/// `--output drm` without cards says so in one line rather than playing headless. The displays themselves are
/// the VM's (Kiosk/vm/screens-test.sh).
final class ScreenDisplayCLITests: XCTestCase {
    func testAFurtherScreensBadModeIsOneLineNamingIt() throws {
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "red"), b = try ColourPictures.make(dir, "b.png", "blue")
        let conf = dir.file("kiosk.conf")
        for (section, reason) in [("drm-mode = 640by480", "--drm-mode: '640by480' is not WxH or WxH@Hz")] {
            try "[screen lobby]\n\(section)\n".write(toFile: conf, atomically: true, encoding: .utf8)
            let r = try CLITests.run(["play", "--config", conf, "--screen", "door:Virtual-1:\(a)", "--screen", "lobby:Virtual-2:\(b)",
                                      "--output", "headless", "--length", "1", "--no-state"], timeout: 30)
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains("--screen lobby: \(reason)"), r.stderr)
            XCTAssertEqual(r.stderr.filter { $0 == "\n" }.count, 1, "one line: \(r.stderr)")
        }
    }

    func testTwoScreensOnADisplayWithoutCardsIsOneLineNotHeadless() throws {
        let dir = try TempDir()
        let a = try ColourPictures.make(dir, "a.png", "red"), b = try ColourPictures.make(dir, "b.png", "blue")
        let cards = dir.file("dri")
        try FileManager.default.createDirectory(atPath: cards, withIntermediateDirectories: true)
        let r = try CLITests.run(["play", "--screen", "door:Virtual-1:\(a)", "--screen", "lobby:Virtual-2:\(b)",
                                  "--output", "drm", "--length", "1", "--no-state"], timeout: 30,
                                 environment: ["KIOSK_DRM_DIR": cards])
        XCTAssertNotEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(cards) has no cards"), r.stderr)
        XCTAssertFalse(r.stderr.contains("output: headless"), r.stderr)
    }
}
