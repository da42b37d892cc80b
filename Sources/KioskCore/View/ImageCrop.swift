/// Cutting part of a decoded picture out (the flat crop of one eye of stereo content).

extension RGBAImage {
    /// The part of the picture inside `rect` (fractions of the picture), rounded to whole pixels, at least 1×1.
    public func cropped(to rect: UnitRect) -> RGBAImage {
        cropped(to: PixelRect(x: Int(saturating: rect.x * Double(size.width)), y: Int(saturating: rect.y * Double(size.height)),
                              width: Int(saturating: rect.width * Double(size.width)),
                              height: Int(saturating: rect.height * Double(size.height))))
    }
}

extension RGBAImage {
    /// The part of the picture inside `rect` (pixels; clipped to the picture, at least 1×1): one output's part of a
    /// span's canvas.
    public func cropped(to rect: PixelRect) -> RGBAImage {
        let x0 = min(max(0, rect.x), size.width - 1), y0 = min(max(0, rect.y), size.height - 1)
        let w = min(max(1, rect.width), size.width - x0), h = min(max(1, rect.height), size.height - y0)
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

    /// `images` left to right, top-aligned, on black (opaque) where one is shorter than the tallest: several
    /// screens' pictures in one (`kiosk snapshot --side-by-side`).
    public static func sideBySide(_ images: [RGBAImage]) -> RGBAImage {
        let width = images.reduce(0) { $0 + $1.size.width }, height = images.map(\.size.height).max() ?? 0
        guard width > 0, height > 0 else { return RGBAImage(size: PixelSize(width: 1, height: 1), fill: (0, 0, 0, 255)) }
        var out = RGBAImage(size: PixelSize(width: width, height: height), fill: (0, 0, 0, 255))
        var x0 = 0
        for image in images {
            let w = image.size.width
            for row in 0..<image.size.height {
                let from = row * w * 4, to = (row * width + x0) * 4
                out.pixels.replaceSubrange(to..<to + w * 4, with: image.pixels[from..<from + w * 4])
            }
            x0 += w
        }
        return out
    }
}
