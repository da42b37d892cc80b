import Foundation
import KioskCore

/// What an audio-only file shows while it plays. Without overlays: its embedded cover art, or a generated
/// placeholder. With overlays: the picture behind the now-playing card, the size of the canvas (`CardPicture`).
/// It is a clip of one frame that lasts the file's length, so the player times and draws it like a video.
public final class SoundPicture: ClipSource, @unchecked Sendable {
    /// How the picture is made.
    public enum Look: Sendable, Equatable {
        /// The cover art scaled to fit the canvas (never enlarged), or a 480x270 placeholder: what shows when
        /// nothing is overlaid.
        case fitted
        /// The picture behind the now-playing card: canvas-sized, the artwork or the placeholder in the square
        /// `NowPlayingCard.Layout` puts within `safeArea` (canvas fractions), over a blurred, darkened copy.
        case card(safeArea: OverlayRect)

        /// The look that goes with `overlays`: the card when overlays show (its texts go over the picture), fitted
        /// with `--no-overlays`.
        public init(overlays: OverlaySettings) {
            self = overlays.enabled ? .card(safeArea: overlays.safeArea) : .fitted
        }
    }

    /// The picture shown.
    public let image: RGBAImage
    /// Whether `image` shows the file's embedded cover art (false: the placeholder).
    public let hasCoverArt: Bool
    /// Media seconds this playing starts at.
    public let startTime: Double
    /// The file's length (capped by `--video-max`).
    public let slotLength: Double
    private let lock = NSLock()
    private var taken = false

    /// The picture for `path` on `canvas` as `look` says, lasting `length` seconds. Cover art that cannot be
    /// read gives the placeholder, and one warning in `log`.
    public init(path: String, length: Double, canvas: PixelSize, look: Look = .fitted, startTime: Double = 0,
                log: Log? = nil) {
        switch look {
        case .fitted:
            let art = Self.coverArt(path, log: log) { full in
                let s = min(1, min(Double(canvas.width) / Double(max(1, full.width)), Double(canvas.height) / Double(max(1, full.height))))
                return PixelSize(width: max(1, Int(saturating: Double(full.width) * s, rounding: .towardZero)), height: max(1, Int(saturating: Double(full.height) * s, rounding: .towardZero)))
            }
            image = art ?? Self.placeholder(size: PixelSize(width: 480, height: 270))
            hasCoverArt = art != nil
        case .card(let safeArea):
            let square = NowPlayingCard.Layout.artworkPixels(canvas: canvas, safeArea: safeArea)
            let art = Self.coverArt(path, log: log) { CardPicture.fitted($0, in: square.size) }
            let card = Self.card(art: art, canvas: canvas, square: square, path: path, log: log)
            image = card.image
            hasCoverArt = card.hasCoverArt
        }
        self.startTime = startTime
        slotLength = max(0.05, length)
    }

    /// The file's cover art decoded to `targetSize(full size)` (never larger), nil when it has none or it cannot
    /// be read (then one warning).
    private static func coverArt(_ path: String, log: Log?, targetSize: (PixelSize) -> PixelSize) -> RGBAImage? {
        do {
            return try MediaFile.coverArt(path, targetSize: targetSize)
        } catch {
            log?.warn("\(path): cover art not shown: \((error as? MediaError)?.reason ?? "\(error)")")
            return nil
        }
    }

    /// The card picture for `art` (nil: the placeholder in the square). Should the art's card fail, the
    /// placeholder's; should that fail too, the plain placeholder (the renderer fits it to the canvas).
    private static func card(art: RGBAImage?, canvas: PixelSize, square: PixelRect, path: String,
                             log: Log?) -> (image: RGBAImage, hasCoverArt: Bool) {
        if let art {
            do {
                return (try CardPicture.make(art: art, canvas: canvas, square: square, path: path), true)
            } catch {
                log?.warn("\(error)")
            }
        }
        let placeholder = placeholder(size: square.size, softEdge: true)
        do {
            return (try CardPicture.make(art: placeholder, canvas: canvas, square: square, path: path), false)
        } catch {
            if art == nil { log?.warn("\(error)") }
            return (placeholder, false)
        }
    }

    /// A dark blue-grey gradient with a lighter disc in the middle: "sound playing". `softEdge` blends the
    /// disc's rim over a pixel (the card's larger placeholder); without it, the disc's edge is hard.
    public static func placeholder(size: PixelSize, softEdge: Bool = false) -> RGBAImage {
        var p = [UInt8](repeating: 255, count: size.width * size.height * 4)
        let cx = Double(size.width) / 2, cy = Double(size.height) / 2, r = Double(min(size.width, size.height)) * 0.2
        for y in 0..<size.height {
            let g = 24 + 40 * Double(y) / Double(max(1, size.height - 1))
            for x in 0..<size.width {
                let i = (y * size.width + x) * 4
                let d = ((Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy)).squareRoot()
                let disc = softEdge ? min(1, max(0, r - d + 0.5)) : (d < r ? 1.0 : 0.0)
                p[i] = UInt8(clamping: Int(saturating: g * 0.8 + 90 * disc, rounding: .towardZero))
                p[i + 1] = UInt8(clamping: Int(saturating: g * 0.9 + 100 * disc, rounding: .towardZero))
                p[i + 2] = UInt8(clamping: Int(saturating: g * 1.4 + 110 * disc, rounding: .towardZero))
            }
        }
        return RGBAImage(size: size, pixels: p)
    }

    /// The picture's size.
    public var displaySize: PixelSize { image.size }

    /// The one frame.
    private var frame: VideoFrame {
        VideoFrame(pts: startTime, size: image.size, layout: .rgba, matrix: .bt709, range: .full, siting: .center,
                   planes: [VideoPlane(bytes: image.pixels, stride: image.size.width * 4, rows: image.size.height)])
    }

    /// The picture, once.
    public func frame(at t: Double) -> VideoFrame? { nextFrame(timeout: 0) }

    /// The picture, once.
    public func nextFrame(timeout: Double) -> VideoFrame? {
        lock.lock()
        defer { lock.unlock() }
        if taken { return nil }
        taken = true
        return frame
    }

    /// The picture, until taken.
    public func peekFrame(timeout: Double) -> VideoFrame? {
        lock.lock()
        defer { lock.unlock() }
        return taken ? nil : frame
    }

    /// Shows the picture again.
    public func seek(to seconds: Double) {
        lock.lock()
        taken = false
        lock.unlock()
    }

    /// Never: the sound, not the picture, times the item.
    public var isFinished: Bool { false }

    /// None.
    public var failure: MediaError? { nil }
}
