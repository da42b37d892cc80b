/// Cutting part of a decoded picture out (the flat crop of one eye of stereo content).

extension RGBAImage {
    /// The part of the picture inside `rect` (fractions of the picture), rounded to whole pixels, at least 1×1.
    public func cropped(to rect: UnitRect) -> RGBAImage {
        let x0 = min(max(0, Int(saturating: rect.x * Double(size.width))), size.width - 1)
        let y0 = min(max(0, Int(saturating: rect.y * Double(size.height))), size.height - 1)
        let w = min(max(1, Int(saturating: rect.width * Double(size.width))), size.width - x0)
        let h = min(max(1, Int(saturating: rect.height * Double(size.height))), size.height - y0)
        if x0 == 0, y0 == 0, w == size.width, h == size.height { return self }
        var out = [UInt8](repeating: 0, count: w * h * 4)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for row in 0..<h {
                    let s = ((y0 + row) * size.width + x0) * 4
                    for i in 0..<(w * 4) { dst[row * w * 4 + i] = src[s + i] }
                }
            }
        }
        return RGBAImage(size: PixelSize(width: w, height: h), pixels: out)
    }
}
