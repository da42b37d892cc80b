// Shared helpers for the Render*Tests: a headless GL fixture, running ffmpeg, raw RGBA files and PSNR.
import Foundation
import KioskCore
@testable import KioskRender
import XCTest

/// A test case with a headless GLES 3 context on llvmpipe, created in setUp and released in tearDown
/// (a context of its own; others may exist beside it: the EGL display is counted).
class RenderTestCase: XCTestCase {
    /// The context, current on the test thread.
    var context: GLContext?
    /// A renderer on it.
    var renderer: Renderer?

    override func setUpWithError() throws {
        setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1)
        let gl = try GLContext.headless()
        context = gl
        renderer = try Renderer(context: gl)
    }

    override func tearDown() {
        renderer = nil
        context = nil
    }

    /// The context, or a failure when setUp did not make one.
    func gl() throws -> GLContext { try XCTUnwrap(context) }

    /// Renders `layers` (picture, pass, opacity) onto a screen of `screen` size and reads it back.
    func render(_ layers: [(RGBAImage, any ShaderPass, Double)], screen: PixelSize,
                background: RGBColor = .black, rotation: Rotation = .none) throws -> RGBAImage {
        let gl = try gl()
        let r = try XCTUnwrap(renderer)
        let textures = try layers.map { try Texture(context: gl, image: $0.0) }
        let frame = RenderFrame(background: background, layers: zip(textures, layers).map {
            RenderLayer(texture: $0.0, pass: $0.1.1, opacity: $0.1.2)
        })
        let target = try OffscreenTarget(context: gl, size: screen)
        try r.draw(frame, into: target, rotation: rotation)
        return try target.readPixels()
    }

    /// Renders one opaque layer of `image` fitted with `fit` on a canvas of `canvas` size.
    func render(_ image: RGBAImage, fit: FitMode, canvas: PixelSize,
                background: RGBColor = .black) throws -> RGBAImage {
        let pass = FlatPass(transform: FlatView(fit: fit).transform(picture: image.size, canvas: canvas))
        return try render([(image, pass, 1)], screen: canvas, background: background)
    }
}

/// Helpers that shell out to tools and compare pictures.
enum RenderTestSupport {
    /// The ffmpeg CLI.
    static let ffmpeg = "/usr/bin/ffmpeg"

    /// A fresh temporary folder.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs a program and returns its exit status and combined stderr/stdout text.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let r = try BoundedProcess.run(executable, arguments, timeout: 120, combined: true)
        return (r.status, String(decoding: r.stdout, as: UTF8.self))
    }

    /// Runs ffmpeg (quiet, overwriting) and fails with its output when it fails.
    static func ffmpeg(_ arguments: [String]) throws {
        try FFmpegCLI.ffmpeg(arguments)
    }

    /// Loads an ffmpeg `-f rawvideo -pix_fmt rgba` file of `size`.
    static func loadRawRGBA(_ url: URL, size: PixelSize) throws -> RGBAImage {
        let data = try Data(contentsOf: url)
        guard data.count == size.width * size.height * 4 else {
            throw RenderError(call: "loadRawRGBA(\(url.path))",
                              reason: "\(data.count) bytes, expected \(size.width * size.height * 4) for \(size)")
        }
        return RGBAImage(size: size, pixels: [UInt8](data))
    }

    /// Writes an image as raw RGBA (readable by ffmpeg with `-f rawvideo -pix_fmt rgba -s WxH`).
    static func saveRawRGBA(_ image: RGBAImage, to url: URL) throws {
        try Data(image.pixels).write(to: url)
    }

    /// Runs ffmpeg on a raw RGBA picture with a filter chain and loads the result of `outSize`.
    static func ffmpegFilter(_ image: RGBAImage, filter: String, outSize: PixelSize, in dir: URL) throws -> RGBAImage {
        let input = dir.appendingPathComponent("in-\(UUID().uuidString).rgba")
        let output = dir.appendingPathComponent("out-\(UUID().uuidString).rgba")
        try saveRawRGBA(image, to: input)
        try ffmpeg(["-f", "rawvideo", "-pix_fmt", "rgba", "-s", image.size.description, "-i", input.path,
                    "-vf", filter, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", output.path])
        return try loadRawRGBA(output, size: outSize)
    }

    /// A smooth, photographic-ish test picture made by ffmpeg (blurred testsrc2).
    static func smoothPicture(size: PixelSize, in dir: URL) throws -> RGBAImage {
        let output = dir.appendingPathComponent("smooth-\(size).rgba")
        try ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(size.description):rate=1,gblur=sigma=1",
                    "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", output.path])
        return try loadRawRGBA(output, size: size)
    }

    /// PSNR in dB over the RGB channels (infinity for identical pictures).
    static func psnr(_ a: RGBAImage, _ b: RGBAImage) -> Double {
        precondition(a.size == b.size, "psnr: sizes differ")
        return ImageCompare.psnrRGB(a.pixels, b.pixels)
    }

    /// The RGBA of pixel (x, y).
    static func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.size.width + x) * 4
        return Array(image.pixels[i..<i + 4])
    }

    /// A deterministic, non-smooth opaque picture (every pixel differs from its neighbours).
    static func noisePicture(size: PixelSize, seed: UInt32 = 1) -> RGBAImage {
        var state = seed
        var pixels = [UInt8](repeating: 255, count: size.width * size.height * 4)
        for i in 0..<size.width * size.height {
            for c in 0..<3 {
                state = state &* 1_664_525 &+ 1_013_904_223
                pixels[i * 4 + c] = UInt8(truncatingIfNeeded: state >> 24)
            }
        }
        return RGBAImage(size: size, pixels: pixels)
    }

    /// Resident memory of this process in bytes, from /proc/self/statm.
    static func residentBytes() throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else {
            throw RenderError(call: "read /proc/self/statm", reason: "unexpected content \(text)")
        }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The top-level Shaders/ folder of the source tree.
    static var shaderDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Shaders")
    }
}
