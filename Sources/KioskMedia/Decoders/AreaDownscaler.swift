import KioskCore

/// A streaming area (box) downscale of RGBA rows: source rows go in top to bottom in bands, and each output row is
/// finished as soon as the source rows under it have arrived, so only the output and two rows of accumulators are
/// held, never the source picture. Each output pixel is the coverage-weighted mean of the source pixels it covers
/// (what swscale's SWS_AREA computes for a downscale); alpha is made opaque, or averaged the same way as the colours
/// when `alpha` is asked for (straight, not premultiplied, as swscale does).
struct AreaDownscaler {
    /// The size of the rows that go in.
    let source: PixelSize
    /// The size that comes out (at most `source` in each axis).
    let target: PixelSize
    /// Whether the source's alpha is kept (averaged); else the output is opaque.
    let alpha: Bool
    /// The picture so far: `target`, RGBA; complete once `isComplete`.
    private(set) var pixels: [UInt8]
    /// Bytes of working memory besides the output: the horizontal taps and the two accumulator rows.
    var workingBytes: Int { (tapFirst.count + tapCount.count) * MemoryLayout<Int>.stride
                            + (weights.count + column.count + accumulator.count) * MemoryLayout<Float>.stride }
    /// Whether every source row has gone in.
    var isComplete: Bool { sourceRow == source.height }

    // Output column x covers the source pixels tapFirst[x] ..< tapFirst[x] + tapCount[x], whose shares of it are
    // weights[tapOffset[x] ...]: the overlap of pixel [i, i+1) with [x, x+1) * source.width / target.width, over
    // source.width / target.width, so they sum to 1. Rows work the same way, computed as they arrive.
    private var tapFirst: [Int]
    private var tapCount: [Int]
    private var weights: [Float]
    /// One source row reduced to the target width (RGB, or RGBA with `alpha`).
    private var column: [Float]
    /// The output row being filled (as `column`), already weighted.
    private var accumulator: [Float]
    private var sourceRow = 0
    private var outputRow = 0

    /// A downscaler from `source` to `target`; both at least 1×1 and `target` no larger than `source`. With
    /// `alpha`, the source rows' alpha is averaged into the output's; without, the output is opaque.
    init(source: PixelSize, target: PixelSize, alpha: Bool = false) {
        precondition(target.width >= 1 && target.height >= 1 && target.width <= source.width && target.height <= source.height,
                     "AreaDownscaler: \(source) to \(target) is not a downscale")
        self.source = source
        self.target = target
        self.alpha = alpha
        pixels = [UInt8](repeating: 255, count: target.width * target.height * 4)
        (tapFirst, tapCount, weights) = Self.taps(from: source.width, to: target.width)
        column = [Float](repeating: 0, count: target.width * (alpha ? 4 : 3))
        accumulator = [Float](repeating: 0, count: target.width * (alpha ? 4 : 3))
    }

    /// The horizontal taps: for each output column, its first source pixel, how many, and their weights (flattened).
    private static func taps(from s: Int, to t: Int) -> ([Int], [Int], [Float]) {
        var first = [Int](), count = [Int](), weights = [Float]()
        first.reserveCapacity(t)
        count.reserveCapacity(t)
        for x in 0..<t {
            // In units of 1/t source pixels: the output column is [x*s, (x+1)*s), source pixel i is [i*t, (i+1)*t).
            let lo = x * s, hi = (x + 1) * s
            let start = lo / t, end = (hi + t - 1) / t
            first.append(start)
            count.append(end - start)
            for i in start..<end {
                weights.append(Float(min(hi, (i + 1) * t) - max(lo, i * t)) / Float(s))
            }
        }
        return (first, count, weights)
    }

    /// Takes the next `rows` source rows (RGBA, `stride` bytes apart) from `base`; rows past the source's height are
    /// ignored.
    mutating func add(_ base: UnsafePointer<UInt8>, rows: Int, stride: Int) {
        if source == target {  // nothing to reduce (a picture decoded at its target size): rows are copied
            let row = target.width * 4
            pixels.withUnsafeMutableBufferPointer { out in
                guard let dst = out.baseAddress else { return }
                for r in 0..<min(rows, source.height - sourceRow) {
                    (dst + (sourceRow + r) * row).update(from: base + r * stride, count: row)
                }
            }
            sourceRow += min(rows, source.height - sourceRow)
            return
        }
        for r in 0..<min(rows, source.height - sourceRow) {
            reduceRow(base + r * stride)
            // Source row y is [y*t, (y+1)*t) in units of 1/t rows; output row o is [o*s, (o+1)*s), with s >= t, so a
            // source row reaches into at most two output rows.
            let s = source.height, t = target.height
            let lo = sourceRow * t, hi = lo + t
            let split = (outputRow + 1) * s
            accumulate(Float(min(hi, split) - lo) / Float(s))
            if hi >= split {
                emitRow()
                if hi > split { accumulate(Float(hi - split) / Float(s)) }
            }
            sourceRow += 1
        }
    }

    /// Reduces one RGBA source row into `column`.
    private mutating func reduceRow(_ row: UnsafePointer<UInt8>) {
        let channels = alpha ? 4 : 3, keepsAlpha = alpha
        column.withUnsafeMutableBufferPointer { out in
            tapFirst.withUnsafeBufferPointer { first in
                tapCount.withUnsafeBufferPointer { count in
                    weights.withUnsafeBufferPointer { w in
                        var k = 0
                        for x in 0..<out.count / channels {
                            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
                            var p = row + first[x] * 4
                            for _ in 0..<count[x] {
                                let weight = w[k]
                                r += weight * Float(p[0])
                                g += weight * Float(p[1])
                                b += weight * Float(p[2])
                                if keepsAlpha { a += weight * Float(p[3]) }
                                p += 4
                                k += 1
                            }
                            out[x * channels] = r
                            out[x * channels + 1] = g
                            out[x * channels + 2] = b
                            if keepsAlpha { out[x * channels + 3] = a }
                        }
                    }
                }
            }
        }
    }

    /// Adds `column` times `weight` into the output row being filled.
    private mutating func accumulate(_ weight: Float) {
        guard weight > 0 else { return }
        column.withUnsafeBufferPointer { c in
            accumulator.withUnsafeMutableBufferPointer { a in
                for i in 0..<a.count { a[i] += weight * c[i] }
            }
        }
    }

    /// Writes the finished output row, rounded, and starts the next one.
    private mutating func emitRow() {
        guard outputRow < target.height else { return }
        let start = outputRow * target.width * 4
        let channels = alpha ? 4 : 3
        accumulator.withUnsafeMutableBufferPointer { a in
            pixels.withUnsafeMutableBufferPointer { out in
                for x in 0..<target.width {
                    for c in 0..<channels {
                        out[start + x * 4 + c] = UInt8(clamping: Int(saturating: min(255, max(0, a[x * channels + c] + 0.5)), rounding: .towardZero))
                        a[x * channels + c] = 0
                    }
                }
            }
        }
        outputRow += 1
    }
}
