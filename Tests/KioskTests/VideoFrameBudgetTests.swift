// The decode queue's bound counts the frame its user still holds: a 1080p RGBA frame is 8 MB, and the clip's
// storage is two of them however the renderer and the decoder interleave. Also the decoder's frame-pool line,
// counted from the buffers libavcodec really handed out, on clips ffmpeg encodes with and without B-frames.
import Foundation
import KioskCore
@testable import KioskMedia
import XCTest

final class VideoFrameBudgetTests: XCTestCase {
    /// A 1920x1080 clip of `frames` frames panning across a Debian wallpaper (natural detail), x264 with
    /// `bframes` B-frames.
    private func clip(_ dir: TempDir, bframes: Int, frames: Int = 24) throws -> String {
        let path = dir.file("pan-b\(bframes).mp4")
        let photo = "/usr/share/backgrounds/Bridge_by_Sander_Klootwijk.jpg"
        try FFmpegCLI.ffmpeg(["-loop", "1", "-framerate", "25", "-i", photo, "-vf",
                              "scale=2400:-2,crop=1920:1080:x='t*200':y=(ih-1080)/2,format=yuv420p",
                              "-frames:v", "\(frames)", "-c:v", "libx264", "-preset", "veryfast", "-bf", "\(bframes)",
                              "-refs", "3", path])
        return path
    }

    func testAFrameHeldByItsUserCountsAsQueuedSoTwoArraysServeA1080pClip() throws {
        let dir = try TempDir()
        let path = try clip(dir, bframes: 3)
        let decoder = try VideoDecoder(path: path, log: Log(level: .error),
                                       form: { _ in .rgba(limit: PixelSize(width: 1920, height: 1080)) })
        defer { decoder.close() }
        for index in 0..<6 {
            var frame = try XCTUnwrap(decoder.nextFrame(timeout: 10), "frame \(index)")
            XCTAssertEqual(frame.planes.first?.byteCount, 1920 * 1080 * 4)
            // while the frame is held (the renderer uploading it), the decoder may fill the queue only up to the
            // bound less the held frame: one 8 MB frame, not two (the old rule made a third array here)
            XCTAssertFalse(eventually(0.5) { decoder.queued.frames >= 2 }, "frame \(index): the held frame counts")
            XCTAssertTrue(eventually(10) { decoder.queued.frames == 1 || decoder.isFinished }, "frame \(index)")
            decoder.recycle(&frame)
        }
        let buffers = decoder.rgbaBuffers
        XCTAssertLessThanOrEqual(buffers.made, 2, "two 1080p arrays take turns: \(buffers)")
        XCTAssertGreaterThanOrEqual(buffers.reused, 4, "\(buffers)")
    }

    func testAUserThatNeverGivesFramesBackStillGetsEveryFrameInOrder() throws {
        let dir = try TempDir()
        let path = try clip(dir, bframes: 3)
        let decoder = try VideoDecoder(path: path, log: Log(level: .error),
                                       form: { _ in .rgba(limit: PixelSize(width: 1920, height: 1080)) })
        defer { decoder.close() }
        var times: [Double] = []
        while let frame = decoder.nextFrame(timeout: 10) { times.append(frame.pts) }
        XCTAssertEqual(times.count, 24, "no frame withheld from a user that keeps its frames")
        XCTAssertEqual(times, times.sorted())
        XCTAssertNil(decoder.failure)
    }

    func testThePoolLineCountsTheBuffersTheDecoderHandedOut() throws {
        let dir = try TempDir()
        var lines: [String: String] = [:]
        for bframes in [0, 3] {
            let path = try clip(dir, bframes: bframes)
            let collected = LockedLines()
            let decoder = try VideoDecoder(path: path, log: Log(level: .info, sink: { collected.append($0) }),
                                           form: { _ in .planes })
            var held: [VideoFrame] = []
            while let frame = decoder.nextFrame(timeout: 10) { held = [frame] }  // one at a time, as the renderer
            XCTAssertFalse(held.isEmpty)
            decoder.close()
            lines[bframes == 0 ? "p" : "b"] = try XCTUnwrap(collected.all.first { $0.contains("frame buffers") })
        }
        /// The number just before `words` in `line`.
        func number(_ line: String, before words: String) -> Int? {
            guard let r = line.range(of: " " + words) else { return nil }
            return Int(line[..<r.lowerBound].split(separator: " ").last ?? "")
        }
        let p = try XCTUnwrap(lines["p"]), b = try XCTUnwrap(lines["b"])
        XCTAssertTrue(p.contains("libavcodec h264"), p)
        XCTAssertEqual(number(p, before: "frames of reorder delay"), 0, "no reorder delay without B-frames: \(p)")
        XCTAssertGreaterThanOrEqual(number(b, before: "frames of reorder delay") ?? 0, 1, "B-frames delay output: \(b)")
        let pBuffers = try XCTUnwrap(number(p, before: "frame buffers"), p), bBuffers = try XCTUnwrap(number(b, before: "frame buffers"), b)
        XCTAssertGreaterThan(bBuffers, pBuffers, "B-frames and their references hold more of the pool: \(p) / \(b)")
        XCTAssertTrue(b.contains("of 3.0 MiB"), "a 1080p 4:2:0 frame's buffers: \(b)")
    }
}
