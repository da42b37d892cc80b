import Foundation
import KioskCore
import XCTest

/// Config files saved by a Windows editor end their lines in CRLF. In Swift "\r\n" is one Character, so splitting
/// on "\n" left such a file as one line ("--duration: '3\r\nloop = false\r\n' is not a number").
final class ConfigLineEndTests: XCTestCase {
    func testCRLFLinesAreLinesEachLocated() throws {
        let read = try ConfigFile.located(from: "duration = 3\r\nloop = false\r\n# a comment\r\nshuffle = true\r\n",
                                          file: "kiosk.conf")
        XCTAssertEqual(read.map(\.argument), ["--duration", "3", "--shuffle"])
        XCTAssertEqual(read.map(\.origin), ["kiosk.conf:1", "kiosk.conf:1", "kiosk.conf:4"])
    }

    func testAStrayCarriageReturnIsTrimmedLikeASpace() throws {
        XCTAssertEqual(try ConfigFile.arguments(from: "duration = 3\r \t\npath = /srv/a.jpg \r  # a note\n",
                                                file: "kiosk.conf"), ["--duration", "3", "/srv/a.jpg"])
    }

    func testCheckConfigReadsACRLFFile() throws {
        let dir = try TempDir()
        let conf = dir.file("kiosk.conf")
        try Data("duration = 3\r\nloop = false\r\nbogus-option = 1\r\n".utf8).write(to: URL(fileURLWithPath: conf))
        let r = try CLITests.run(["check-config", conf], timeout: 30)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(conf):3:"), "the bad option is found on its own line 3: \(r.stderr)")
        XCTAssertFalse(r.stderr.contains("not a number"), r.stderr)
    }
}
