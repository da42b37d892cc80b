import Foundation
import KioskCore
import XCTest

/// The frame threads a clip's decoder gets, counted in a real kiosk process: the threads it runs, read from
/// /proc/PID/task while the clip plays, against the same run on a still picture (no decoder). libavcodec starts
/// no thread for one frame thread (the clip decodes on kiosk's own decode thread) and N for N, so a clip adds
/// 1 thread, or 1 + N. The number kiosk logs with its pool must be the one counted. One thread up to 1080p at
/// 30 fps (a frame thread more holds 10-13 MiB at 1080p: see *Limits and safety*), one per core above, and
/// `--decode-threads N` wins.
final class DecodeThreadsTests: XCTestCase {
    /// A 3 s H.264 clip of `size` at `rate` frames a second, with B-frames as encoders make them.
    private func clip(_ dir: TempDir, _ name: String, size: String, rate: Int) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate):duration=3", "-c:v", "libx264",
                              "-preset", "veryfast", "-bf", "3", "-pix_fmt", "yuv420p", path])
        return path
    }

    /// The threads of `pid` that carry the process's own name (libavcodec's workers inherit it; llvmpipe's and
    /// kiosk's named threads do not), or nil when the process is gone.
    private static func unnamedThreads(_ pid: Int32) -> Int? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        return tasks.filter { task in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == "kiosk"
        }.count
    }

    /// A real-time play of `path` (no loop) with `extra`: the thread count it ran with most of the time (read about
    /// every 50 ms; the start and the end are brief), and the stderr.
    private func threadsWhilePlaying(_ path: String, _ extra: [String], file: StaticString = #filePath,
                                     line: UInt = #line) throws -> (threads: Int, stderr: String) {
        var counts: [Int: Int] = [:]
        let r = try CLITests.run(["play", path, "--output", "headless", "--no-loop", "--no-state", "--no-watch", "--size", "320x180",
                                  "--length", "10", "--log-level", "info"] + extra, timeout: 120,
                                 sample: { pid in if let n = Self.unnamedThreads(pid) { counts[n, default: 0] += 1 } },
                                 file: file, line: line)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        let mode = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }
        XCTAssertGreaterThan(mode?.value ?? 0, 20, "too few samples of the threads: \(counts)", file: file, line: line)
        return (mode?.key ?? -1, r.stderr)
    }

    /// The frame threads kiosk's decoder of `path` had, counted: the threads the play ran with beyond a still
    /// picture's, less kiosk's own decode thread (0 beyond it is one frame thread, decoding on it). The number kiosk
    /// logs with its pool must agree.
    private func frameThreads(_ path: String, _ extra: [String] = [], file: StaticString = #filePath,
                              line: UInt = #line) throws -> Int {
        let dir = try TempDir()
        let still = dir.file("still.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:size=320x180", "-frames:v", "1", still])
        let base = try threadsWhilePlaying(still, extra, file: file, line: line).threads
        let (threads, stderr) = try threadsWhilePlaying(path, extra, file: file, line: line)
        let counted = threads - base - 1
        XCTAssertTrue(counted == 0 || counted >= 2, "libavcodec starts no thread or two and more: \(threads) against \(base)",
                      file: file, line: line)
        let measured = max(1, counted)
        let pool = stderr.split(separator: "\n").first { $0.contains("its pool handed out") }
        let logged = pool.flatMap { line in
            line.range(of: #"(\d+) frame threads"#, options: .regularExpression).flatMap { Int(line[$0].split(separator: " ")[0]) }
        }
        XCTAssertEqual(logged, measured, "the pool line says what was counted: \(pool ?? "none")", file: file, line: line)
        return measured
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
