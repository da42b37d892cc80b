// The mosaic effect against a CPU reference computed here: tiles laid out from the canvas centre show the picture
// at their centre left of the split; right of it the picture is untouched. Works over any projection.
import KioskCore
@testable import KioskRender
import XCTest

final class RenderMosaicTests: RenderTestCase {
    /// Bilinear sample of `image` at pixel coordinate (x, y) (texel centres at integers), clamped to the edges.
    func bilinear(_ image: RGBAImage, _ x: Double, _ y: Double) -> [Double] {
        let w = image.size.width, h = image.size.height
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let fx = x - Double(x0), fy = y - Double(y0)
        func px(_ i: Int, _ j: Int) -> [Double] {
            let k = (min(max(j, 0), h - 1) * w + min(max(i, 0), w - 1)) * 4
            return (0..<3).map { Double(image.pixels[k + $0]) }
        }
        let a = px(x0, y0), b = px(x0 + 1, y0), c = px(x0, y0 + 1), d = px(x0 + 1, y0 + 1)
        return (0..<3).map { a[$0] * (1 - fx) * (1 - fy) + b[$0] * fx * (1 - fy) + c[$0] * (1 - fx) * fy + d[$0] * fx * fy }
    }

    /// The mosaic of `image` (shown 1:1 on a canvas of its size), computed on the CPU.
    func reference(_ image: RGBAImage, tile: Double, split: Double) -> RGBAImage {
        let w = image.size.width, h = image.size.height
        var out = image.pixels
        for y in 0..<h {
            for x in 0..<w where (Double(x) + 0.5) / Double(w) <= split {
                func centre(_ c: Double, _ size: Int) -> Double {
                    let half = Double(size) / 2
                    let p = ((c - half) / tile).rounded(.down) * tile + tile / 2 + half
                    return min(max(p, 0.5), Double(size) - 0.5)  // edge tiles sample inside the canvas
                }
                let sx = centre(Double(x) + 0.5, w), sy = centre(Double(y) + 0.5, h)
                let v = bilinear(image, sx - 0.5, sy - 0.5)
                for c in 0..<3 { out[(y * w + x) * 4 + c] = UInt8(min(255, max(0, v[c].rounded()))) }
            }
        }
        return RGBAImage(size: image.size, pixels: out)
    }

    func testMosaicMatchesTheCPUReference() throws {
        let dir = try RenderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let size = PixelSize(width: 96, height: 64)
        let smooth = try RenderTestSupport.smoothPicture(size: size, in: dir)
        let noise = RenderTestSupport.noisePicture(size: size)
        for picture in [smooth, noise] {
            for (tile, split) in [(8.0, 0.5), (5, 0.3), (16, 1), (3, 0.75)] {
                let m = MosaicSettings(tile: tile, split: split, bar: 0)  // the bar is RenderMosaicBarTests'
                let out = try render(picture, effect: MosaicEffect(settings: m))
                let ref = reference(picture, tile: tile, split: split)
                let db = RenderTestSupport.psnr(out, ref)
                XCTAssertGreaterThanOrEqual(db, 40, "tile \(tile) split \(split): \(db) dB")
                // Right of the split: exactly the picture.
                for y in stride(from: 0, to: size.height, by: 7) {
                    for x in 0..<size.width where (Double(x) + 0.5) / Double(size.width) > split {
                        XCTAssertEqual(RenderTestSupport.pixel(out, x, y), RenderTestSupport.pixel(picture, x, y), "(\(x), \(y))")
                    }
                }
            }
        }
    }

    func testSplitZeroLeavesThePictureAndTileChangesNeedNoNewProgram() throws {
        let picture = RenderTestSupport.noisePicture(size: PixelSize(width: 40, height: 30))
        XCTAssertEqual(try render(picture, effect: MosaicEffect(settings: MosaicSettings(tile: 8, split: 0, bar: 0))), picture)
        // Animated values are uniforms: drawing with other values reuses the program.
        let a = try render(picture, effect: MosaicEffect(settings: MosaicSettings(tile: 4, split: 1)))
        let b = try render(picture, effect: MosaicEffect(settings: MosaicSettings(tile: 10, split: 0.6)))
        XCTAssertNotEqual(a, b)
    }

    func testMosaicOverASphereProjectionRepeatsTheTileCentre() throws {
        let dir = try RenderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let eq = try RenderTestSupport.smoothPicture(size: PixelSize(width: 256, height: 128), in: dir)
        let canvas = PixelSize(width: 80, height: 60)
        let pass = EquirectProjection(view: SphereView(yaw: 40, pitch: 10, hFOV: 90, canvas: canvas),
                                      projection: ItemProjection(kind: .equirect))
        let plain = try render([(eq, pass, 1)], screen: canvas)
        let tile = 5.0  // odd: tile centres are pixel centres, so the reference is the plain view's pixel there
        let mosaic = try render(eq, pass: pass, canvas: canvas, effect: MosaicEffect(settings: MosaicSettings(tile: tile, split: 1, bar: 0)))
        var expected = plain.pixels
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let sx = Int(((Double(x) + 0.5 - 40) / tile).rounded(.down) * tile + 2.5 + 40 - 0.5)
                let sy = Int(((Double(y) + 0.5 - 30) / tile).rounded(.down) * tile + 2.5 + 30 - 0.5)
                let s = (min(max(sy, 0), canvas.height - 1) * canvas.width + min(max(sx, 0), canvas.width - 1)) * 4
                for c in 0..<4 { expected[(y * canvas.width + x) * 4 + c] = plain.pixels[s + c] }
            }
        }
        XCTAssertGreaterThanOrEqual(RenderTestSupport.psnr(mosaic, RGBAImage(size: canvas, pixels: expected)), 40)
    }

    /// Renders `image` 1:1 (fill) with `effect`.
    func render(_ image: RGBAImage, effect: any ShaderEffect) throws -> RGBAImage {
        try render(image, pass: FlatPass(transform: .identity), canvas: image.size, effect: effect)
    }

    /// Renders `image` through `pass` with `effect` on a canvas of `canvas` size.
    func render(_ image: RGBAImage, pass: any ShaderPass, canvas: PixelSize, effect: any ShaderEffect) throws -> RGBAImage {
        let gl = try gl()
        let texture = try Texture(context: gl, image: image)
        let target = try OffscreenTarget(context: gl, size: canvas)
        try XCTUnwrap(renderer).draw(RenderFrame(background: .black,
                                                 layers: [RenderLayer(texture: texture, pass: pass, opacity: 1, effect: effect)]),
                                     into: target)
        return try target.readPixels()
    }
}
