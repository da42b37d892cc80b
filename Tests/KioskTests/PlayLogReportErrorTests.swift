import Foundation
import KioskCore
import XCTest

/// `kiosk report --play-log` on what is no play log: a FIFO (it waited for a writer for good), a folder (it said
/// "disk I/O error"), a text file, and a SQLite database of something else (its error quoted the report's SQL):
/// each is one line naming the file and the reason, at once, with exit status 1.
final class PlayLogReportErrorTests: XCTestCase {
    func testWhatIsNoPlayLogIsOneLineNamingTheFileAndTheReason() throws {
        let dir = try TempDir()
        let fifo = dir.file("fifo.sqlite")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let folder = dir.file("folder.sqlite")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let text = dir.file("notes.sqlite")
        try "not a database, only words, long enough to fill a header: ............................................................"
            .write(toFile: text, atomically: true, encoding: .utf8)
        let other = dir.file("other.sqlite")
        _ = try PlayLogTests.sqlite3(other, "CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('bread');")
        let cases = [
            (fifo, "is a FIFO, not a play log (a regular file is needed)"),
            (folder, "is a folder, not a play log"),
            (text, "file is not a database"),
            (other, "is a SQLite database but not a play log (it has no showings)"),
        ]
        for (path, reason) in cases {
            for by in ["item", "day"] {
                let r = try CLITests.run(["report", "--play-log", path, "--by", by], timeout: 10)
                XCTAssertEqual(r.status, 1, "\(path): \(r.stderr)")
                XCTAssertEqual(r.stderr, "kiosk: error: report: \(path): \(reason)\n")
                XCTAssertLessThan(r.seconds, 5, "\(path) answered at once")
                XCTAssertEqual(r.stdout, "")
            }
        }
    }
}
