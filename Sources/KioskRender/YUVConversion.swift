/// The numbers the video sampling stages need for a frame: how to turn integer sample codes into RGB, where chroma
/// sits, and how displayed uv maps to stored uv.
import KioskCore

/// Uniform values of `yuv.frag` for one kind of frame.
public struct YUVConversion: Sendable, Equatable {
    /// Column-major mat3 from (Y', Pb, Pr) offsets to RGB, with the range's scale folded in.
    public var matrix: [Double]
    /// Subtracted from the scaled codes before the matrix (luma black, chroma zero).
    public var offset: (Double, Double, Double)
    /// Multiplies integer codes into the 0...1 scale the offsets are in.
    public var codeScale: Double

    /// Equality of the values.
    public static func == (a: YUVConversion, b: YUVConversion) -> Bool {
        a.matrix == b.matrix && a.offset == b.offset && a.codeScale == b.codeScale
    }

    /// The conversion for a frame's layout, matrix and range.
    public init(layout: VideoPixelLayout, matrix: ColorMatrix, range: ColorRange) {
        let bits = Double(layout.bitDepth)
        let step = layout == .p010 ? 64.0 : 1.0  // p010 holds its 10 bits in the high bits
        let (kr, kb) = matrix.weights
        let kg = 1 - kr - kb
        let ys: Double, cs: Double
        switch range {
        case .limited:
            // Codes in 8-bit units over 255: 16...235 luma, 16...240 chroma.
            codeScale = 1 / (255 * Double(1 << (Int(saturating: bits, rounding: .towardZero) - 8)) * step)
            offset = (16 / 255, 128 / 255, 128 / 255)
            ys = 255 / 219
            cs = 255 / 224
        case .full:
            let maxCode = Double((1 << Int(saturating: bits, rounding: .towardZero)) - 1)
            codeScale = 1 / (maxCode * step)
            let zero = Double(1 << (Int(saturating: bits, rounding: .towardZero) - 1)) / maxCode
            offset = (0, zero, zero)
            ys = 1
            cs = 1
        }
        self.matrix = [ys, ys, ys,
                       0, -cs * 2 * kb * (1 - kb) / kg, cs * 2 * (1 - kb),
                       cs * 2 * (1 - kr), -cs * 2 * kr * (1 - kr) / kg, 0]
    }

    /// Column-major mat3 taking displayed uv (x, y, 1) to the stored frame's uv for an orientation.
    public static func orientationMatrix(_ o: Orientation) -> [Double] {
        // stored.x = a*u + b*v + c, stored.y = d*u + e*v + f
        let (a, b, c, d, e, f): (Double, Double, Double, Double, Double, Double)
        switch o {
        case .up: (a, b, c, d, e, f) = (1, 0, 0, 0, 1, 0)
        case .upMirrored: (a, b, c, d, e, f) = (-1, 0, 1, 0, 1, 0)
        case .down: (a, b, c, d, e, f) = (-1, 0, 1, 0, -1, 1)
        case .downMirrored: (a, b, c, d, e, f) = (1, 0, 0, 0, -1, 1)
        case .leftMirrored: (a, b, c, d, e, f) = (0, 1, 0, 1, 0, 0)
        case .right: (a, b, c, d, e, f) = (0, 1, 0, -1, 0, 1)
        case .rightMirrored: (a, b, c, d, e, f) = (0, -1, 1, -1, 0, 1)
        case .left: (a, b, c, d, e, f) = (0, -1, 1, 1, 0, 0)
        }
        return [a, d, 0, b, e, 0, c, f, 1]
    }

    /// The shift of chroma uv for a frame: a quarter chroma texel right for left-sited subsampled chroma.
    public static func chromaShift(_ frame: VideoFrame) -> (Double, Double) {
        guard frame.siting == .left, frame.layout.planeCount > 1 else { return (0, 0) }
        let chroma = frame.layout.planeSize(1, of: frame.size)
        guard chroma.width < frame.size.width, chroma.width > 0 else { return (0, 0) }
        return (0.25 / Double(chroma.width), 0)
    }
}
