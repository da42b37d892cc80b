import Foundation
import KioskCore
import XCTest

/// The play log's head signed on demand through the remotes (issue 41, docs/proof-of-play.md): IPC's
/// `sign-play-log` (so `kiosk ctl sign-play-log`) and MQTT's `kiosk/ID/cmd/sign-play-log` ask the writer of a
/// running kiosk to sign the chain's head now; `sqlite3` sees the new row in `signatures`, naming the last chained
/// row, and `kiosk report --verify` passes. Without a play log each remote refuses in one line.
final class PlayLogSignRemoteTests: MQTTFleetTestCase {
    /// kiosk plays three stills of 0.4 s, writing each change at once (`--play-log-batch 0`), until `ended` showings
    /// have ended.
    private func play(_ extra: [String], log db: String?, ended: Int = 4) throws -> LiveProcess {
        let p = try LiveProcess(["play", "--output", "headless", "--size", "160x90", "--duration", "0.4", "--transition", "none",
                                 "--no-state", "--no-watch", "--log-level", "debug"]
                                + (db.map { ["--play-log", $0, "--play-log-batch", "0"] } ?? []) + extra + (try pictures()))
        kiosks.append(p)
        XCTAssertTrue(p.waitFor("first frame presented", timeout: 30), p.stderr)
        if db != nil { XCTAssertTrue(p.waitFor("ended ", count: ended, timeout: 30), p.stderr) }
        return p
    }

    /// The signatures' count and the last one's row, and the last chained row, as sqlite3 reads them now.
    private func signed(_ db: String) throws -> (count: Int, lastRow: Int?, head: Int?) {
        let line = try PlayLogTests.sqlite3(db, "SELECT (SELECT count(*) FROM signatures), "
                                            + "(SELECT row_id FROM signatures ORDER BY id DESC LIMIT 1), "
                                            + "(SELECT max(id) FROM showings WHERE chain IS NOT NULL)").first ?? ""
        let f = line.split(separator: "|", omittingEmptySubsequences: false).map { Int($0) }
        return (f.first.flatMap { $0 } ?? -1, f.count > 1 ? f[1] : nil, f.count > 2 ? f[2] : nil)
    }

    /// Polls until the log holds more than `count` signatures (10 s at most); the last reading.
    private func waitForSignature(_ db: String, after count: Int) throws -> (count: Int, lastRow: Int?, head: Int?) {
        let end = Date(timeIntervalSinceNow: 10)
        var now = try signed(db)
        while now.count <= count, Date() < end {
            Thread.sleep(forTimeInterval: 0.1)
            now = try signed(db)
        }
        return now
    }

    func testIPCSignsTheHeadNowAndTheLogVerifies() throws {
        let sock = dir.file("ipc.sock"), db = dir.file("plays.sqlite")
        let p = try play(["--input-ipc-server", sock], log: db)
        // paused: no showing ends meanwhile, so the head stays where it is while it is signed
        XCTAssertEqual(try CLITests.run(["ctl", "--socket", sock, "pause"], timeout: 20).status, 0)
        Thread.sleep(forTimeInterval: 0.5)
        let before = try signed(db)
        let head = try XCTUnwrap(before.head, "rows are chained as they end")
        XCTAssertNotEqual(before.lastRow, head, "the head is not signed yet: \(before)")
        let c = try IPCConnection(path: sock)
        let reply = try c.request(#"["sign-play-log"]"#)
        XCTAssertEqual(reply["error"], .string("success"), "\(reply)")
        XCTAssertEqual(reply["data"], .string(PlayReports.signingLine), "\(reply)")
        let after = try waitForSignature(db, after: before.count)
        XCTAssertEqual(after.count, before.count + 1, "one new signature: \(after), p.stderr: \(p.stderr)")
        XCTAssertEqual(after.lastRow, head, "it signs the chain's head")
        // asked again with nothing new: success, and no second signature of the same head
        let again = try CLITests.run(["ctl", "--socket", sock, "sign-play-log"], timeout: 20)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout, PlayReports.signingLine + "\n")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertEqual(try signed(db).count, after.count)
        stop(p)
        let (status, said) = try PlayLogChainTests.verify(db)
        XCTAssertEqual(status, 0, said)
        XCTAssertTrue(said.contains("verified"), said)
    }

    func testMQTTSignsTheHeadNow() throws {
        let db = dir.file("plays.sqlite")
        let p = try play(["--mqtt", broker.address, "--mqtt-id", "hall"], log: db)
        XCTAssertTrue(p.waitFor("mqtt: connected to", timeout: 30), p.stderr)
        try clients.publish("kiosk/hall/cmd/pause", "")
        XCTAssertNotNil(try state("hall") { $0["paused"] == .bool(true) }, p.stderr)
        Thread.sleep(forTimeInterval: 0.5)
        let before = try signed(db)
        try clients.publish("kiosk/hall/cmd/sign-play-log", "")
        XCTAssertTrue(p.waitFor("mqtt: kiosk/hall/cmd/sign-play-log: \(PlayReports.signingLine)", timeout: 10), p.stderr)
        let after = try waitForSignature(db, after: before.count)
        XCTAssertEqual(after.count, before.count + 1, "\(before) then \(after)")
        XCTAssertEqual(after.lastRow, before.head)
        stop(p)
        XCTAssertEqual(try PlayLogChainTests.verify(db).0, 0)
    }

    func testWithoutAPlayLogEachRemoteRefusesInOneLine() throws {
        let sock = dir.file("ipc.sock")
        let p = try play(["--input-ipc-server", sock, "--mqtt", broker.address, "--mqtt-id", "hall"], log: nil)
        let c = try IPCConnection(path: sock)
        XCTAssertEqual(try c.request(#"["sign-play-log"]"#)["error"], .string("error running command"))
        XCTAssertTrue(p.waitFor("ipc: sign-play-log: refused: \(PlayReports.noPlayLog)", timeout: 10), p.stderr)
        let r = try CLITests.run(["ctl", "--socket", sock, "sign-play-log"], timeout: 20)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("error running command (is the player writing a play log?"), r.stderr)
        XCTAssertTrue(p.waitFor("mqtt: connected to", timeout: 30), p.stderr)
        try clients.publish("kiosk/hall/cmd/sign-play-log", "")
        XCTAssertTrue(p.waitFor("mqtt: kiosk/hall/cmd/sign-play-log: refused: \(PlayReports.noPlayLog)", timeout: 10), p.stderr)
        stop(p)
    }
}
