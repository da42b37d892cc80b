import Foundation
import KioskCore
import XCTest

/// The frame threads a clip's decoder gets, seen in a real kiosk process: the count is libavcodec's own
/// (`AVCodecContext.thread_count` after opening, which kiosk logs with the pool when the clip's decoder stops).
/// One thread up to 1080p at 30 fps (a frame thread more holds 10-13 MiB at 1080p: see *Limits and safety*), one
/// per core above, and `--decode-threads N` wins.
final class DecodeThreadsTests: XCTestCase {
    /// A 1 s H.264 clip of `size` at `rate` frames a second, with B-frames as encoders make them.
    private func clip(_ dir: TempDir, _ name: String, size: String, rate: Int) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate):duration=1", "-c:v", "libx264",
                              "-preset", "veryfast", "-bf", "3", "-pix_fmt", "yuv420p", path])
        return path
    }

    /// The frame threads kiosk's decoder of `path` had, from its pool line; fails the test when there is none.
    private func frameThreads(_ path: String, _ extra: [String] = [], file: StaticString = #filePath,
                              line: UInt = #line) throws -> Int? {
        let r = try CLITests.run(["play", path, "--output", "headless", "--untimed", "--no-loop", "--size", "320x180",
                                  "--log-level", "info"] + extra, timeout: 120, file: file, line: line)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        guard let pool = r.stderr.split(separator: "\n").first(where: { $0.contains("its pool handed out") }),
              let range = pool.range(of: #"(\d+) frame threads"#, options: .regularExpression) else {
            XCTFail("no pool line for \(path): \(r.stderr.suffix(600))", file: file, line: line)
            return nil
        }
        return Int(pool[range].split(separator: " ")[0])
    }

    func testA1080p30ClipDecodesOnOneThread() throws {
        let dir = try TempDir()
        let hd30 = try clip(dir, "hd30.mp4", size: "1920x1080", rate: 30)
        XCTAssertEqual(try frameThreads(hd30), 1)
        XCTAssertEqual(try frameThreads(hd30, ["--decode-threads", "2"]), 2, "--decode-threads 2 is what the decoder gets")
    }

    func testFasterOrLargerClipsDecodeOnACoreEach() throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let dir = try TempDir()
        let hd60 = try clip(dir, "hd60.mp4", size: "1920x1080", rate: 60)
        XCTAssertEqual(try frameThreads(hd60), cores)
        XCTAssertEqual(try frameThreads(hd60, ["--decode-threads", "1"]), 1)
        let small60 = try clip(dir, "small60.mp4", size: "960x540", rate: 60)  // a quarter of 1080p: under the rate
        XCTAssertEqual(try frameThreads(small60), 1)
    }

    func testBadThreadCountIsRefusedNamingTheFlag() throws {
        for bad in ["17", "-1", "two", "1e30"] {
            let r = try CLITests.run(["play", "/nonexistent.mp4", "--decode-threads", bad, "--output", "headless"], timeout: 30)
            XCTAssertEqual(r.status, 2, "\(bad): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(bad): one line, got \(r.stderr)")
            XCTAssertTrue(lines.first?.contains("--decode-threads") ?? false, "\(bad): \(r.stderr)")
        }
    }
}
