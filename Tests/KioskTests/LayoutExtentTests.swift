import Foundation
import KioskCore
import KioskMedia
import XCTest

/// Layouts that never end or never change (issue 37, item 3): the timeline says whether a body ends, never ends
/// or lasts no time (nothing in it ever shows); `record` refuses the last two without `--length` and is bounded
/// by it; `check-config` names the problem; `play` of a body where nothing shows says so once and rests (the
/// CPU it uses is measured in /proc); `--length` ends a layout of stills and an alert on time.
final class LayoutExtentTests: XCTestCase {
    /// A one-region layout around `body`.
    private static func layout(_ body: String) -> String {
        """
        <smil><head><layout><root-layout width="320" height="180" backgroundColor="#203040"/>
        <region regionName="a" left="0" top="0" width="320" height="180"/></layout></head>
        <body>\(body)</body></smil>
        """
    }

    /// The bodies that last no time, by what makes them so.
    static let empty = [
        "an empty body": "",
        "only dur=0s media": #"<seq repeatCount="indefinite"><img src="a.png" region="a" dur="0s"/><brush color="red" region="a" dur="0s"/></seq>"#,
        "a begin cycle": #"<par><img xml:id="x" src="a.png" region="a" begin="y.end" dur="2s"/><img xml:id="y" src="a.png" region="a" begin="x.end" dur="2s"/></par>"#,
        "an end before the begin": #"<img xml:id="x" src="a.png" region="a" end="x.begin"/>"#,
    ]

    private func extent(_ body: String) throws -> SMILExtent {
        let root = try MarkupReader.parse(Array(Self.layout(body).utf8), file: "t.smil")
        let document = try SMILReader.read(root, file: "t.smil")
        return SMILTimeline(document: document, stillDuration: 5) { _ in .still }.extent
    }

