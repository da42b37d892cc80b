import KioskCore

/// A separable box blur of an RGBA picture's colour channels (alpha is left as it is). A few passes approach a
/// Gaussian; edges repeat the outermost pixel, so a blurred edge keeps its colour instead of fading to black.
enum BoxBlur {
    /// `image` blurred by `passes` horizontal and vertical box passes of `radius` pixels each side.
    static func blur(_ image: RGBAImage, radius: Int, passes: Int) -> RGBAImage {
        let w = image.size.width, h = image.size.height
        guard radius > 0, passes > 0, w > 0, h > 0 else { return image }
        var a = image.pixels
        var b = [UInt8](repeating: 0, count: a.count)
        for _ in 0..<passes {
            pass(from: a, to: &b, count: h, length: w, step: 4, lineStep: w * 4, radius: radius)
            pass(from: b, to: &a, count: w, length: h, step: w * 4, lineStep: 4, radius: radius)
        }
        return RGBAImage(size: image.size, pixels: a)
    }

    /// One box pass along `count` lines of `length` pixels: pixel `i` of line `l` is at byte
    /// `l * lineStep + i * step`. A running sum per channel; outside the line, the end pixels repeat.
    private static func pass(from src: [UInt8], to dst: inout [UInt8], count: Int, length: Int, step: Int,
                             lineStep: Int, radius: Int) {
        let window = 2 * radius + 1
        src.withUnsafeBufferPointer { s in
            dst.withUnsafeMutableBufferPointer { d in
                for line in 0..<count {
                    let base = line * lineStep
                    func at(_ i: Int) -> Int { base + min(max(i, 0), length - 1) * step }
                    for c in 0..<3 {
                        var sum = 0
                        for i in -radius...radius { sum += Int(s[at(i) + c]) }
                        for i in 0..<length {
                            d[base + i * step + c] = UInt8((sum + window / 2) / window)
                            sum += Int(s[at(i + radius + 1) + c]) - Int(s[at(i - radius) + c])
                        }
                    }
                    for i in 0..<length { d[base + i * step + 3] = s[base + i * step + 3] }
                }
            }
        }
    }
}
