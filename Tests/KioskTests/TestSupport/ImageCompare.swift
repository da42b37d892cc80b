import Foundation
import KioskCore

/// Picture comparisons for tests: PSNR over the RGB bytes of RGBA pictures, alpha left out.
enum ImageCompare {
    /// PSNR in dB over every byte of two equal-length buffers without alpha (grey or RGB; infinity when
    /// identical). RGBA goes through `psnrRGB`.
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count && !a.isEmpty, "psnr: buffers differ in size")
        var sum = 0.0
        for i in 0..<a.count {
            let d = Double(a[i]) - Double(b[i])
            sum += d * d
        }
        let mse = sum / Double(a.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// PSNR over the colour channels of two pictures of the same size (alpha, always equal on opaque pictures,
    /// would only pad the score); -infinity when sizes differ.
    static func psnr(_ a: RGBAImage, _ b: RGBAImage) -> Double {
        guard a.size == b.size else { return -.infinity }
        return psnrRGB(a.pixels, b.pixels)
    }

    /// PSNR in dB over the colour channels only of two equal-length RGBA buffers (alpha ignored).
    static func psnrRGB(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count && !a.isEmpty, "psnrRGB: buffers differ in size")
        var sum = 0.0
        var i = 0
        while i + 3 < a.count {
            for c in 0..<3 {
                let d = Double(a[i + c]) - Double(b[i + c])
                sum += d * d
            }
            i += 4
        }
        let mse = sum / Double(a.count / 4 * 3)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