    func testTheTimelineTellsABodyThatEndsFromOneThatNeverEndsOrLastsNoTime() throws {
        for (what, body) in Self.empty {
            XCTAssertEqual(try extent(body), .empty(waitsFor: []), what)
            XCTAssertNotNil(try extent(body).nothingShows, what)
        }
        XCTAssertEqual(try extent(#"<img src="a.png" region="a" dur="3s"/>"#), .ends(3))
        XCTAssertEqual(try extent(#"<img src="a.png" region="a" dur="1s" repeatCount="indefinite"/>"#), .endless)
        XCTAssertNil(try extent(#"<img src="a.png" region="a" dur="1s" repeatCount="indefinite"/>"#).nothingShows)
        // only a key begins something: nothing shows until then, and the reason names the key
        let keyed = try extent(#"<par><img src="a.png" region="a" dur="2s" begin="accesskey(o)"/></par>"#)
        XCTAssertEqual(keyed, .empty(waitsFor: [.accessKey("o")]))
        XCTAssertTrue(keyed.nothingShows?.contains("accesskey(o)") == true, keyed.nothingShows ?? "")
    }

    /// Writes the layout with `body` and a picture beside it in `dir`.
    private func write(_ dir: TempDir, _ name: String, _ body: String) throws -> String {
        if !FileManager.default.fileExists(atPath: dir.file("a.png")) { _ = try ColourPictures.make(dir, "a.png", "green") }
        let path = dir.file(name)
        try Self.layout(body).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testRecordRefusesABodyThatLastsNoTimeAndLengthBoundsIt() throws {
        let dir = try TempDir()
        for (i, (what, body)) in Self.empty.sorted(by: { $0.key < $1.key }).enumerated() {
            let smil = try write(dir, "e\(i).smil", body)
            let out = dir.file("e\(i).y4m")
            let r = try CLITests.run(["record", smil, "--output", out, "--size", "160x90", "--fps", "10"], timeout: 30)
            XCTAssertEqual(r.status, 2, "\(what): \(r.stderr)")
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("record: \(smil) lasts 0 s: nothing in it ever shows"), r.stderr)
            XCTAssertTrue(r.stderr.contains("give --length"), r.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "\(what): no frame, no file")
        }
        let smil = try write(dir, "empty.smil", "")
        let out = dir.file("bounded.mp4")
        let r = try CLITests.run(["record", smil, "--output", out, "--size", "160x90", "--fps", "10", "--length", "1.5"], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let length = try FFmpegCLI.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", out])
        XCTAssertEqual(Double(String(decoding: length, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0,
                       1.5, accuracy: 0.15, "--length bounds it")
    }

    func testCheckConfigNamesABodyWhereNothingEverShows() throws {
        let dir = try TempDir()
        for (i, (what, body)) in Self.empty.sorted(by: { $0.key < $1.key }).enumerated() {
            let smil = try write(dir, "c\(i).smil", body)
            let r = try CLITests.run(["check-config", smil], timeout: 30)
            XCTAssertEqual(r.status, 2, "\(what): \(r.stdout) \(r.stderr)")
            XCTAssertFalse(r.stdout.contains("ok"), r.stdout)
            XCTAssertTrue(r.stderr.contains("\(smil): lasts 0 s: nothing in it ever shows"), r.stderr)
            XCTAssertTrue(r.stderr.contains("\(smil): 1 problem"), r.stderr)
        }
        let fine = try write(dir, "fine.smil", #"<img src="a.png" region="a" dur="3s"/>"#)
        XCTAssertEqual(try CLITests.run(["check-config", fine], timeout: 30).status, 0)
    }

    /// The CPU seconds (user and system) the process `pid` has used, from /proc/PID/stat; nil once it is gone.
    static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // the fields after "(comm)": state is field 3, utime 14, stime 15
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func testPlayingABodyWhereNothingShowsSaysSoOnceAndRests() throws {
        let dir = try TempDir()
        let smil = try write(dir, "empty.smil", "")
        var first: (at: Date, cpu: Double)?, last: (at: Date, cpu: Double)?
        let started = Date()
        let r = try CLITests.run(["play", smil, "--output", "headless", "--size", "160x90", "--length", "5"], timeout: 30,
                                 sample: { pid in
            guard let cpu = Self.cpuSeconds(pid) else { return }
            let now = Date()
            if first == nil, now.timeIntervalSince(started) > 1.5 { first = (now, cpu) }  // after start-up
            if first != nil { last = (now, cpu) }
        })
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("lasts 0 s") }
        XCTAssertEqual(lines.count, 1, r.stderr)
        XCTAssertTrue(lines.first?.contains("\(smil) lasts 0 s: nothing in it ever shows") == true, r.stderr)
        guard let first, let last else { return XCTFail("no CPU samples") }
        let wall = last.at.timeIntervalSince(first.at)
        XCTAssertGreaterThan(wall, 2, "sampled over seconds")
        XCTAssertLessThan((last.cpu - first.cpu) / wall, 0.2, "it rests: a core spun would be about 1")
        // --no-loop: nothing to play once, so it ends at once
        let once = try CLITests.run(["play", smil, "--output", "headless", "--size", "160x90", "--no-loop"], timeout: 30)
        XCTAssertEqual(once.status, 0, once.stderr)
        XCTAssertLessThan(once.seconds, 10, once.stderr)
    }

    func testLengthEndsALayoutOfStillsAndAnAlertOnTime() throws {
        let dir = try TempDir()
        let smil = try write(dir, "still.smil", #"<img src="a.png" region="a" dur="30s"/>"#)
        let r = try CLITests.run(["play", smil, "--output", "headless", "--size", "160x90", "--length", "3"], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertLessThan(r.seconds, 3 + 2.5, "a 30 s still in a layout rests past --length 3")
        // an alert on screen: its rest ends at --length too
        let sock = dir.file("ipc.sock")
        let p = try LiveProcess(["play", dir.file("a.png"), "--output", "headless", "--size", "160x90", "--length", "4",
                                 "--input-ipc-server", sock, "--state-dir", dir.file("state"), "--no-watch", "--log-level", "info"])
        XCTAssertTrue(p.waitFor("first frame presented", timeout: 20), p.stderr)
        let ctl = try CLITests.run(["ctl", "--socket", sock, "alert", "Storm", "--until", "10min"], timeout: 20)
        XCTAssertEqual(ctl.status, 0, ctl.stderr)
        let end = p.finish(timeout: 30)
        XCTAssertEqual(end.status, 0, p.stderr)
        XCTAssertTrue(p.stderr.contains("alert: \"Storm\""), p.stderr)
        XCTAssertLessThan(end.seconds, 4 + 2.5, "an alert rests past --length 4: \(p.stderr)")
    }
}
