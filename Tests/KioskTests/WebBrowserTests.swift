import Foundation
import KioskCore
import XCTest

/// The web page in a real browser (Debian's chromium, headless, through selenium and chromedriver): log in, pause
/// with the dashboard's button first, upload a JPEG through the file input, see it listed, step to it with the Next
/// button (waiting on the player's status, never on time), where the now-playing text names it and the dashboard's
/// live view, as the browser drew it, matches ffmpeg's own scale of the uploaded picture (nothing kiosk drew is
/// the reference); reorder a playlist, delete a file, save a schedule with an error and see its FILE:LINE, find
/// the report's chart; no console errors (a CSP violation would be one); the dashboard fits a phone's 360 px. The
/// pages' pictures go to out/web/ (docs/web-page.md's).
final class WebBrowserTests: WebServerTestCase {
    /// The PSNR above which the live view is the uploaded picture. Measured here (Debian 12, llvmpipe) on testsrc2,
    /// the harder case for two scalers: the live view against ffmpeg's area scale of the upload 30.1 dB; the same
    /// live view moved 2 px 18.3 dB, 8 px 12.5 dB, flipped 16.6 dB, zoomed 10 % 13.9 dB, shrunk between bars
    /// 9.5 dB. With the photo uploaded now: 35.3 dB, and 10.5 dB against the same photo mirrored. 25 dB parts them
    /// (only a blur as soft as σ 1.5 px, 26.6 dB on testsrc2, passes: no more than two scalers differ by).
    static let sameThreshold = 25.0
    /// The photo uploaded: one of the demo's (Kiosk/demo/CREDITS), so that the pages' pictures show a photo.
    static let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Kiosk/demo/02-picos-de-europa.jpg").path

    func testThePagesInARealBrowser() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver"] where !FileManager.default.fileExists(atPath: tool) {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("\(tool) is missing (Kiosk/setup.sh installs it)") }
            throw XCTSkip("\(tool) is missing (Kiosk/setup.sh installs chromium and chromium-driver)")
        }
        let schedule = dir.file("schedule"), db = dir.file("plays.sqlite")
        try "fallback \(media)\n".write(toFile: schedule, atomically: true, encoding: .utf8)
        let p = try start(["--schedule", schedule, "--play-log", db, "--play-log-batch", "1"])  // the reports page reads rows written within a second
        // a photo as users upload one (the demo's Picos de Europa, CC0, cut to 16:9 so that the screen has no bars)
        let upload = dir.file("Mountains at dawn.jpg")
        try FFmpegCLI.ffmpeg(["-i", Self.photo, "-vf", "scale=640:360:force_original_aspect_ratio=increase,crop=640:360",
                              "-frames:v", "1", "-q:v", "3", upload])
        let out = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("out/web").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: Self.guards).deletingLastPathComponent().appendingPathComponent("browser-test.py").path
        let r = try BoundedProcess.run("/usr/bin/python3", [script, base, password, upload, out], timeout: 240)
        let stderr = String(decoding: r.stderr, as: UTF8.self)
        XCTAssertEqual(r.status, 0, stderr.suffix(3000) + "\n" + p.stderr.suffix(2000))
        let seen = try JSONValue.parse([UInt8](r.stdout))
        XCTAssertEqual(seen["redirected_to_login"], .bool(true))
        XCTAssertEqual(seen["listed"], .bool(true))
        XCTAssertEqual(seen["progress"], .string("100"))
        XCTAssertEqual(seen["paused_on"], .string(media + "/Mountains at dawn.jpg"))
        XCTAssertEqual(seen["still_paused"], .bool(true), "Next kept the pause")
        XCTAssertEqual(seen["paused_after"], .bool(true), "and it held while the live view loaded")
        XCTAssertEqual(seen["now_text"], .string("Mountains at dawn.jpg (paused)"), "the page's now-playing text")
        // the live view the browser shows is the uploaded picture: ffmpeg's PSNR of the live view against ffmpeg's
        // own area scale of the upload to its size (the screen's 320x180, the picture's own shape: no bars)
        XCTAssertEqual(seen["live_size"], .array([.int(320), .int(180)]), seen.text)
        let size = PixelSize(width: 320, height: 180)
        let live = try FFmpegCLI.referenceRGBA(out + "/live.png", size: size)
        func scaled(_ picture: String) throws -> RGBAImage {
            let png = dir.file("scaled-\(UUID().uuidString).png")
            try FFmpegCLI.ffmpeg(["-i", picture, "-vf", "scale=\(size.width):\(size.height):flags=area", "-frames:v", "1", png])
            return try FFmpegCLI.referenceRGBA(png, size: size)
        }
        let psnr = ImageCompare.psnr(live, try scaled(upload))
        XCTAssertGreaterThan(psnr, Self.sameThreshold, "the live view against ffmpeg's scale of the upload")
        // the threshold parts the upload from a near miss: the same photo mirrored
        let near = dir.file("near.jpg")
        try FFmpegCLI.ffmpeg(["-i", upload, "-vf", "hflip", "-frames:v", "1", "-q:v", "3", near])
        let nearPSNR = ImageCompare.psnr(live, try scaled(near))
        XCTAssertLessThan(nearPSNR, Self.sameThreshold, "and not the same photo mirrored")
        // the playlist saved in its new order; the file deleted; the schedule's error with its line, nothing saved
        let m3u = try String(contentsOfFile: media + "/playlist.m3u", encoding: .utf8)
        let items = m3u.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        XCTAssertEqual(seen["moved_down"]?.string, items.dropFirst().first, m3u)
        XCTAssertFalse(FileManager.default.fileExists(atPath: media + "/a.png"))
        guard case .array(let problems)? = seen["problems"] else { return XCTFail(seen.text) }
        XCTAssertTrue(problems.first?.string?.hasPrefix("\(schedule):3: ") ?? false, seen.text)
        XCTAssertEqual(try String(contentsOfFile: schedule, encoding: .utf8), "fallback \(media)\n")
        XCTAssertGreaterThan(seen["timeline"]?.number ?? 0, 0, seen.text)
        // a headless screen's showings are not seen (proof of display): the chart by verdict has them, the day chart none
        XCTAssertGreaterThan(seen["verdict_bars"]?.number ?? 0, 0, seen.text)
        XCTAssertEqual(seen["chart_bars"]?.number ?? -1, 0, seen.text)
        XCTAssertEqual(seen["csv_link"], .int(1))
        XCTAssertEqual(seen["narrow_overflow"], .bool(false))
        XCTAssertEqual(seen["console_errors"], .array([]), seen.text)
        for page in ["login", "dashboard", "media", "schedule", "schedule-error", "reports", "system", "dashboard-phone"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/web-\(page).png"), page)
        }
        print("web browser: live view vs ffmpeg's scale of the upload PSNR \(psnr) dB, of the near miss \(nearPSNR) dB; \(seen.text)")
    }
}
