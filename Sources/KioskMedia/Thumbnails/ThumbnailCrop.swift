import KioskCore

/// Where a grid tile's square comes from: the centred square of the part of a picture that is shown (one eye of
/// a stereo pair, else all of it), measured as it is shown, so a half-width eye is unsqueezed before it is cut.
struct ThumbnailCrop: Sendable {
    /// The part of the picture that is shown, as fractions of it.
    let eye: UnitRect
    /// How much wider (`x`) or taller (`y`) one stored pixel of the eye is shown: 2 across a half-width eye.
    let stretch: (x: Double, y: Double)

    /// The crop of the eye `eye` of a picture packed as `stereo` (mono: the whole picture).
    init(stereo: StereoLayout, eye: Eye) {
        self.eye = stereo.eyeRect(eye)
        let shown = stereo.unsqueezed(eye: PixelSize(width: 1, height: 1))
        stretch = (Double(shown.width), Double(shown.height))
    }

    /// The whole picture, unstretched (cover art, placeholders).
    static let whole = ThumbnailCrop(stereo: .mono, eye: .left)

    /// The square's size in a picture of `size`, in stored pixels, before rounding.
    private func squareSize(in size: PixelSize) -> (width: Double, height: Double) {
        let ew = eye.width * Double(size.width), eh = eye.height * Double(size.height)
        let shown = min(ew * stretch.x, eh * stretch.y)
        return (min(ew, shown / stretch.x), min(eh, shown / stretch.y))
    }

    /// The centred square of the eye in a picture of `size`, in its pixels (a stretched axis holds fewer pixels
    /// than the square is shown wide); at least 1×1 and inside the picture.
    func square(in size: PixelSize) -> PixelRect {
        let (w, h) = squareSize(in: size)
        let width = min(size.width, max(1, Int(saturating: w)))
        let height = min(size.height, max(1, Int(saturating: h)))
        let cx = (eye.x + eye.width / 2) * Double(size.width), cy = (eye.y + eye.height / 2) * Double(size.height)
        // Half a pixel left over goes to the right and bottom, as ffmpeg's crop filter centres (it truncates).
        let x = min(size.width - width, max(0, Int(saturating: cx - Double(width) / 2, rounding: .down)))
        let y = min(size.height - height, max(0, Int(saturating: cy - Double(height) / 2, rounding: .down)))
        return PixelRect(x: x, y: y, width: width, height: height)
    }

    /// The size to decode a picture of `full` size at so that its square still covers `side`×`side` pixels
    /// (never larger than `full`): the least decode that loses no detail the tile shows. Rounded to the nearest
    /// pixel, as ffmpeg's scale filter sizes a cover, so a square that fills an axis is exactly `side` across.
    func decodeSize(full: PixelSize, side: Int) -> PixelSize {
        let (w, h) = squareSize(in: full)
        let shortest = min(w, h)
        guard shortest > 0 else { return full }
        let f = min(1, Double(side) / shortest)
        return PixelSize(width: min(full.width, max(1, Int(saturating: Double(full.width) * f))),
                         height: min(full.height, max(1, Int(saturating: Double(full.height) * f))))
    }

    /// `image` cut to `rect` (which must lie inside it).
    static func cut(_ image: RGBAImage, to rect: PixelRect) -> RGBAImage {
        if rect == PixelRect(image.size) { return image }
        let row = rect.width * 4, stride = image.size.width * 4
        var out = [UInt8](repeating: 0, count: row * rect.height)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                guard let s = src.baseAddress, let d = dst.baseAddress else { return }
                for y in 0..<rect.height {
                    (d + y * row).update(from: s + (rect.y + y) * stride + rect.x * 4, count: row)
                }
            }
        }
        return RGBAImage(size: rect.size, pixels: out)
    }

    /// `image` made opaque: each pixel laid over black (the player's background), alpha 255.
    static func opaque(_ image: RGBAImage) -> RGBAImage {
        var pixels = image.pixels
        var i = 3
        var changed = false
        while i < pixels.count {
            let a = UInt16(pixels[i])
            if a != 255 {
                changed = true
                for c in 1...3 { pixels[i - c] = UInt8((UInt16(pixels[i - c]) * a + 127) / 255) }
                pixels[i] = 255
            }
            i += 4
        }
        return changed ? RGBAImage(size: image.size, pixels: pixels) : image
    }
}
