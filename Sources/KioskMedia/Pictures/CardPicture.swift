internal import CFFmpeg
import KioskCore

/// The picture behind a sound file's now-playing card: one opaque RGBA image the size of the canvas. The artwork
/// (or the placeholder) scaled to cover the canvas, strongly blurred and darkened so white text reads on it; over
/// it, the artwork scaled to fit the card's square, centred in it, in a soft dark shadow. The card's texts and
/// bar are overlays drawn over this picture.
///
/// The blur is cheap at any canvas size: the cover is cropped and shrunk to a sixteenth of the canvas, blurred
/// there with a few box passes, darkened, and scaled back up by swscale. That last step is most of the time; it
/// is bilinear (half bicubic's time), which on a picture blurred this much is as smooth to the eye.
public enum CardPicture {
    /// The background's brightness, of the artwork's.
    public static let darkening = 0.4
    /// The background is blurred at the canvas size divided by this, then scaled back up.
    public static let backgroundShrink = 16
    /// Box radius of the blur at the shrunk size, of its longer side (three passes: close to a Gaussian whose
    /// sigma is about the radius, 6 % of the canvas's longer side).
    public static let blurRadius = 0.06
    /// Box passes of the blur.
    public static let blurPasses = 3
    /// How far the shadow reaches beyond the artwork, of the square's side.
    public static let shadowWidth = 0.04
    /// How much darker the background is right at the artwork's edge (0 none, 1 black); it fades out from there.
    public static let shadowStrength = 0.55

    /// The card picture on `canvas` for `art`, fitted into `square` (whole pixels of the canvas); errors name
    /// `path`.
    public static func make(art: RGBAImage, canvas: PixelSize, square: PixelRect, path: String) throws(MediaError) -> RGBAImage {
        guard canvas.width > 0, canvas.height > 0, art.size.width > 0, art.size.height > 0 else {
            throw MediaError(path: path, reason: "empty card picture (\(art.size) on \(canvas))")
        }
        var picture = try background(art, canvas: canvas, path: path)
        let fit = fitted(art.size, in: square.size)
        let place = PixelRect(x: square.x + (square.width - fit.width) / 2, y: square.y + (square.height - fit.height) / 2,
                              width: fit.width, height: fit.height)
        shade(&picture, around: place, reach: shadowReach(square))
        paste(try scale(art, to: fit, path: path), into: &picture, at: place)
        return picture
    }

    /// How many pixels the shadow reaches beyond the artwork in `square`.
    public static func shadowReach(_ square: PixelRect) -> Int {
        max(1, Int(saturating: Double(min(square.width, square.height)) * shadowWidth))
    }

    /// `size` scaled to fit `box` keeping its shape (enlarged or shrunk), each side rounded, at least one pixel.
    public static func fitted(_ size: PixelSize, in box: PixelSize) -> PixelSize {
        let s = min(Double(box.width) / Double(max(1, size.width)), Double(box.height) / Double(max(1, size.height)))
        return PixelSize(width: min(box.width, max(1, Int(saturating: Double(size.width) * s))),
                         height: min(box.height, max(1, Int(saturating: Double(size.height) * s))))
    }

