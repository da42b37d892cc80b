import Foundation
import KioskCore
import XCTest
@testable import KioskRemote

/// A path with a NUL byte never reaches C (which would cut it there, and open or check another name): every
/// remote entry refuses it with one line naming the reason, with or without `--media-root`.
final class MediaGateNulTests: XCTestCase {
    /// The lines a gate logged.
    private final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [String] = []
        func add(_ line: String) { lock.lock(); all.append(line); lock.unlock() }
        var lines: [String] { lock.lock(); defer { lock.unlock() }; return all }
    }

    func testANulBytePathIsRefusedWithOneLine() throws {
        let dir = try TempDir()
        let root = dir.file("root")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/a.png"))
        for confined in [nil, root] {
            let lines = Lines()
            let gate = try MediaGate(root: confined, log: Log(level: .warn, sink: { lines.add($0) })) { [PlaylistItem(path: $0)] }
            let name = root + "/a.png\u{0}/../../../etc/passwd"
            XCTAssertThrowsError(try gate.items(name, list: false), "root \(String(describing: confined))")
            XCTAssertThrowsError(try gate.items(name, list: true))
            XCTAssertThrowsError(try gate.outputPath(root + "/shot\u{0}.png"))
            XCTAssertThrowsError(try gate.localItems(name)) { error in
                XCTAssertTrue("\(error)".hasSuffix("the path holds a NUL byte"), "\(error)")
            }
            XCTAssertEqual(lines.lines.count, 3, "\(lines.lines)")
            for line in lines.lines {
                XCTAssertTrue(line.hasSuffix("refused: the path holds a NUL byte"), line)
                XCTAssertFalse(line.utf8.contains(0), "the log line shows the NUL as \\0")
            }
            XCTAssertNoThrow(try gate.items(root + "/a.png", list: false), "a plain name still loads")
        }
    }
}
