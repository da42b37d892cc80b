import Foundation
import KioskCore
import XCTest

/// `KIOSK_TEST_REALTIME_SKEW` moves the wall clock a shipped binary reads (`--sync-epoch`): never without a word.
/// `play` and `record` say so in one warn line at start (shown at the default log level), naming the variable and
/// its value, or that the value is unreadable and ignored; without the variable there is no such line.
final class RealtimeSkewNoticeTests: XCTestCase {
    func testTheNoticeNamesTheVariableAndWhatItDoes() {
        XCTAssertNil(RealtimeClock.environmentNotice([:]))
        XCTAssertNil(RealtimeClock.environmentNotice(["KIOSK_TEST_STALL_FRAME": "1"]))
        let step = RealtimeClock.environmentNotice([RealtimeClock.skewVariable: "5,2.5,0"]) ?? ""
        XCTAssertTrue(step.hasPrefix("KIOSK_TEST_REALTIME_SKEW=5,2.5,0: a test setting"), step)
        XCTAssertTrue(step.contains("5.000 s ahead, then 0.000 s from 2.500 s after start"), step)
        let plain = RealtimeClock.environmentNotice([RealtimeClock.skewVariable: "-3"]) ?? ""
        XCTAssertTrue(plain.contains("moved -3.000 s ahead"), plain)
        XCTAssertFalse(plain.contains("then"), plain)
        let bad = RealtimeClock.environmentNotice([RealtimeClock.skewVariable: "soon\nforged line"]) ?? ""
        XCTAssertTrue(bad.hasPrefix(#"KIOSK_TEST_REALTIME_SKEW=soon\nforged line is not S or S1,AFTER,S2"#), bad)
        XCTAssertTrue(bad.contains("ignored"), bad)
    }

    /// A real `play` and `record` at the default log level, with and without the variable.
    func testPlayAndRecordLogItAtStart() throws {
        let dir = try TempDir()
        let picture = try ColourPictures.make(dir, "a.png", "green")
        let play = ["play", picture, "--output", "headless", "--size", "64x36", "--no-state", "--no-watch", "--length", "0.5"]
        let record = ["record", picture, "--output", dir.file("out.y4m"), "--size", "64x36", "--length", "0.5"]
        for args in [play, record] {
            let skewed = try CLITests.run(args, timeout: 60, environment: [RealtimeClock.skewVariable: "7.5"])
            XCTAssertEqual(skewed.status, 0, skewed.stderr)
            let lines = skewed.stderr.split(separator: "\n").filter { $0.contains(RealtimeClock.skewVariable) }
            XCTAssertEqual(lines.count, 1, "\(args[0]): one line: \(skewed.stderr)")
            XCTAssertTrue(lines.first?.contains("KIOSK_TEST_REALTIME_SKEW=7.5: a test setting") ?? false, skewed.stderr)
            XCTAssertTrue(lines.first?.contains("7.500 s ahead") ?? false, skewed.stderr)
            let plain = try CLITests.run(args, timeout: 60, environment: [:])
            XCTAssertEqual(plain.status, 0, plain.stderr)
            XCTAssertFalse(plain.stderr.contains(RealtimeClock.skewVariable), plain.stderr)
        }
    }
}
