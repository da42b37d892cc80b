import Foundation
import KioskCore
@_spi(Bench) @testable import KioskPlayLog
import KioskWeb
import XCTest

/// The bounds of a play-log report are read by one parser (`ReportTime`) for `kiosk report`, the web page's
/// `/api/report` and IPC: every field is checked (the page took `2026-13-45` and `+99:99` and answered figures for
/// other days), and the CLI and the page give the same figures, or the same refusal, for the same text.
final class ReportTimeTests: XCTestCase {
    private let berlin = TimeZone(identifier: "Europe/Berlin") ?? .current

    func testEachFormReadsAsItsInstant() throws {
        let cases: [(String, Double)] = [
            ("2026-12-25", 1_798_153_200),  // Berlin's midnight: 23:00Z the day before
            ("2026-12-25T06:30", 1_798_176_600),
            ("2026-12-25T06:30:15", 1_798_176_615),
            ("2026-12-25T06:30:15.250", 1_798_176_615.25),
            ("2026-12-25T05:30:15Z", 1_798_176_615),
            ("2026-12-25T08:30:15+03:00", 1_798_176_615),
            ("2026-12-25T02:00:15.5-03:30", 1_798_176_615.5),
            ("2026-12-25T19:30:15+14:00", 1_798_176_615),
            ("2026-07-01T12:00", 1_782_900_000),  // summer: +02:00
        ]
        for (text, seconds) in cases {
            XCTAssertEqual(try ReportTime.parse(text, zone: berlin).timeIntervalSince1970, seconds, accuracy: 0.0005, text)
        }
        XCTAssertEqual(PlayReportQuery.instant("2026-12-25T05:30:15Z")?.timeIntervalSince1970, 1_798_176_615)
        XCTAssertNil(PlayReportQuery.instant("2026-12-25T05:30:15"), "IPC's times carry their zone")
    }

    func testEveryFieldIsChecked() {
        let cases: [(String, String)] = [
            ("2026-13-45", "no such day"), ("2026-02-29", "no such day"), ("2026-12-00", "no such day"),
            ("yesterday", "a date is YYYY-MM-DD"), ("2026-1-5", "a date is YYYY-MM-DD"), ("２０２６-12-25", "a date is YYYY-MM-DD"),
            ("2026-12-25 06:30", "the time follows the date after a T"), ("2026-12-25T6:30", "a time is HH:MM"),
            ("2026-12-25T24:00", "hours 00 to 23, minutes 00 to 59"), ("2026-12-25T06:60", "hours 00 to 23, minutes 00 to 59"),
            ("2026-12-25T06:30:60", "seconds 00 to 59"), ("2026-12-25T06:30:1", "seconds are :SS"),
            ("2026-12-25T06:30:15.", "a fraction of a second is 1 to 9 digits"),
            ("2026-12-25T06:30:00+99:99", "an offset is at most 14:00 either side of UTC"),
            ("2026-12-25T06:30:00+14:01", "an offset is at most 14:00 either side of UTC"),
            ("2026-12-25T06:30:00+01:60", "an offset is at most 14:00 either side of UTC"),
            ("2026-12-25T06:30:00+0100", "after the time comes nothing, Z, or an offset +HH:MM or -HH:MM"),
            ("2026-12-25T06:30Zulu", "after the time comes nothing, Z, or an offset +HH:MM or -HH:MM"),
        ]
        for (text, why) in cases {
            XCTAssertThrowsError(try ReportTime.parse(text, zone: berlin), text) { error in
                XCTAssertEqual("\(error)", "'\(text)' is not \(ReportTime.forms) (\(why))")
            }
        }
        XCTAssertNil(PlayReportQuery.instant("2026-13-45T06:30:00Z"))
        XCTAssertNil(PlayReportQuery.instant("2026-12-25T06:30:00+99:99"))
    }

    /// The same texts through `kiosk report --since` and `/api/report?since=` (both in Berlin's zone), over one
    /// log of seeded showings: the same figures, or a refusal with the same reason.
    func testTheCLIAndTheWebPageAgree() throws {
        let dir = try TempDir()
        let db = dir.file("plays.sqlite")
        let store = try PlayLog(path: db, log: Log(level: .error))
        var rng = SeededGenerator(seed: 37)
        var t = Date(timeIntervalSince1970: 1_798_070_400)  // 2026-12-24T00:00:00Z
        for _ in 0..<300 {
            let length = Double(Int.random(in: 60...3_000, using: &rng))
            let row = try XCTUnwrap(store.begin(ShowingItem(path: "/m/ad-\(Int.random(in: 1...3, using: &rng)).png", kind: "image"), at: t))
            store.end(row, at: t.addingTimeInterval(length), reason: "eof", length: length, screenOff: 0)
            t = t.addingTimeInterval(length)
        }
        let reports = PlayReports()
        PlayLogRemote.connect(reports, path: db, zone: berlin)
        let backend = WebBackend(status: { PlayerStatus() }, command: { _ in .object([]) }, screenshot: { [] }, reports: reports,
                                 mediaRoot: dir.path, probe: { _ in nil })
        let token = "report-time-test-token-0123456789"
        let app = WebApp(backend: backend, security: WebSecurity(passwordHash: nil, token: token, uploadLimit: 1 << 20),
                         log: Log(level: .error), clock: { ProcessInfo.processInfo.systemUptime })
        func web(_ since: String) -> WebResponse {
            let r = WebRequest(method: "GET", path: "/api/report", query: ["since": since, "by": "day", "format": "csv"],
                               headers: ["host": "127.0.0.1:8080", "authorization": "Bearer \(token)"])
            switch app.admit(r) {
            case .respond(let response): return response
            case .body, .upload: return app.respond(r)
            }
        }
        let good = ["2026-12-25", "2026-12-25T06:30", "2026-12-25T06:30:15.250", "2026-12-25T05:30:00Z", "2026-12-25T08:30:00+03:00"]
        for since in good {
            let cli = try CLITests.run(["report", "--play-log", db, "--since", since, "--timezone", "Europe/Berlin", "--by", "day",
                                        "--format", "csv"], timeout: 30)
            XCTAssertEqual(cli.status, 0, cli.stderr)
            let page = web(since)
            XCTAssertEqual(page.status, 200, String(decoding: page.body, as: UTF8.self))
            XCTAssertEqual(String(decoding: page.body, as: UTF8.self), cli.stdout, since)
            XCTAssertGreaterThan(cli.stdout.split(separator: "\n").count, 1, "\(since): some showings")
        }
        for since in ["2026-13-45", "2026-12-25T06:30:00+99:99", "2026-02-30", "2026-12-25T24:00"] {
            let cli = try CLITests.run(["report", "--play-log", db, "--since", since, "--timezone", "Europe/Berlin"], timeout: 30)
            XCTAssertEqual(cli.status, 2)
            let refusal = (try? ReportTime.parse(since, zone: berlin)).map { "accepted \($0)" } ?? ""
            XCTAssertEqual(refusal, "", since)
            let page = web(since)
            XCTAssertEqual(page.status, 400, since)
            let said = try JSONValue.parse(page.body)["error"]?.string ?? ""
            XCTAssertEqual(cli.stderr, "kiosk: --\(said)\n", "the CLI and the page refuse \(since) alike")
            XCTAssertTrue(said.hasPrefix("since: '\(since)' is not \(ReportTime.forms) ("), said)
        }
    }
}
