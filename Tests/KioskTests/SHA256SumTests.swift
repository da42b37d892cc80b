import Foundation
import KioskCore
import KioskTrust
import XCTest

/// KioskTrust's SHA-256 (libsodium) against coreutils' `sha256sum` on the same files: empty, tiny, a chunk exactly,
/// and several MiB of seeded random bytes; the incremental `SHA256Stream` fed in odd-sized chunks gives the same.
final class SHA256SumTests: XCTestCase {
    /// What `sha256sum` prints for `path` (the 64 hex digits before the file name), bounded in time.
    private func sha256sum(_ path: String) throws -> String {
        let result = try BoundedProcess.run("/usr/bin/sha256sum", [path], timeout: 30)
        XCTAssertEqual(result.status, 0, String(decoding: result.stderr, as: UTF8.self))
        return String(String(decoding: result.stdout, as: UTF8.self).prefix(64))
    }

    /// The files compared: name and contents.
    private func samples() -> [(name: String, bytes: [UInt8])] {
        [("empty", []), ("abc", Array("abc".utf8)), ("one byte", [0xFF]),
         ("one read chunk", MinisignTests.seededBytes(count: 64 * 1024, seed: 3)),
         ("one chunk and a byte", MinisignTests.seededBytes(count: 64 * 1024 + 1, seed: 4)),
         ("several MiB", MinisignTests.seededBytes(count: 5 * 1024 * 1024 + 17, seed: 5))]
    }

    func testFileAndBytesDigestsMatchSha256sum() throws {
        let dir = try TempDir()
        XCTAssertEqual(SHA256Sum.hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256Sum.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        for (index, sample) in samples().enumerated() {
            let path = dir.file("sample\(index)")
            try Data(sample.bytes).write(to: URL(fileURLWithPath: path))
            let expected = try sha256sum(path)
            XCTAssertEqual(expected.count, 64, sample.name)
            XCTAssertEqual(try SHA256Sum.hex(ofFile: path), expected, sample.name)
            XCTAssertEqual(SHA256Sum.hex(sample.bytes), expected, sample.name)
        }
    }

    func testStreamFedInOddChunksMatchesSha256sum() throws {
        let dir = try TempDir()
        var generator = SeededGenerator(seed: 11)
        for (index, sample) in samples().enumerated() {
            let path = dir.file("sample\(index)")
            try Data(sample.bytes).write(to: URL(fileURLWithPath: path))
            let stream = SHA256Stream()
            sample.bytes.withUnsafeBytes { all in
                var offset = 0
                while offset < all.count {
                    let size = min(Int.random(in: 0...9_973, using: &generator), all.count - offset)  // empty chunks too
                    stream.update(UnsafeRawBufferPointer(rebasing: all[offset..<offset + size]))
                    offset += size
                }
            }
            let hex = stream.finishHex()
            XCTAssertEqual(hex, try sha256sum(path), sample.name)
            XCTAssertEqual(stream.finishHex(), hex, "finishing twice gives the same digest")
            stream.update(UnsafeRawBufferPointer(start: nil, count: 0))
            stream.update([1, 2, 3])
            XCTAssertEqual(stream.finishHex(), hex, "bytes after the end change nothing")
        }
    }

    func testUnreadablePathsAreOneLineErrors() throws {
        let dir = try TempDir()
        XCTAssertThrowsError(try SHA256Sum.hex(ofFile: dir.file("none"))) {
            XCTAssertEqual("\($0)", dir.file("none") + ": cannot open: No such file or directory")
        }
        XCTAssertThrowsError(try SHA256Sum.hex(ofFile: dir.path)) {
            XCTAssertEqual("\($0)", dir.path + ": not a regular file")
        }
        let fifo = dir.file("fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try SHA256Sum.hex(ofFile: fifo), "a FIFO is refused, not waited on") {
            XCTAssertEqual("\($0)", fifo + ": not a regular file")
        }
    }
}
