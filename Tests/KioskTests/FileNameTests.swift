import Foundation
import KioskCore
import XCTest

/// Names that are not UTF-8 keep their bytes (`FileName`) and play, from a folder and from the command line.
/// Before: "no such file" (the bytes became U+FFFD).
final class FileNameTests: XCTestCase {
    /// Random byte strings (seeded) round-trip exactly; valid UTF-8 is left as it is.
    func testNamesRoundTripTheirBytes() {
        var rng = SeededBytes(seed: 0x5EED)
        for length in 0..<200 {
            let bytes = (0..<(length % 40)).map { _ in rng.next() }
            let name = FileName.decode(bytes)
            XCTAssertEqual(FileName.bytes(of: name), bytes, "bytes \(bytes)")
        }
        XCTAssertEqual(FileName.decode(Array("été/ü.png".utf8)), "été/ü.png")
        let odd: [UInt8] = [0x78, 0xFF, 0xFE, 0xC3, 0x28, 0xE2, 0x82, 0xED, 0xA0, 0x80, 0xC0, 0xAF, 0xF4, 0x90, 0x80, 0x80]
        XCTAssertEqual(FileName.bytes(of: FileName.decode(odd)), odd, "truncated, surrogate, overlong and too-big sequences")
        XCTAssertEqual(Log.escaped(FileName.decode([0x61, 0xFF, 0xFE, 0x2E, 0x70])), "a\\xff\\xfe.p")
    }

    /// A picture, a GIF and a video named with bytes 0xff 0xfe play through their folder, and the picture through its
    /// path on the command line; the log names them with \xff\xfe.
    func testNamesThatAreNotUTF8Play() throws {
        let dir = try TempDir()
        let folder = dir.file("show")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (source, ext) in [("a.png", "png"), ("b.gif", "gif"), ("c.mp4", "mp4")] {
            try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-frames:v", ext == "mp4" ? "10" : "1",
                                  "-pix_fmt", ext == "gif" ? "rgb8" : "yuv420p", dir.file(source)])
            let raw = Array((folder + "/" + ext + "-").utf8) + [0xFF, 0xFE] + Array(".\(ext)".utf8)
            let rc = (raw.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { rename(dir.file(source), $0.baseAddress) }
            XCTAssertEqual(rc, 0, "rename: \(String(cString: strerror(errno)))")
        }
        let headless = ["--output", "headless", "--size", "320x240", "--log-level", "info", "--duration", "0.3", "--no-loop"]
        let viaFolder = try CLITests.run(["play", folder, "--transition", "none"] + headless, timeout: 60)
        XCTAssertEqual(viaFolder.status, 0, viaFolder.stderr)
        XCTAssertTrue(viaFolder.stderr.contains("showing \(folder)/png-\\xff\\xfe.png"), viaFolder.stderr)
        XCTAssertTrue(viaFolder.stderr.contains("showing \(folder)/gif-\\xff\\xfe.gif"), viaFolder.stderr)
        XCTAssertTrue(viaFolder.stderr.contains("showing \(folder)/mp4-\\xff\\xfe.mp4"), viaFolder.stderr)
        XCTAssertFalse(viaFolder.stderr.contains("skipped"), viaFolder.stderr)
        // The path as raw bytes on the command line: Process takes Strings, so a shell makes the argument.
        let p = try LiveProcess(["-c", "exec \"$0\" play \"$(printf '%s/png-\\377\\376.png' \"$1\")\" \"$@\"",
                                 CLITests.kiosk, folder] + headless, executable: "/bin/sh")
        let end = p.finish(timeout: 60)
        XCTAssertEqual(end.status, 0, p.stderr)
        XCTAssertTrue(p.stderr.contains("showing \(folder)/png-\\xff\\xfe.png"), p.stderr)
    }
}

/// A small seeded byte generator (xorshift), so failures repeat.
private struct SeededBytes {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt8 {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return UInt8(truncatingIfNeeded: state >> 24)
    }
}
