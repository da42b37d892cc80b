// Clip frames converted to RGBA on the decode thread (`--video-convert cpu`, the default on llvmpipe), against
// ffmpeg's own decode through the accurate swscale conversion the shader tests also take as their reference.
import Foundation
import KioskCore
@testable import KioskMedia
@testable import KioskPlayer
@testable import KioskRender
import XCTest

final class VideoConversionTests: RenderTestCase {
    /// A clip made by ffmpeg: testsrc2 (sharp colour edges, where chroma filtering shows) in `pixFmt`, tagged with
    /// `matrix` and `range`, 25 fps, a keyframe every 50 frames.
    private func clip(_ dir: TempDir, _ name: String, size: String, pixFmt: String, matrix: String, range: String,
                      seconds: Double = 1) throws -> String {
        let path = dir.file(name)
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25:duration=\(seconds)",
                              "-vf", "scale=out_color_matrix=\(matrix):out_range=\(range)",
                              "-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-pix_fmt", pixFmt,
                              "-colorspace", matrix, "-color_range", range, path])
        return path
    }

    /// Frame `index` of `path` as ffmpeg decodes and converts it (accurate rounding, chroma interpolated with the
    /// stream's siting, `flags` the scaler) to RGBA of `size`.
    private func reference(_ path: String, index: Int, size: PixelSize, matrix: String, range: String,
                           flags: String = "bilinear", siting: Int = 0) throws -> [UInt8] {
        let scale = "scale=\(size.width):\(size.height):in_color_matrix=\(matrix):in_range=\(range == "pc" ? "pc" : "tv")"
            + ":in_h_chr_pos=\(siting):in_v_chr_pos=128:out_range=pc:flags=\(flags)+accurate_rnd+full_chroma_int"
        return [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-vf",
                                                    "select=eq(n\\,\(index)),\(scale),format=rgba",
                                                    "-frames:v", "1", "-f", "rawvideo", "-"]))
    }

    /// An RGBA frame's pixels turned upright: an upright clip's frames are stored bottom-up for the renderer's
    /// plain copy (`VideoStreamReader.rgbaRows`), marked `.downMirrored`.
    private func upright(_ frame: VideoFrame) -> [UInt8] {
        frame.orientation.apply(to: RGBAImage(size: frame.size, pixels: frame.planes[0].bytes)).pixels
    }

    private func largestDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard a.count == b.count else { return 255 }
        var worst = 0
        for i in 0..<a.count where i % 4 != 3 { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
        return worst
    }

    func testDecodedRGBAFramesMatchFFmpegsAccurateConversionForEachLayoutMatrixAndRange() throws {
        let dir = try TempDir()
        for (pixFmt, matrix, range) in [("yuv420p", "bt709", "tv"), ("yuv420p", "bt470bg", "tv"), ("yuv422p", "bt709", "pc"),
                                        ("yuv444p", "bt470bg", "pc")] {
            let path = try clip(dir, "\(pixFmt)-\(matrix)-\(range).mp4", size: "320x240", pixFmt: pixFmt, matrix: matrix,
                                range: range)
            let decoder = try VideoDecoder(path: path, log: Log(level: .error), form: { _ in .rgba(limit: nil) })
            defer { decoder.close() }
            for index in 0..<3 {
                let frame = try XCTUnwrap(decoder.nextFrame(timeout: 10), "\(pixFmt) frame \(index)")
                XCTAssertEqual(frame.layout, .rgba)
                XCTAssertEqual(frame.size, PixelSize(width: 320, height: 240))
                XCTAssertEqual(frame.orientation, .downMirrored, "stored bottom-up, GL's row order")
                let expected = try reference(path, index: index, size: frame.size, matrix: matrix, range: range)
                let worst = largestDifference(upright(frame), expected)
                XCTAssertLessThanOrEqual(worst, 1, "\(pixFmt) \(matrix) \(range) frame \(index): largest difference \(worst)/255")
            }
        }
    }

    func testAFrameLargerThanItsPlaceIsShrunkByTheAreaFilterToTheDrawnSize() throws {
        let dir = try TempDir()
        let path = try clip(dir, "big.mp4", size: "960x540", pixFmt: "yuv420p", matrix: "bt709", range: "tv")
        // 3x smaller: the area filter of the minification reference
        let decoder = try VideoDecoder(path: path, log: Log(level: .error),
                                       form: { _ in .rgba(limit: PixelSize(width: 320, height: 180)) })
        defer { decoder.close() }
        let frame = try XCTUnwrap(decoder.nextFrame(timeout: 10))
        XCTAssertEqual(frame.size, PixelSize(width: 320, height: 180))
        let expected = try reference(path, index: 0, size: frame.size, matrix: "bt709", range: "tv", flags: "area")
        let psnr = ImageCompare.psnrRGB(upright(frame), expected)
        XCTAssertGreaterThanOrEqual(psnr, 45, "3x area shrink against ffmpeg's: \(psnr) dB")
        // never grown: a limit larger than the frame keeps its size
        let whole = try VideoDecoder(path: path, log: Log(level: .error),
                                     form: { _ in .rgba(limit: PixelSize(width: 3840, height: 2160)) })
        defer { whole.close() }
        XCTAssertEqual(try XCTUnwrap(whole.nextFrame(timeout: 10)).size, PixelSize(width: 960, height: 540))
    }

    func testAFrameFoundBySeekingIsConvertedWhenHandedOut() throws {
        let dir = try TempDir()
        let path = try clip(dir, "seek.mp4", size: "320x240", pixFmt: "yuv420p", matrix: "bt709", range: "tv", seconds: 2)
        // 1.0 s at 25 fps is frame 25, decoded from the keyframe at 0 through 24 skipped frames.
        let decoder = try VideoDecoder(path: path, log: Log(level: .error), startAt: 1.0, form: { _ in .rgba(limit: nil) })
        defer { decoder.close() }
        let frame = try XCTUnwrap(decoder.nextFrame(timeout: 10))
        XCTAssertEqual(frame.pts, 1.0, accuracy: 0.001)
        XCTAssertEqual(frame.layout, .rgba)
        XCTAssertEqual(frame.orientation, .downMirrored, "a frame held through the seek is stored like the others")
        let expected = try reference(path, index: 25, size: frame.size, matrix: "bt709", range: "tv")
        XCTAssertLessThanOrEqual(largestDifference(upright(frame), expected), 1)
        let next = try XCTUnwrap(decoder.nextFrame(timeout: 10))
        XCTAssertEqual(next.layout, .rgba)
        XCTAssertLessThanOrEqual(largestDifference(upright(next),
                                                   try reference(path, index: 26, size: next.size, matrix: "bt709", range: "tv")), 1)
    }

    func testAnRGBAFrameDrawnThroughTheRendererIsTheConversionItself() throws {
        let dir = try TempDir()
        let path = try clip(dir, "draw.mp4", size: "320x240", pixFmt: "yuv420p", matrix: "bt709", range: "tv")
        let decoder = try VideoDecoder(path: path, log: Log(level: .error), form: { _ in .rgba(limit: nil) })
        defer { decoder.close() }
        let frame = try XCTUnwrap(decoder.nextFrame(timeout: 10))
        let gl = try gl()
        let texture = try VideoTexture(context: gl, frame: frame)
        let target = try OffscreenTarget(context: gl, size: frame.size)
        try XCTUnwrap(renderer).draw(RenderFrame(background: .black, layers: [RenderLayer(texture: texture, pass: FlatPass(transform: .identity))]),
                                     into: target)
        let shown = try target.readPixels()
        let expected = try reference(path, index: 0, size: frame.size, matrix: "bt709", range: "tv")
        XCTAssertLessThanOrEqual(largestDifference(shown.pixels, expected), 1)
    }

    func testDecodeQueueHoldsTwoFramesAheadButNoMoreThanItsBytes() throws {
        let dir = try TempDir()
        let path = try clip(dir, "queue.mp4", size: "1280x720", pixFmt: "yuv420p", matrix: "bt709", range: "tv")
        let limits = VideoDecoder.Limits(maxFrames: 8, maxBytes: 6 << 20)
        let decoder = try VideoDecoder(path: path, log: Log(level: .error), limits: limits, form: { _ in .rgba(limit: nil) })
        defer { decoder.close() }
        _ = decoder.peekFrame(timeout: 10)
        Thread.sleep(forTimeInterval: 0.5)  // time to fill whatever room there is
        let frameBytes = 1280 * 720 * 4
        let queued = decoder.queued
        XCTAssertEqual(queued.frames, 2, "3.7 MB frames under a 6 MiB bound: the two always allowed, no third")
        XCTAssertEqual(queued.bytes, 2 * frameBytes)
    }

    func testRecycledFrameStorageIsReusedAndFramesStillMatchFFmpeg() throws {
        let dir = try TempDir()
        let path = try clip(dir, "pool.mp4", size: "320x240", pixFmt: "yuv420p", matrix: "bt709", range: "tv", seconds: 4)
        let decoder = try VideoDecoder(path: path, log: Log(level: .error), form: { _ in .rgba(limit: nil) })
        defer { decoder.close() }
        var last: VideoFrame?
        for index in 0..<75 {
            let frame = try XCTUnwrap(decoder.nextFrame(timeout: 10), "frame \(index)")
            // each frame matches ffmpeg's, whatever storage it was written into
            if index % 24 == 0 || index == 74 {
                let expected = try reference(path, index: index, size: frame.size, matrix: "bt709", range: "tv")
                XCTAssertLessThanOrEqual(largestDifference(upright(frame), expected), 1, "frame \(index)")
            }
            if var done = last {  // the one before was uploaded and is let go
                last = nil
                decoder.recycle(&done)
                XCTAssertTrue(done.planes.isEmpty)
            }
            last = frame
        }
        let buffers = decoder.rgbaBuffers
        XCTAssertGreaterThanOrEqual(buffers.made + buffers.reused, 75, "every frame converted into some array (and those queued ahead)")
        // made new: about the arrays alive at once, whatever the timing (the queue's four, the one converting, the
        // two held by this loop, the pool's four), plus the odd one dropped when a full pool got another; 75
        // without reuse. (A bound of 8 failed once on CI with 9: the pool had filled while this loop drained
        // the queue.)
        XCTAssertLessThanOrEqual(buffers.made, 12, "storage comes back round: \(buffers)")
        // a frame still held elsewhere when recycled is not written over: Swift copies shared storage on write
        // (the pool hands out the array given back last first: the next conversion takes this one)
        let kept = try XCTUnwrap(last)
        let before = kept.planes[0].bytes.withUnsafeBufferPointer { Array($0) }  // a copy of its own
        var copy = kept
        let reused = decoder.rgbaBuffers.reused
        decoder.recycle(&copy)
        var later: [VideoFrame] = []
        while decoder.rgbaBuffers.reused == reused, let next = decoder.nextFrame(timeout: 10) { later.append(next) }
        XCTAssertGreaterThan(decoder.rgbaBuffers.reused, reused, "the given-back array was taken again")
        XCTAssertTrue(kept.planes[0].bytes.elementsEqual(before), "the frame still held keeps its pixels")
        XCTAssertFalse(later.isEmpty)
    }

    func testAutoIsTheCPUOnSoftwareRenderersAndTheGPUOtherwise() {
        XCTAssertEqual(VideoConversion.auto.resolved(renderer: "llvmpipe (LLVM 15.0.6, 256 bits)"), .cpu)
        XCTAssertEqual(VideoConversion.auto.resolved(renderer: "softpipe"), .cpu)
        XCTAssertEqual(VideoConversion.auto.resolved(renderer: "Mali-G52 (Panfrost)"), .gpu)
        XCTAssertEqual(VideoConversion.auto.resolved(renderer: "V3D 4.2"), .gpu)
        XCTAssertEqual(VideoConversion.gpu.resolved(renderer: "llvmpipe"), .gpu, "an explicit choice stands")
        XCTAssertEqual(VideoConversion.cpu.resolved(renderer: "V3D 4.2"), .cpu)
        // before the output is attached: a guess from the machine, settled by the renderer
        let guessed = VideoFrameChoice(.auto, environment: [:], renderNodes: { true })
        XCTAssertEqual(guessed.current, .gpu)
        guessed.settle(renderer: "llvmpipe (LLVM 15.0.6, 256 bits)")
        XCTAssertEqual(guessed.current, .cpu)
        XCTAssertEqual(VideoFrameChoice(.auto, environment: ["LIBGL_ALWAYS_SOFTWARE": "1"], renderNodes: { true }).current, .cpu)
        XCTAssertEqual(VideoFrameChoice(.auto, environment: [:], renderNodes: { false }).current, .cpu)
        XCTAssertEqual(VideoFrameChoice(.gpu, environment: ["LIBGL_ALWAYS_SOFTWARE": "1"], renderNodes: { false }).current, .gpu)
    }

    func testTheChoiceIsLoggedAndABadValueIsOneLineNamingTheFlag() throws {
        let dir = try TempDir()
        let path = try clip(dir, "log.mp4", size: "160x120", pixFmt: "yuv420p", matrix: "bt709", range: "tv", seconds: 0.4)
        let kiosk = CLITests.kiosk
        let run = try BoundedProcess.run(kiosk, ["play", path, "--output", "headless", "--untimed", "--no-loop", "--size", "160x120",
                                             "--log-level", "info"], environment: ["LIBGL_ALWAYS_SOFTWARE": "1"], timeout: 60)
        let err = String(decoding: run.stderr, as: UTF8.self)
        XCTAssertEqual(run.status, 0, err)
        XCTAssertTrue(err.contains("video: frames become RGBA on the decode thread (swscale) (--video-convert auto)"), err)
        let gpu = try BoundedProcess.run(kiosk, ["play", path, "--output", "headless", "--untimed", "--no-loop", "--size", "160x120",
                                             "--log-level", "info", "--video-convert", "gpu"],
                                     environment: ["LIBGL_ALWAYS_SOFTWARE": "1"], timeout: 60)
        XCTAssertTrue(String(decoding: gpu.stderr, as: UTF8.self).contains("planes go up as decoded"))
        let bad = try BoundedProcess.run(kiosk, ["play", path, "--video-convert", "fpga"], timeout: 30)
        let lines = String(decoding: bad.stderr, as: UTF8.self).split(separator: "\n")
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertEqual(lines.filter { $0.contains("--video-convert") }.count, 1, lines.joined(separator: "\n"))
    }
}
