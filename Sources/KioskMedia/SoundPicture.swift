import Foundation
import KioskCore

/// What an audio-only file shows while it plays: its embedded cover art, or a generated placeholder. It is a
/// clip of one frame that lasts the file's length, so the player times and draws it like a video.
public final class SoundPicture: ClipSource, @unchecked Sendable {
    /// The picture shown.
    public let image: RGBAImage
    /// Whether `image` is the file's embedded cover art (false: the placeholder).
    public let hasCoverArt: Bool
    /// Media seconds this playing starts at.
    public let startTime: Double
    /// The file's length (capped by `--video-max`).
    public let slotLength: Double
    private let lock = NSLock()
    private var taken = false

    /// The picture for `path` (cover art scaled to fit `canvas`, or the placeholder) lasting `length` seconds.
    public init(path: String, length: Double, canvas: PixelSize, startTime: Double = 0) {
        let art = try? MediaFile.coverArt(path) { full in
            let s = min(1, min(Double(canvas.width) / Double(max(1, full.width)), Double(canvas.height) / Double(max(1, full.height))))
            return PixelSize(width: max(1, Int(Double(full.width) * s)), height: max(1, Int(Double(full.height) * s)))
        }
        image = art ?? Self.placeholder(size: PixelSize(width: 480, height: 270))
        hasCoverArt = art != nil
        self.startTime = startTime
        slotLength = max(0.05, length)
    }

    /// A dark blue-grey gradient with a lighter disc in the middle: "sound playing".
    public static func placeholder(size: PixelSize) -> RGBAImage {
        var p = [UInt8](repeating: 255, count: size.width * size.height * 4)
        let cx = Double(size.width) / 2, cy = Double(size.height) / 2, r = Double(min(size.width, size.height)) * 0.2
        for y in 0..<size.height {
            let g = 24 + 40 * Double(y) / Double(max(1, size.height - 1))
            for x in 0..<size.width {
                let i = (y * size.width + x) * 4
                let d = ((Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy)).squareRoot()
                let disc = d < r ? 1.0 : 0.0
                p[i] = UInt8(g * 0.8 + 90 * disc)
                p[i + 1] = UInt8(g * 0.9 + 100 * disc)
                p[i + 2] = UInt8(g * 1.4 + 110 * disc)
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
