// The one-pass video path: an RGBA frame placed 1:1 at whole pixels is copied into the framebuffer
// (glBlitFramebuffer) instead of drawn by the layer shader. The copy must put the same pixels where the shader
// would, against ffmpeg's decode of the same frame, and must not be taken when anything would change them.
import Foundation
import KioskCore
@testable import KioskMedia
@testable import KioskRender
import XCTest

final class PlainCopyTests: RenderTestCase {
    private static let size = PixelSize(width: 320, height: 240)

    /// A testsrc2 clip (sharp colour edges: a copy off by a pixel shows) made by ffmpeg, and its first frame as
    /// RGBA from the decoder (the `--video-convert cpu` form) and from ffmpeg's own accurate conversion.
    private func firstFrame() throws -> (frame: VideoFrame, reference: [UInt8]) {
        let dir = try TempDir()
        let path = dir.file("copy.mp4")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=0.2", "-c:v", "libx264",
                              "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-colorspace", "bt709", path])
        let decoder = try VideoDecoder(path: path, log: Log(level: .error), form: { _ in .rgba(limit: nil) })
        defer { decoder.close() }
        let frame = try XCTUnwrap(decoder.nextFrame(timeout: 10))
        let scale = "scale=320:240:in_color_matrix=bt709:in_range=tv:in_h_chr_pos=0:in_v_chr_pos=128:out_range=pc"
            + ":flags=bilinear+accurate_rnd+full_chroma_int"
        let reference = [UInt8](try FFmpegCLI.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-vf", "\(scale),format=rgba",
                                                             "-frames:v", "1", "-f", "rawvideo", "-"]))
        return (frame, reference)
    }

    /// `layers` drawn on a canvas of `canvas` size, with plain copies allowed or not; and how many were made.
    private func draw(_ layers: [RenderLayer], canvas: PixelSize, copies allowed: Bool,
                      background: RGBColor = RGBColor(red: 0.2, green: 0.4, blue: 0.6)) throws -> (RGBAImage, Int) {
        let renderer = try XCTUnwrap(self.renderer)
        renderer.allowsPlainCopy = allowed
        let before = renderer.plainCopyCount
        let target = try OffscreenTarget(context: try gl(), size: canvas)
        try renderer.draw(RenderFrame(background: background, layers: layers), into: target)
        return (try target.readPixels(), renderer.plainCopyCount - before)
    }

    private func largestDifference(_ a: RGBAImage, _ b: RGBAImage) -> Int {
        guard a.size == b.size else { return 255 }
        return zip(a.pixels, b.pixels).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    func testAFittedFrameIsCopiedWithTheShadersPixelsAndFFmpegsPictureInsideBars() throws {
        let (frame, reference) = try firstFrame()
        XCTAssertEqual(frame.orientation, .downMirrored)
        let texture = try VideoTexture(context: try gl(), frame: frame)
        let canvas = PixelSize(width: 480, height: 240)  // pillarboxed: 80 pixels of background either side
        let layer = RenderLayer(texture: texture, pass: FlatPass(transform: FlatView().transform(picture: texture.size, canvas: canvas)))
        let (copied, copies) = try draw([layer], canvas: canvas, copies: true)
        let (shaded, shaderCopies) = try draw([layer], canvas: canvas, copies: false)
        XCTAssertEqual(copies, 1, "a 1:1 fitted frame is copied")
        XCTAssertEqual(shaderCopies, 0)
        XCTAssertLessThanOrEqual(largestDifference(copied, shaded), 1, "the copy puts the shader's pixels")
        var worst = 0
        for y in 0..<240 {
            for x in 0..<480 {
                let at = (y * 480 + x) * 4
                let got = Array(copied.pixels[at..<at + 3])
                if x < 80 || x >= 400 {
                    XCTAssertEqual(got, [51, 102, 153], "background at (\(x), \(y))")
                    if got != [51, 102, 153] { return }
                } else {
                    let ref = ((y * 320) + x - 80) * 4
                    for c in 0..<3 { worst = max(worst, abs(Int(got[c]) - Int(reference[ref + c]))) }
                }
            }
        }
        XCTAssertLessThanOrEqual(worst, 1, "the copied picture against ffmpeg's conversion: \(worst)/255")
    }

    func testACroppedFrameInALayerRectOverAnotherLayerIsCopiedWhereTheShaderDrawsIt() throws {
        let (frame, _) = try firstFrame()
        let gl = try gl()
        let texture = try VideoTexture(context: gl, frame: frame)
        let below = try Texture(context: gl, image: RGBAImage(size: PixelSize(width: 4, height: 4),
                                                              pixels: [UInt8](repeating: 0, count: 64).enumerated().map { $0.offset % 4 == 0 || $0.offset % 4 == 3 ? 255 : 0 }))
        // 200x150 of the frame at 1:1, from (60, 45), in a rect at (40, 20) of a 320x240 canvas: a wall tile's crop
        let rect = CanvasRect(x: 40, y: 20, width: 200, height: 150)
        let crop = UVTransform(scaleX: 200.0 / 320, scaleY: 150.0 / 240, offsetX: 60.0 / 320, offsetY: 45.0 / 240)
        var top = RenderLayer(texture: texture, pass: FlatPass(transform: crop), rect: rect)
        let bottom = RenderLayer(texture: below, pass: FlatPass(transform: .identity))
        for blend in [LayerBlend.premultipliedOver, .opaque] {
            top.blend = blend
            let (copied, copies) = try draw([bottom, top], canvas: Self.size, copies: true)
            let (shaded, _) = try draw([bottom, top], canvas: Self.size, copies: false)
            XCTAssertEqual(copies, 1, "\(blend)")
            XCTAssertLessThanOrEqual(largestDifference(copied, shaded), 1, "\(blend)")
            XCTAssertEqual(Array(copied.pixels[0..<4]), [255, 0, 0, 255], "the layer below shows outside the rect")
        }
        // the frame only partly in the rect (shifted 30 pixels right and down): the rest of the rect is background
        let shifted = UVTransform(scaleX: 200.0 / 320, scaleY: 150.0 / 240, offsetX: -30.0 / 320, offsetY: -30.0 / 240)
        top = RenderLayer(texture: texture, pass: FlatPass(transform: shifted), rect: rect)
        let (copied, copies) = try draw([bottom, top], canvas: Self.size, copies: true)
        let (shaded, _) = try draw([bottom, top], canvas: Self.size, copies: false)
        XCTAssertEqual(copies, 1)
        XCTAssertLessThanOrEqual(largestDifference(copied, shaded), 1)
        XCTAssertEqual(Array(copied.pixels[((20 + 5) * 320 + 45) * 4..<((20 + 5) * 320 + 45) * 4 + 3]), [51, 102, 153])
    }

    func testAScaledFadingMovingOrOffPixelFrameIsDrawnByTheShader() throws {
        let (frame, _) = try firstFrame()
        let texture = try VideoTexture(context: try gl(), frame: frame)
        let fit = { (canvas: PixelSize) in FlatPass(transform: FlatView().transform(picture: texture.size, canvas: canvas)) }
        let cases: [(String, RenderLayer, PixelSize)] = [
            ("scaled 2x", RenderLayer(texture: texture, pass: fit(PixelSize(width: 640, height: 480))), PixelSize(width: 640, height: 480)),
            ("fading", RenderLayer(texture: texture, pass: fit(Self.size), opacity: 0.5), Self.size),
            ("in a crossfade", RenderLayer(texture: texture, pass: fit(Self.size),
                                           transition: LayerTransition(CrossfadeTransition(), role: .incoming, progress: 0.5)), Self.size),
            ("half a pixel off", RenderLayer(texture: texture, pass: fit(PixelSize(width: 321, height: 240))), PixelSize(width: 321, height: 240)),
            ("a sphere", RenderLayer(texture: texture, pass: EquirectProjection(view: SphereView(yaw: 0, pitch: 0, hFOV: 90, canvas: Self.size),
                                                                                     projection: ItemProjection(kind: .equirect))), Self.size),
        ]
        for (name, layer, canvas) in cases {
            let (_, copies) = try draw([layer], canvas: canvas, copies: true)
            XCTAssertEqual(copies, 0, name)
        }
        // an RGBA frame kept top-down (as a turned clip's or one with alpha are) is drawn by the shader
        var upright = frame
        upright.planes[0].bytes = frame.orientation.apply(to: RGBAImage(size: frame.size, pixels: frame.planes[0].bytes)).pixels
        upright.orientation = .up
        let kept = try VideoTexture(context: try gl(), frame: upright)
        let (shown, copies) = try draw([RenderLayer(texture: kept, pass: fit(Self.size))], canvas: Self.size, copies: true)
        XCTAssertEqual(copies, 0)
        let (copiedShown, _) = try draw([RenderLayer(texture: texture, pass: fit(Self.size))], canvas: Self.size, copies: true)
        XCTAssertLessThanOrEqual(largestDifference(shown, copiedShown), 1, "both stored forms show the same picture")
    }

    func testAClipWithAlphaKeepsItsRowsAndTheShadersBlend() throws {
        let dir = try TempDir()
        let path = dir.file("alpha.mkv")
        try FFmpegCLI.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=0.2", "-vf", "format=yuva420p",
                              "-c:v", "ffv1", path])
        let decoder = try VideoDecoder(path: path, log: Log(level: .error), form: { _ in .rgba(limit: nil) })
        defer { decoder.close() }
        let frame = try XCTUnwrap(decoder.nextFrame(timeout: 10))
        XCTAssertEqual(frame.layout, .rgba)
        XCTAssertEqual(frame.orientation, .up, "a frame that may be see-through is not stored for copying")
        let texture = try VideoTexture(context: try gl(), frame: frame)
        let canvas = PixelSize(width: 160, height: 120)
        let layer = RenderLayer(texture: texture, pass: FlatPass(transform: FlatView().transform(picture: texture.size, canvas: canvas)))
        XCTAssertEqual(try draw([layer], canvas: canvas, copies: true).1, 0)
    }

    /// A picture whose top, bottom, left and right all differ: a copy turned or shifted by a row shows.
    private func pattern(_ size: PixelSize, alphaAt: (x: Int, y: Int)? = nil) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: size.width * size.height * 4)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let at = (y * size.width + x) * 4
                pixels[at] = UInt8(x * 255 / (size.width - 1))
                pixels[at + 1] = UInt8(y * 255 / (size.height - 1))
                pixels[at + 2] = UInt8((x * 7 + y * 13) & 255)
            }
        }
        if let a = alphaAt { pixels[(a.y * size.width + a.x) * 4 + 3] = 128 }
        return RGBAImage(size: size, pixels: pixels)
    }

    func testALayersStillIsCopiedWithTheShadersPixelsAndOthersAreDrawn() throws {
        let gl = try gl()
        let size = PixelSize(width: 200, height: 150)
        let image = pattern(size)
        let canvas = PixelSize(width: 260, height: 150)  // 30 pixels of background either side
        let fit = FlatPass(transform: FlatView().transform(picture: size, canvas: canvas))
        let still = try Texture(context: gl, layerImage: image)
        let (copied, copies) = try draw([RenderLayer(texture: still, pass: fit)], canvas: canvas, copies: true)
        let (shaded, _) = try draw([RenderLayer(texture: still, pass: fit)], canvas: canvas, copies: false)
        let topDown = try Texture(context: gl, image: image)
        let (plain, plainCopies) = try draw([RenderLayer(texture: topDown, pass: fit)], canvas: canvas, copies: true)
        XCTAssertEqual(copies, 1)
        XCTAssertEqual(plainCopies, 0, "a texture stored top-down is drawn by the shader")
        XCTAssertLessThanOrEqual(largestDifference(copied, shaded), 1)
        XCTAssertLessThanOrEqual(largestDifference(copied, plain), 1)
        for y in [0, 10, 149] {
            let at = (y * 260 + 30) * 4, from = y * 200 * 4
            XCTAssertEqual(Array(copied.pixels[at..<at + 200 * 4]), Array(image.pixels[from..<from + 200 * 4]), "row \(y)")
        }
        // one pixel half transparent: the shader blends it over the background, so it is not copied
        let clear = try Texture(context: gl, layerImage: pattern(size, alphaAt: (100, 75)))
        XCTAssertEqual(try draw([RenderLayer(texture: clear, pass: fit)], canvas: canvas, copies: true).1, 0)
        // a picture drawn into (a reduced copy, a canvas) has no known content: never copied
        let drawn = try OffscreenTarget(context: gl, size: size)
        XCTAssertEqual(try draw([RenderLayer(texture: drawn.texture, pass: fit)], canvas: canvas, copies: true).1, 0)
        // a new picture in the same texture (an animation's next frame) is stored the same way
        try still.update(with: pattern(size, alphaAt: nil))
        XCTAssertLessThanOrEqual(largestDifference(try draw([RenderLayer(texture: still, pass: fit)], canvas: canvas, copies: true).0, plain), 1)
    }

    func testAStillStoredBottomUpLooksTheSameThroughEverySampler() throws {
        let gl = try gl()
        let size = PixelSize(width: 256, height: 128)
        let image = pattern(size)
        let up = try Texture(context: gl, layerImage: image), down = try Texture(context: gl, image: image)
        let cases: [(String, any ShaderPass, PixelSize)] = [
            ("fit, enlarged", FlatPass(transform: FlatView().transform(picture: size, canvas: PixelSize(width: 700, height: 300))),
             PixelSize(width: 700, height: 300)),
            ("zoomed and panned", FlatPass(transform: FlatView(zoom: 2.5, center: UnitPoint(x: 0.3, y: 0.7))
                .transform(picture: size, canvas: PixelSize(width: 256, height: 128))), PixelSize(width: 256, height: 128)),
            ("minified 4x (the pre-pass)", FlatPass(transform: FlatView().transform(picture: size, canvas: PixelSize(width: 64, height: 32))),
             PixelSize(width: 64, height: 32)),
            ("a sphere (the exact sampler)", EquirectProjection(view: SphereView(yaw: 30, pitch: 20, hFOV: 90, canvas: PixelSize(width: 160, height: 120)),
                                                                projection: ItemProjection(kind: .equirect)), PixelSize(width: 160, height: 120)),
        ]
        for (name, pass, canvas) in cases {
            let (a, _) = try draw([RenderLayer(texture: up, pass: pass)], canvas: canvas, copies: false)
            let (b, _) = try draw([RenderLayer(texture: down, pass: pass)], canvas: canvas, copies: false)
            XCTAssertLessThanOrEqual(largestDifference(a, b), 1, name)
        }
    }

    func testPlacementIsWholePixelsOrNothing() {
        let picture = PixelSize(width: 100, height: 50)
        let rect = CanvasRect(x: 0, y: 0, width: 200, height: 50)
        let centred = UVTransform(scaleX: 2, scaleY: 1, offsetX: -0.5, offsetY: 0)
        let placed = PlainCopy.placement(transform: centred, picture: picture, rect: rect, canvasHeight: 50)
        XCTAssertEqual(placed?.source, PixelRect(x: 0, y: 0, width: 100, height: 50))
        XCTAssertEqual(placed?.destination, PixelRect(x: 50, y: 0, width: 100, height: 50))
        XCTAssertEqual(placed?.leavesBackground, true)
        // the top 10 rows cut off by the rect: the source keeps the frame's bottom rows (stored first)
        let low = UVTransform(scaleX: 2, scaleY: 1, offsetX: -0.5, offsetY: 0.2)
        XCTAssertEqual(PlainCopy.placement(transform: low, picture: picture, rect: rect, canvasHeight: 50)?.source,
                       PixelRect(x: 0, y: 0, width: 100, height: 40))
        XCTAssertNil(PlainCopy.placement(transform: UVTransform(scaleX: 2, scaleY: 1, offsetX: -0.505, offsetY: 0),
                                         picture: picture, rect: rect, canvasHeight: 50), "half a pixel off")
        XCTAssertNil(PlainCopy.placement(transform: UVTransform(scaleX: 2, scaleY: 1, offsetX: -3, offsetY: 0),
                                         picture: picture, rect: rect, canvasHeight: 50), "out of the rect")
        XCTAssertNil(PlainCopy.placement(transform: .identity, picture: picture, rect: rect, canvasHeight: 50), "scaled")
        let full = PlainCopy.placement(transform: .identity, picture: picture, rect: CanvasRect(x: 10, y: 5, width: 100, height: 50),
                                       canvasHeight: 80)
        XCTAssertEqual(full?.destination, PixelRect(x: 10, y: 25, width: 100, height: 50), "GL counts rows from the bottom")
        XCTAssertEqual(full?.leavesBackground, false)
    }
}