    /// `art` covering `canvas` (its middle cropped to the canvas's shape), blurred and darkened, opaque.
    static func background(_ art: RGBAImage, canvas: PixelSize, path: String) throws(MediaError) -> RGBAImage {
        let crop = coverCrop(art.size, shape: canvas)
        let small = PixelSize(width: max(1, canvas.width / backgroundShrink), height: max(1, canvas.height / backgroundShrink))
        var shrunk = try shrink(art, crop: crop, to: small, path: path)
        let radius = max(1, Int(saturating: Double(max(small.width, small.height)) * blurRadius))
        shrunk = BoxBlur.blur(shrunk, radius: radius, passes: blurPasses)
        shrunk.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                for c in 0..<3 { p[i + c] = UInt8(clamping: Int(saturating: Double(p[i + c]) * darkening + 0.5, rounding: .towardZero)) }
                p[i + 3] = 255
                i += 4
            }
        }
        return try enlarge(shrunk, to: canvas, path: path)
    }

    /// The middle part of a picture of `size` with the shape of `shape`, in whole pixels.
    static func coverCrop(_ size: PixelSize, shape: PixelSize) -> PixelRect {
        let wanted = shape.aspect
        var w = size.width, h = size.height
        if size.aspect > wanted {
            w = min(size.width, max(1, Int(saturating: Double(h) * wanted)))
        } else {
            h = min(size.height, max(1, Int(saturating: Double(w) / wanted)))
        }
        return PixelRect(x: (size.width - w) / 2, y: (size.height - h) / 2, width: w, height: h)
    }

    /// The `crop` part of `art` scaled to `size` by swscale (area averaging when it shrinks a lot), read in place.
    private static func shrink(_ art: RGBAImage, crop: PixelRect, to size: PixelSize, path: String) throws(MediaError) -> RGBAImage {
        do {
            return try art.pixels.withUnsafeBufferPointer { buf in
                let start = buf.baseAddress.map { $0 + (crop.y * art.size.width + crop.x) * 4 }
                return try PixelConversion.toRGBA(path: path, planes: [start], strides: [Int32(art.size.width * 4)],
                                                  size: crop.size, format: AV_PIX_FMT_RGBA, target: size)
            }
        } catch {
            throw MediaError(path: path, reason: "card background: \(error)")
        }
    }

    /// `image` scaled up to `size` bilinearly by swscale, its error naming `path`.
    private static func enlarge(_ image: RGBAImage, to size: PixelSize, path: String) throws(MediaError) -> RGBAImage {
        do {
            return try image.pixels.withUnsafeBufferPointer { buf in
                try PixelConversion.toRGBA(path: path, planes: [buf.baseAddress], strides: [Int32(image.size.width * 4)],
                                           size: image.size, format: AV_PIX_FMT_RGBA, target: size, filter: Int32(SWS_BILINEAR))
            }
        } catch {
            throw MediaError(path: path, reason: "card background: \(error)")
        }
    }

    /// `image` scaled to `size` (the Scaler's swscale), its error naming `path`.
    private static func scale(_ image: RGBAImage, to size: PixelSize, path: String) throws(MediaError) -> RGBAImage {
        do {
            return try Scaler.scale(image, to: size)
        } catch {
            throw MediaError(path: path, reason: "card picture: \(error)")
        }
    }

    /// Darkens `picture` just outside `rect`, most at its edge and fading to nothing `reach` pixels out.
    static func shade(_ picture: inout RGBAImage, around rect: PixelRect, reach: Int) {
        let w = picture.size.width, h = picture.size.height
        let x0 = max(0, rect.x - reach), x1 = min(w, rect.maxX + reach)
        let y0 = max(0, rect.y - reach), y1 = min(h, rect.maxY + reach)
        guard x0 < x1, y0 < y1 else { return }
        picture.pixels.withUnsafeMutableBufferPointer { p in
            for y in y0..<y1 {
                let dy = Double(max(rect.y - y, 0, y - (rect.maxY - 1)))
                // Beside the rectangle, only the bands left and right of it.
                let columns = dy > 0 ? [x0..<x1] : [x0..<min(x1, max(x0, rect.x)), min(x1, max(x0, rect.maxX))..<x1]
                for x in columns.joined() {
                    let dx = Double(max(rect.x - x, 0, x - (rect.maxX - 1)))
                    let d = (dx * dx + dy * dy).squareRoot() / Double(reach)
                    guard d > 0, d < 1 else { continue }
                    let f = 1 - shadowStrength * (1 - d) * (1 - d)
                    let i = (y * w + x) * 4
                    for c in 0..<3 { p[i + c] = UInt8(clamping: Int(saturating: Double(p[i + c]) * f + 0.5, rounding: .towardZero)) }
                }
            }
        }
    }

    /// Draws `art` over `picture` with its top-left at `place`'s (blended by the art's alpha; the result stays
    /// opaque); what falls outside the picture is left out.
    static func paste(_ art: RGBAImage, into picture: inout RGBAImage, at place: PixelRect) {
        let w = picture.size.width, h = picture.size.height, aw = art.size.width
        let x0 = max(0, place.x), x1 = min(w, place.x + aw)
        let y0 = max(0, place.y), y1 = min(h, place.y + art.size.height)
        guard x0 < x1, y0 < y1 else { return }
        art.pixels.withUnsafeBufferPointer { a in
            picture.pixels.withUnsafeMutableBufferPointer { p in
                for y in y0..<y1 {
                    var i = (y * w + x0) * 4, j = ((y - place.y) * aw + (x0 - place.x)) * 4
                    for _ in x0..<x1 {
                        let alpha = Int(a[j + 3])
                        if alpha == 255 {
                            p[i] = a[j]; p[i + 1] = a[j + 1]; p[i + 2] = a[j + 2]
                        } else {
                            for c in 0..<3 { p[i + c] = UInt8((Int(a[j + c]) * alpha + Int(p[i + c]) * (255 - alpha) + 127) / 255) }
                        }
                        p[i + 3] = 255
                        i += 4
                        j += 4
                    }
                }
            }
        }
    }
}
