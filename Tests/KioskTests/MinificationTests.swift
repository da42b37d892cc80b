// Minified flat layers (issue 15, part 3): a 1080p video frame and a 1080p still drawn at 3× and 4× smaller
// through the real renderer match ffmpeg's area scaler (PSNR >= 40 dB), plain bilinear does not, 2× is unchanged,
// and the reduced copies are kept while drawn (a still's is not made again) and released when their layer has gone two frames.
import Foundation
import KioskCore
@testable import KioskMedia
@testable import KioskRender
import XCTest

final class MinificationTests: RenderTestCase {
    /// The canvases: 3× and 4× smaller than 1920×1080.
    static let canvases = [PixelSize(width: 640, height: 360), PixelSize(width: 480, height: 270)]

    /// A 1920×1080 H.264 clip (BT.709, limited range) with fine detail: testsrc2 with temporal noise.
    static func clip(_ dir: TempDir, size: PixelSize = PixelSize(width: 1920, height: 1080)) throws -> String {
        let path = dir.file("clip-\(size).mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=25:duration=0.2,noise=alls=8:allf=t",
                              "-c:v", "libx264", "-preset", "veryfast", "-crf", "12", "-pix_fmt", "yuv420p",
                              "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv", path])
        return path
    }

    /// A 1920×1080 PNG with fine detail (the Mandelbrot set's edge) and its pixels.
    static func still(_ dir: TempDir) throws -> (path: String, image: RGBAImage) {
        let path = dir.file("still.png")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "mandelbrot=size=1920x1080:rate=1:start_scale=0.3", "-frames:v", "1", path])
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        return (path, RGBAImage(size: PixelSize(width: 1920, height: 1080), pixels: [UInt8](data)))
    }

    /// ffmpeg's area scaler on the first frame of `path`, as RGBA of `size`. A video is read as the stream is: BT.709
    /// limited range, chroma sited left and vertically centred (H.264's default, as the YUV stage places it; swscale
    /// otherwise centres chroma, a quarter chroma texel off). `fullChromaInput` keeps an RGB picture's chroma whole
    /// (swscale otherwise halves it horizontally on the way in).
    static func areaReference(_ path: String, size: PixelSize, video: Bool, fullChromaInput: Bool = false) throws -> RGBAImage {
        let colour = video ? ":in_color_matrix=bt709:in_range=tv:out_range=pc:in_h_chr_pos=0:in_v_chr_pos=128" : ""
        let flags = "area+accurate_rnd+full_chroma_int" + (fullChromaInput ? "+full_chroma_inp" : "")
        let data = try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-frames:v", "1", "-vf",
                                                "scale=\(size.width):\(size.height)\(colour):flags=\(flags)",
                                                "-pix_fmt", "rgba", "-f", "rawvideo", "-"])
        return RGBAImage(size: size, pixels: [UInt8](data))
    }

    /// The first frame of `path`, decoded by the player's decoder.
    static func firstFrame(_ path: String) throws -> VideoFrame {
        let decoder = try VideoDecoder(path: path, log: Log(level: .error, sink: { _ in }))
        defer { decoder.close() }
        return try XCTUnwrap(decoder.nextFrame(timeout: 20), "no frame from \(path)")
    }

    /// Draws `picture` fitted (contain) on `canvas`, with the pre-pass on or off, and reads it back.
    func draw(_ picture: any LayerPicture, canvas: PixelSize, minify: Bool = true) throws -> RGBAImage {
        let r = try XCTUnwrap(renderer)
        r.minify.enabled = minify
        defer { r.minify.enabled = true }
        let target = try OffscreenTarget(context: try gl(), size: canvas)
        let pass = FlatPass(transform: FlatView(fit: .contain).transform(picture: picture.size, canvas: canvas))
        try r.draw(RenderFrame(background: .black, layers: [RenderLayer(texture: picture, pass: pass)]), into: target)
        return try target.readPixels()
    }

    /// PSNR with and without the pre-pass against ffmpeg's area scaler, per canvas.
    func scores(_ picture: any LayerPicture, path: String, video: Bool) throws -> [(canvas: PixelSize, on: Double, off: Double)] {
        try Self.canvases.map { canvas in
            let reference = try Self.areaReference(path, size: canvas, video: video)
            let on = RenderTestSupport.psnr(try draw(picture, canvas: canvas), reference)
            let off = RenderTestSupport.psnr(try draw(picture, canvas: canvas, minify: false), reference)
            print("minification \(video ? "video" : "still") 1920x1080 -> \(canvas): \(String(format: "%.2f", on)) dB "
                  + "(plain bilinear \(String(format: "%.2f", off)) dB)")
            return (canvas, on, off)
        }
    }

    func testVideoFrameAtThreeAndFourTimesSmallerMatchesFFmpegArea() throws {
        let dir = try TempDir()
        let path = try Self.clip(dir)
        let frame = try Self.firstFrame(path)
        XCTAssertEqual(frame.matrix, .bt709)
        let texture = try VideoTexture(context: try gl(), frame: frame)
        for score in try scores(texture, path: path, video: true) {
            XCTAssertGreaterThanOrEqual(score.on, 40, "video on \(score.canvas)")
            XCTAssertLessThan(score.off, score.on - 2, "video on \(score.canvas): plain bilinear should alias")
        }
    }

    func testStillAtThreeAndFourTimesSmallerMatchesFFmpegArea() throws {
        let dir = try TempDir()
        let (path, image) = try Self.still(dir)
        let texture = try Texture(context: try gl(), image: image)
        for score in try scores(texture, path: path, video: false) {
            XCTAssertGreaterThanOrEqual(score.on, 40, "still on \(score.canvas)")
            XCTAssertLessThan(score.off, score.on - 2, "still on \(score.canvas): plain bilinear should alias")
        }
        // Against an exact box filter (swscale keeping the RGB input's chroma whole) the pre-pass is closer still.
        for canvas in Self.canvases {
            let reference = try Self.areaReference(path, size: canvas, video: false, fullChromaInput: true)
            let db = RenderTestSupport.psnr(try draw(texture, canvas: canvas), reference)
            print("minification still 1920x1080 -> \(canvas) against area+full_chroma_inp: \(String(format: "%.2f", db)) dB")
            XCTAssertGreaterThanOrEqual(db, 50, "still on \(canvas) against an exact box")
        }
    }

    func testWithoutThePrePassBilinearScoresBelow40dB() throws {
        let dir = try TempDir()
        let path = try Self.clip(dir)
        let texture = try VideoTexture(context: try gl(), frame: try Self.firstFrame(path))
        for canvas in Self.canvases {
            let reference = try Self.areaReference(path, size: canvas, video: true)
            let off = RenderTestSupport.psnr(try draw(texture, canvas: canvas, minify: false), reference)
            XCTAssertLessThan(off, 40, "plain bilinear on \(canvas)")
        }
    }

    func testTwoTimesSmallerIsDrawnAsBefore() throws {
        let dir = try TempDir()
        let path = try Self.clip(dir)
        let r = try XCTUnwrap(renderer)
        let texture = try VideoTexture(context: try gl(), frame: try Self.firstFrame(path))
        let still = try Texture(context: try gl(), image: try Self.still(dir).image)
        for picture in [texture, still] as [any LayerPicture] {
            for canvas in [PixelSize(width: 960, height: 540), PixelSize(width: 1280, height: 720)] {
                let with = try draw(picture, canvas: canvas)
                XCTAssertEqual(r.minify.count, 0, "no reduced copy at \(canvas)")
                XCTAssertEqual(with.pixels, try draw(picture, canvas: canvas, minify: false).pixels, "\(canvas) changed")
            }
        }
    }

    func testReducedCopyIsKeptWhileDrawnAndReleasedWhenTheLayerIsGoneForTwoFrames() throws {
        let gl = try gl()
        let r = try XCTUnwrap(renderer)
        let canvas = PixelSize(width: 160, height: 90)
        let target = try OffscreenTarget(context: gl, size: canvas)
        let before = GLObjectCount.now
        do {
            let picture = try Texture(context: gl, image: RenderTestSupport.noisePicture(size: PixelSize(width: 640, height: 360)))
            let layer = RenderLayer(texture: picture, pass: FlatPass(transform: .identity))
            try r.draw(RenderFrame(background: .black, layers: [layer]), into: target)
            let drawn = GLObjectCount.now
            XCTAssertEqual(r.minify.count, 1)
            XCTAssertEqual(drawn.framebuffers, before.framebuffers + 1)
            XCTAssertEqual(drawn.textures, before.textures + 2, "the picture and its reduced copy")
            try r.draw(RenderFrame(background: .black, layers: [layer]), into: target)
            XCTAssertEqual(GLObjectCount.now.framebuffers, drawn.framebuffers, "the copy is reused")
            XCTAssertEqual(GLObjectCount.now.textures, drawn.textures)
            try r.draw(RenderFrame(background: .black, layers: []), into: target)
            XCTAssertEqual(r.minify.count, 1, "a copy outlives one frame without its layer")
            try r.draw(RenderFrame(background: .black, layers: []), into: target)
            XCTAssertEqual(r.minify.count, 0)
            XCTAssertEqual(GLObjectCount.now.framebuffers, before.framebuffers, "the copy goes with its layer")
        }
        XCTAssertEqual(GLObjectCount.now.textures, before.textures)
    }

    func testThirtyTimesSmallerTakesTwoStagesAndIsTheBoxMean() throws {
        let source = RenderTestSupport.noisePicture(size: PixelSize(width: 1920, height: 1080))
        let canvas = PixelSize(width: 64, height: 36)
        let texture = try Texture(context: try gl(), image: source)
        let shown = try draw(texture, canvas: canvas)
        var box = [UInt8](repeating: 255, count: canvas.width * canvas.height * 4)
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                for c in 0..<3 {
                    var sum = 0
                    for sy in y * 30..<(y + 1) * 30 {
                        for sx in x * 30..<(x + 1) * 30 { sum += Int(source.pixels[(sy * 1920 + sx) * 4 + c]) }
                    }
                    box[(y * canvas.width + x) * 4 + c] = UInt8((Double(sum) / 900).rounded())
                }
            }
        }
        let db = RenderTestSupport.psnr(shown, RGBAImage(size: canvas, pixels: box))
        XCTAssertGreaterThanOrEqual(db, 45, "30× through 128×72 then 64×36")
    }

    func testStageSizes() {
        let hd = PixelSize(width: 1920, height: 1080)
        XCTAssertEqual(MinifyPass.stageSizes(picture: hd, drawn: (960, 540)), [])
        XCTAssertEqual(MinifyPass.stageSizes(picture: hd, drawn: (1920, 1080)), [])
        XCTAssertEqual(MinifyPass.stageSizes(picture: hd, drawn: (640, 360)), [PixelSize(width: 640, height: 360)])
        XCTAssertEqual(MinifyPass.stageSizes(picture: hd, drawn: (1920, 360)), [PixelSize(width: 1920, height: 360)])
        XCTAssertEqual(MinifyPass.stageSizes(picture: hd, drawn: (64, 36)),
                       [PixelSize(width: 128, height: 72), PixelSize(width: 64, height: 36)])
        XCTAssertEqual(MinifyPass.stageSizes(picture: hd, drawn: (4000, 360)), [PixelSize(width: 1920, height: 360)])
    }

    // What the pre-pass costs a frame is measured by `kiosk-bench minify`, not here: a timing is not a test.
}
