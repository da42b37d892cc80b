import Foundation
import KioskCore
import XCTest

/// The web page in a real browser (Debian's chromium, headless, through selenium and chromedriver): log in, upload a
/// JPEG through the file input, see it listed and then on screen, where the dashboard's live view, as the browser
/// drew it, matches `kiosk ctl screenshot` (decoded by ffmpeg); reorder a playlist, delete a file, save a schedule
/// with an error and see its FILE:LINE, find the report's chart; no console errors (a CSP violation would be
/// one); the dashboard fits a phone's 360 px. The pages' pictures go to out/web/ (the README's).
final class WebBrowserTests: WebServerTestCase {
    func testThePagesInARealBrowser() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver"] where !FileManager.default.fileExists(atPath: tool) {
            if ProcessInfo.processInfo.environment["CI"] != nil { XCTFail("\(tool) is missing (Kiosk/setup.sh installs it)") }
            throw XCTSkip("\(tool) is missing (Kiosk/setup.sh installs chromium and chromium-driver)")
        }
        let sock = dir.file("ipc.sock"), schedule = dir.file("schedule"), db = dir.file("plays.sqlite")
        try "fallback \(media)\n".write(toFile: schedule, atomically: true, encoding: .utf8)
        let p = try start(["--input-ipc-server", sock, "--schedule", schedule, "--play-log", db])
        let upload = dir.file("Harbour at dawn.jpg")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=640x360,hue=h=120", "-frames:v", "1", "-q:v", "3", upload])
        let out = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("out/web").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: Self.guards).deletingLastPathComponent().appendingPathComponent("browser-test.py").path
        let r = try BoundedProcess.run("/usr/bin/python3", [script, base, password, upload, out, CLITests.kiosk, sock, media + "/.ctl.png"], timeout: 240)
        let stderr = String(decoding: r.stderr, as: UTF8.self)
        XCTAssertEqual(r.status, 0, stderr.suffix(3000) + "\n" + p.stderr.suffix(2000))
        let seen = try JSONValue.parse([UInt8](r.stdout))
        XCTAssertEqual(seen["redirected_to_login"], .bool(true))
        XCTAssertEqual(seen["listed"], .bool(true))
        XCTAssertEqual(seen["progress"], .string("100"))
        XCTAssertEqual(seen["paused_on"], .string(media + "/Harbour at dawn.jpg"))
        XCTAssertEqual(seen["ctl_screenshot"], .int(0), seen.text)
        // the live view the browser shows is the screen: ffmpeg's PSNR of the two pictures
        let live = try FFmpegCLI.referenceRGBA(out + "/live.png", size: PixelSize(width: 320, height: 180))
        let ctl = try FFmpegCLI.referenceRGBA(media + "/.ctl.png", size: PixelSize(width: 320, height: 180))
        let psnr = ImageCompare.psnr(live, ctl)
        XCTAssertGreaterThan(psnr, 30, "the live view against ctl screenshot")
        let other = try FFmpegCLI.referenceRGBA(try ColourPictures.make(dir, "red.png", "red"), size: PixelSize(width: 320, height: 180))
        XCTAssertLessThan(ImageCompare.psnr(live, other), 20, "and not the other picture")
        // the playlist saved in its new order; the file deleted; the schedule's error with its line, nothing saved
        let m3u = try String(contentsOfFile: media + "/playlist.m3u", encoding: .utf8)
        let items = m3u.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        XCTAssertEqual(seen["moved_down"]?.string, items.dropFirst().first, m3u)
        XCTAssertFalse(FileManager.default.fileExists(atPath: media + "/a.png"))
        guard case .array(let problems)? = seen["problems"] else { return XCTFail(seen.text) }
        XCTAssertTrue(problems.first?.string?.hasPrefix("\(schedule):3: ") ?? false, seen.text)
        XCTAssertEqual(try String(contentsOfFile: schedule, encoding: .utf8), "fallback \(media)\n")
        XCTAssertGreaterThan(seen["timeline"]?.number ?? 0, 0, seen.text)
        XCTAssertGreaterThan(seen["chart_bars"]?.number ?? 0, 0, seen.text)
        XCTAssertEqual(seen["csv_link"], .int(1))
        XCTAssertEqual(seen["narrow_overflow"], .bool(false))
        XCTAssertEqual(seen["console_errors"], .array([]), seen.text)
        for page in ["login", "dashboard", "media", "schedule", "schedule-error", "reports", "system", "dashboard-phone"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/web-\(page).png"), page)
        }
        print("web browser: live view vs ctl screenshot PSNR \(psnr) dB; \(seen.text)")
    }
}
