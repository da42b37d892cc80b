// The YUV sampling stage against swscale's accurate conversion, on generated gradient frames.
import Foundation
import KioskCore
@testable import KioskRender
import XCTest

final class RenderYUVTests: RenderTestCase {
    /// A gradient frame: luma across, Cb down, Cr across, mostly inside the RGB gamut (where clipping cannot differ).
    static func gradient(_ layout: VideoPixelLayout, size: PixelSize, range: ColorRange) -> (VideoFrame, [UInt8]) {
        let shift = layout.bitDepth - 8
        let (ylo, yhi, clo, chi) = range == .limited ? (64, 192, 108, 148) : (60, 200, 104, 152)
        func code(_ lo: Int, _ hi: Int, _ t: Double) -> Int {
            let v = (Double(lo) + Double(hi - lo) * t) * Double(1 << shift)
            return Int(v.rounded())
        }
        func frac(_ i: Int, _ n: Int) -> Double { n > 1 ? Double(i) / Double(n - 1) : 0 }
        var planes: [VideoPlane] = []
        var raw: [UInt8] = []
        for p in 0..<layout.planeCount {
            let dims = layout.planeSize(p, of: size)
            var bytes: [UInt8] = []
            for y in 0..<dims.height {
                for x in 0..<dims.width {
                    var samples: [Int]
                    if p == 0 {
                        samples = [code(ylo, yhi, frac(x, dims.width))]
                    } else {
                        let cb = code(clo, chi, frac(y, dims.height)), cr = code(clo, chi, frac(x, dims.width))
                        samples = layout.planeCount == 2 ? [cb, cr] : [p == 1 ? cb : cr]
                    }
                    for s in samples {
                        switch layout {
                        case .yuv420p10: bytes += [UInt8(s & 0xFF), UInt8(s >> 8)]
                        case .p010: bytes += [UInt8((s << 6) & 0xFF), UInt8((s << 6) >> 8)]
                        default: bytes.append(UInt8(s))
                        }
                    }
                }
            }
            planes.append(VideoPlane(bytes: bytes, stride: dims.width * layout.bytesPerTexel(plane: p), rows: dims.height))
            raw += bytes
        }
        return (VideoFrame(pts: 0, size: size, layout: layout, matrix: .bt601, range: range, planes: planes), raw)
    }

    /// ffmpeg's name for a layout.
    static func ffmpegName(_ layout: VideoPixelLayout) -> String {
        switch layout {
        case .yuv420p10: return "yuv420p10le"
        case .p010: return "p010le"
        default: return layout.rawValue
        }
    }

    func testShaderMatchesSwscaleAccurateWithin2For601And709LimitedAndFull() throws {
        let gl = try gl()
        let r = try XCTUnwrap(renderer)
        let dir = try RenderTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let size = PixelSize(width: 64, height: 48)
        for layout in [VideoPixelLayout.yuv444p, .yuv420p, .yuv422p, .nv12, .yuv420p10, .p010] {
            for matrix in [ColorMatrix.bt601, .bt709] {
                for range in [ColorRange.limited, .full] {
                    var (frame, raw) = Self.gradient(layout, size: size, range: range)
                    frame.matrix = matrix
                    frame.siting = .left
                    let file = dir.appendingPathComponent("f.yuv")
                    try Data(raw).write(to: file)
                    let m = matrix == .bt601 ? "bt601" : "bt709"
                    let data = try FFmpegCLI.run("ffmpeg", [
                        "-v", "error", "-nostdin", "-f", "rawvideo", "-pix_fmt", Self.ffmpegName(layout), "-s", "\(size)",
                        "-i", file.path, "-vf",
                        "scale=in_color_matrix=\(m):in_range=\(range == .limited ? "tv" : "pc"):in_h_chr_pos=0:in_v_chr_pos=128:out_range=pc:flags=accurate_rnd+full_chroma_int+bilinear,format=rgba",
                        "-f", "rawvideo", "-"])
                    let reference = RGBAImage(size: size, pixels: [UInt8](data))
                    let texture = try VideoTexture(context: gl, frame: frame)
                    let target = try OffscreenTarget(context: gl, size: size)
                    try r.draw(RenderFrame(background: .black, layers: [RenderLayer(texture: texture, pass: FlatPass(transform: .identity))]),
                               into: target)
                    let shown = try target.readPixels()
                    var worst = 0
                    for i in 0..<shown.pixels.count where i % 4 != 3 {
                        let d = abs(Int(shown.pixels[i]) - Int(reference.pixels[i]))
                        worst = max(worst, d)
                    }
                    XCTAssertLessThanOrEqual(worst, 2, "\(layout) \(matrix) \(range): largest difference \(worst)/255")
                }
            }
        }
    }
}
