// Video decode through the real decoder thread and the YUV shader, against ffmpeg's decode of the same file.
import Foundation
import KioskCore
@testable import KioskMedia
@testable import KioskRender
import XCTest

final class VideoDecodeTests: RenderTestCase {
    static let size = PixelSize(width: 160, height: 120)
    static let fps = 10

    /// A 2 s test-pattern clip at 10 fps encoded with `codec` (and extra arguments).
    static func clip(_ dir: TempDir, _ name: String, _ args: [String], seconds: Double = 2) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(fps):duration=\(seconds)"] + args + [path])
        return path
    }

    /// Every frame ffmpeg decodes from `path`, its chroma upsampled to 4:4:4 the way the shader does it (bilinear,
    /// MPEG-2 siting: left, vertically centred) and then converted to RGBA by swscale's accurate path. (Converting
    /// 4:2:0 straight to RGB, swscale ignores the vertical chroma position, which shows at every colour edge.)
    static func referenceFrames(_ path: String) throws -> [RGBAImage] {
        let data = [UInt8](try FFmpegCLI.run("ffmpeg", [
            "-v", "error", "-nostdin", "-i", path, "-vf",
            "scale=\(size.width):\(size.height):in_h_chr_pos=0:in_v_chr_pos=128:flags=bilinear+accurate_rnd+full_chroma_int,"
                + "format=yuv444p,scale=flags=accurate_rnd+full_chroma_int",
            "-vsync", "passthrough", "-pix_fmt", "rgba", "-f", "rawvideo", "-"]))
        let n = size.width * size.height * 4
        return stride(from: 0, to: data.count - n + 1, by: n).map { RGBAImage(size: size, pixels: Array(data[$0..<($0 + n)])) }
    }

    /// Draws `frame` 1:1 on a canvas of its size and reads it back.
    func draw(_ frame: VideoFrame) throws -> RGBAImage {
        let gl = try gl()
        let r = try XCTUnwrap(renderer)
        let texture = try VideoTexture(context: gl, frame: frame)
        let target = try OffscreenTarget(context: gl, size: texture.size)
        try r.draw(RenderFrame(background: .black, layers: [RenderLayer(texture: texture, pass: FlatPass(transform: .identity))]),
                   into: target)
        return try target.readPixels()
    }

    /// Frames at given times (accurate seeks) are the frames ffmpeg decodes at those indices, PSNR >= 35 dB.
    func checkFramesMatchFFmpeg(_ path: String, layout: VideoPixelLayout, matrix: ColorMatrix,
                                file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = try Self.referenceFrames(path)
        XCTAssertEqual(reference.count, 2 * Self.fps, file: file, line: line)
        let log = Log(level: .error, sink: { _ in })
        let decoder = try VideoDecoder(path: path, log: log)
        defer { decoder.close() }
        XCTAssertEqual(decoder.info.size, Self.size, file: file, line: line)
        for index in [0, 7, 13, 3, 19] {
            let t = (Double(index) + 0.5) / Double(Self.fps)
            decoder.seek(to: t)
            let frame = try XCTUnwrap(decoder.nextFrame(timeout: 10), "no frame at \(t) s", file: file, line: line)
            XCTAssertEqual(Int((frame.pts * Double(Self.fps)).rounded()), index, "frame shown at \(t) s", file: file, line: line)
            XCTAssertEqual(frame.layout, layout, file: file, line: line)
            XCTAssertEqual(frame.matrix, matrix, file: file, line: line)
            let shown = try draw(frame)
            let psnr = ImageCompare.psnrRGB(shown.pixels, reference[index].pixels)
            XCTAssertGreaterThanOrEqual(psnr, 35, "\(path) frame \(index): \(psnr) dB", file: file, line: line)
        }
        XCTAssertNil(decoder.failure, file: file, line: line)
    }

    func testH264FramesMatchFFmpeg() throws {
        let dir = try TempDir()
        let path = try Self.clip(dir, "h264.mp4", ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "8"])
        try checkFramesMatchFFmpeg(path, layout: .yuv420p, matrix: .bt601)
    }

    func testPlanesAreTheDecodersOwnBuffersAndOutliveTheDecoder() throws {
        let dir = try TempDir()
        let path = try Self.clip(dir, "held.mp4", ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "8"])
        let reference = try Self.referenceFrames(path)
        var held: [VideoFrame] = []
        do {
            let decoder = try VideoDecoder(path: path, log: Log(level: .error, sink: { _ in }))
            for _ in 0..<12 { held.append(try XCTUnwrap(decoder.nextFrame(timeout: 10))) }
            decoder.close()  // the codec and its frame pool go; the frames' references keep their buffers
        }
        XCTAssertEqual(held.count, 12)
        for frame in held {
            XCTAssertEqual(frame.planes.count, 3)
            XCTAssertTrue(frame.planes.allSatisfy { $0.memory != nil && $0.bytes.isEmpty }, "referenced, not copied")
        }
        // twelve frames held at once are twelve distinct buffers, each still the frame ffmpeg decodes there
        XCTAssertEqual(Set(held.compactMap { $0.planes[0].memory.map { Int(bitPattern: $0.base) } }).count, 12)
        for index in [0, 5, 11] {
            let psnr = ImageCompare.psnrRGB(try draw(held[index]).pixels, reference[index].pixels)
            XCTAssertGreaterThanOrEqual(psnr, 35, "frame \(index) after the decoder closed: \(psnr) dB")
        }
    }

    func testHEVC10BitBT709FramesMatchFFmpeg() throws {
        let dir = try TempDir()
        let path = try Self.clip(dir, "hevc10.mkv", ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=none:keyint=8",
                                                     "-pix_fmt", "yuv420p10le", "-colorspace", "bt709", "-color_primaries", "bt709",
                                                     "-color_trc", "bt709"])
        try checkFramesMatchFFmpeg(path, layout: .yuv420p10, matrix: .bt709)
    }

    func testVP9FramesMatchFFmpeg() throws {
        let dir = try TempDir()
        let path = try Self.clip(dir, "vp9.webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "8",
                                                   "-b:v", "1M"])
        try checkFramesMatchFFmpeg(path, layout: .yuv420p, matrix: .bt601)
    }

    func testAV1FramesMatchFFmpeg() throws {
        let dir = try TempDir()
        let path = try Self.clip(dir, "av1.mkv", ["-c:v", "libaom-av1", "-cpu-used", "8", "-usage", "realtime", "-g", "8",
                                                  "-b:v", "1M"])
        try checkFramesMatchFFmpeg(path, layout: .yuv420p, matrix: .bt601)
    }

    func testEveryFrameInOrderThenAFinishedStream() throws {
        let dir = try TempDir()
        let path = try Self.clip(dir, "mpeg4.avi", ["-c:v", "mpeg4", "-q:v", "3"])
        let decoder = try VideoDecoder(path: path, log: Log(level: .error, sink: { _ in }))
        var times: [Double] = []
        while let frame = decoder.nextFrame(timeout: 10) { times.append(frame.pts) }
        XCTAssertEqual(times.count, 2 * Self.fps)
        XCTAssertEqual(times, times.sorted())
        XCTAssertTrue(decoder.isFinished)
        XCTAssertNil(decoder.failure)
    }

    func testLoopedClipKeepsTheQueueBoundedAndTimesRising() throws {
        let dir = try TempDir()
        let path = try Self.clip(dir, "loop.mp4", ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"], seconds: 1)
        let limits = VideoDecoder.Limits(maxFrames: 4, maxBytes: 70_000)  // a 160x120 4:2:0 frame is ~29 kB
        let decoder = try VideoDecoder(path: path, log: Log(level: .error, sink: { _ in }), limits: limits, loop: true)
        var last = -1.0
        for _ in 0..<35 {
            let frame = try XCTUnwrap(decoder.nextFrame(timeout: 10))
            XCTAssertGreaterThan(frame.pts, last)
            last = frame.pts
            Thread.sleep(forTimeInterval: 0.002)
            let q = decoder.queued
            XCTAssertLessThanOrEqual(q.frames, 4)
            XCTAssertLessThanOrEqual(q.bytes, 70_000 + frame.byteCount)
        }
        XCTAssertGreaterThan(last, 3.0)
        XCTAssertFalse(decoder.isFinished)
    }

    func testFramesDueAtAClockDropLateOnesAndNeverRepeat() throws {
        let dir = try TempDir()
        let path = try Self.clip(dir, "due.mp4", ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
        let decoder = try VideoDecoder(path: path, log: Log(level: .error, sink: { _ in }), limits: .init(maxFrames: 30))
        _ = decoder.peekFrame(timeout: 10)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertNil(decoder.frame(at: -0.01))
        let a = try XCTUnwrap(decoder.frame(at: 0.55))
        XCTAssertEqual(a.pts, 0.5, accuracy: 1e-6)
        XCTAssertNil(decoder.frame(at: 0.55), "a frame is never repeated")
        XCTAssertEqual(decoder.droppedFrames, 5)
    }

    func testYuvj444AndRotationAndAspectAreCarried() throws {
        let dir = try TempDir()
        let plain = dir.file("plain.mp4"), path = dir.file("rot.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10:duration=1",
                              "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuvj444p", "-vf", "setsar=2/1", plain])
        try FFmpegCLI.ffmpeg(["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90", path])
        let decoder = try VideoDecoder(path: path, log: Log(level: .error, sink: { _ in }))
        let frame = try XCTUnwrap(decoder.nextFrame(timeout: 10))
        XCTAssertEqual(frame.layout, .yuv444p)
        XCTAssertEqual(frame.range, .full)
        XCTAssertEqual(frame.sampleAspect, 2, accuracy: 1e-9)
        XCTAssertTrue(frame.orientation.swapsAxes, "display matrix rotation: \(frame.orientation)")
        XCTAssertEqual(frame.displaySize, PixelSize(width: 120, height: 320))
    }

    func testAFormatWithNoShaderPathIsConvertedWithOneLogLine() throws {
        let dir = try TempDir()
        let path = try Self.clip(dir, "rgb.mkv", ["-c:v", "ffv1", "-pix_fmt", "bgr0"], seconds: 1)
        let lines = LineBox()
        let decoder = try VideoDecoder(path: path, log: Log(level: .info, sink: { lines.append($0) }))
        var n = 0
        while let frame = decoder.nextFrame(timeout: 10) {
            XCTAssertEqual(frame.layout, .rgba)
            n += 1
        }
        XCTAssertEqual(n, Self.fps)
        XCTAssertEqual(lines.all.filter { $0.contains("swscale") }.count, 1, "\(lines.all)")
        let reference = try FFmpegCLI.referenceFrames(path, size: Self.size)
        decoder.seek(to: 0)
        let shown = try draw(try XCTUnwrap(decoder.nextFrame(timeout: 10)))
        XCTAssertGreaterThanOrEqual(ImageCompare.psnrRGB(shown.pixels, reference[0].pixels), 35)
    }

    func testTruncatedAndCorruptClipsEndWithAnErrorNamingTheFile() throws {
        let dir = try TempDir()
        let path = try Self.clip(dir, "whole.mkv", ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let cut = dir.file("cut.mkv")
        try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: cut))
        var corrupt = bytes
        var seed: UInt32 = 7
        for i in stride(from: 4096, to: corrupt.count, by: 97) {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            corrupt[i] = UInt8(truncatingIfNeeded: seed >> 24)
        }
        let bad = dir.file("corrupt.mkv")
        try Data(corrupt).write(to: URL(fileURLWithPath: bad))
        for file in [cut, bad] {
            let start = Date()
            do {
                let decoder = try VideoDecoder(path: file, log: Log(level: .error, sink: { _ in }))
                while decoder.nextFrame(timeout: 10) != nil {}
                XCTAssertTrue(decoder.isFinished, file)
                if file == cut {
                    let failure = try XCTUnwrap(decoder.failure, "truncated clip must report an error")
                    XCTAssertTrue(failure.description.hasPrefix(file), failure.description)
                    XCTAssertFalse(failure.description.contains("\n"))
                }
            } catch let error as MediaError {
                XCTAssertTrue(error.description.hasPrefix(file), error.description)
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 20, "no hang on \(file)")
        }
    }
}

/// Collects log lines from any thread.
final class LineBox: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    /// Adds a line.
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    /// Every line so far.
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
