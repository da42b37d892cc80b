import KioskCore

/// A helper's frame as kiosk's pictures hold them: wl_shm's B, G, R, A bytes (premultiplied alpha, or no alpha for
/// XRGB8888) made straight RGBA, rows tightly packed.
enum WebFramePixels {
    /// Converts `header.height` rows of `source` (`header.stride` bytes apart) into an `RGBAImage`.
    static func image(_ source: UnsafeRawBufferPointer, header: WebFrameHeader) -> RGBAImage {
        let width = Int(header.width), height = Int(header.height), stride = Int(header.stride)
        let opaque = header.format == 1
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                var s = y * stride, d = y * width * 4
                for _ in 0..<width {
                    let b = source[s], g = source[s + 1], r = source[s + 2]
                    let a = opaque ? 255 : source[s + 3]
                    if a == 255 || a == 0 {
                        out[d] = r; out[d + 1] = g; out[d + 2] = b; out[d + 3] = a
                    } else {
                        out[d] = unpremultiply(r, a); out[d + 1] = unpremultiply(g, a); out[d + 2] = unpremultiply(b, a)
                        out[d + 3] = a
                    }
                    s += 4
                    d += 4
                }
            }
        }
        return RGBAImage(size: PixelSize(width: width, height: height), pixels: pixels)
    }

    private static func unpremultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
        UInt8(min(255, (Int(c) * 255 + Int(a) / 2) / Int(a)))
    }
}
