// Helpers for the Text*Tests: drawing text through the real renderer, decoding reference pictures, ink boxes and
// coverage overlap.
import Foundation
import KioskCore
import KioskMedia
@testable import KioskRender
import KioskText
import XCTest

enum TextTestSupport {
    /// DejaVu Sans from fonts-dejavu-core.
    static let dejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// HarfBuzz's own renderer.
    static let hbView = "/usr/bin/hb-view"
    /// The OCR engine.
    static let tesseract = "/usr/bin/tesseract"

    /// The still picture in an image file, at its own size.
    static func decode(_ path: String) throws -> RGBAImage {
        let item = try FFmpegImageDecoder.decode(path: path, targetSize: { $0 })
        guard case .still(let image) = item.picture else {
            throw MediaError(path: path, reason: "not a still picture")
        }
        return image
    }

    /// The picture scaled to cover `size` and cropped to it (centre), through ffmpeg's scaler.
    static func fitted(_ path: String, size: PixelSize, in dir: URL) throws -> RGBAImage {
        let output = dir.appendingPathComponent("fitted-\(UUID().uuidString).rgba")
        try FFmpegCLI.ffmpeg(["-i", path, "-vf", "scale=\(size.width):\(size.height):force_original_aspect_ratio=increase,"
                              + "crop=\(size.width):\(size.height)", "-frames:v", "1", "-f", "rawvideo",
                              "-pix_fmt", "rgba", output.path])
        return try RenderTestSupport.loadRawRGBA(output, size: size)
    }

    /// Whether each pixel's red channel is at least half (text drawn white on black: ink).
    static func ink(_ image: RGBAImage) -> [Bool] {
        stride(from: 0, to: image.pixels.count, by: 4).map { image.pixels[$0] >= 128 }
    }

    /// The bounding box of the `true` pixels of a `size` mask; nil when none.
    static func box(_ mask: [Bool], size: PixelSize) -> PixelRect? {
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        for y in 0..<size.height {
            for x in 0..<size.width where mask[y * size.width + x] {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
            }
        }
        return x0 <= x1 ? PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1) : nil
    }

    /// Intersection over union of two ink masks, each taken relative to its own ink box's top-left corner.
    static func alignedIoU(_ a: RGBAImage, _ b: RGBAImage) -> (iou: Double, boxA: PixelRect?, boxB: PixelRect?) {
        let ma = ink(a), mb = ink(b)
        guard let ba = box(ma, size: a.size), let bb = box(mb, size: b.size) else { return (0, nil, nil) }
        let w = max(ba.width, bb.width), h = max(ba.height, bb.height)
        var both = 0, either = 0
        for y in 0..<h {
            for x in 0..<w {
                let inA = x < ba.width && y < ba.height && ma[(ba.y + y) * a.size.width + ba.x + x]
                let inB = x < bb.width && y < bb.height && mb[(bb.y + y) * b.size.width + bb.x + x]
                if inA && inB { both += 1 }
                if inA || inB { either += 1 }
            }
        }
        return (either == 0 ? 0 : Double(both) / Double(either), ba, bb)
    }

    /// Black where every colour channel of `image` is at least `minimum` (the white fill of text), white elsewhere.
    static func keyed(_ image: RGBAImage, minimum: UInt8) -> RGBAImage {
        var out = image.pixels
        for i in stride(from: 0, to: out.count, by: 4) {
            let v: UInt8 = min(out[i], out[i + 1], out[i + 2]) >= minimum ? 0 : 255
            out[i] = v; out[i + 1] = v; out[i + 2] = v; out[i + 3] = 255
        }
        return RGBAImage(size: image.size, pixels: out)
    }

    /// `image` cropped to `rect`; parts of `rect` outside the picture are opaque `fill` (black by default).
    static func crop(_ image: RGBAImage, _ rect: PixelRect, fill: UInt8 = 0) -> RGBAImage {
        var out = [UInt8](repeating: fill, count: rect.width * rect.height * 4)
        for y in 0..<rect.height {
            for x in 0..<rect.width {
                let sx = rect.x + x, sy = rect.y + y, i = (y * rect.width + x) * 4
                out[i + 3] = 255
                guard sx >= 0, sy >= 0, sx < image.size.width, sy < image.size.height else { continue }
                let j = (sy * image.size.width + sx) * 4
                for c in 0..<4 { out[i + c] = image.pixels[j + c] }
            }
        }
        return RGBAImage(size: rect.size, pixels: out)
    }
}

extension RenderTestCase {
    /// Draws `texts` over `picture` (shown 1:1 when given) or over `background`, on a `canvas`, and reads it back.
    func drawText(_ texts: [TextDrawing], canvas: PixelSize, picture: RGBAImage? = nil,
                  background: RGBColor = .black) throws -> RGBAImage {
        let gl = try gl()
        let layers = try picture.map { [RenderLayer(texture: try Texture(context: gl, image: $0), pass: FlatPass(transform: .identity))] } ?? []
        let target = try OffscreenTarget(context: gl, size: canvas)
        let frame = RenderFrame(background: background, layers: layers, overlays: texts.map { RenderOverlay(text: $0) })
        try XCTUnwrap(renderer).draw(frame, into: target)
        return try target.readPixels()
    }
}
