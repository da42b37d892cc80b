/// How much a decode may take: the picture size read from the headers before anything is allocated
/// (`--max-pixels`) and the memory one animation may hold (`--animation-mb`).
public struct DecodeLimits: Sendable, Equatable {
    /// Most pixels (width × height, as stored) a picture, an animation's canvas or a video frame may have.
    public var maxPixels: Int
    /// Most bytes one animation may hold: its composing canvas plus its window of display-size frames.
    public var animationBytes: Int

    /// The defaults: 64 MP and 64 MiB.
    public static let standard = DecodeLimits(maxPixels: 64_000_000, animationBytes: 64 << 20)

    /// Creates limits.
    public init(maxPixels: Int, animationBytes: Int) {
        self.maxPixels = maxPixels
        self.animationBytes = animationBytes
    }

    /// `--max-pixels` as the user writes it: `64000000` or `64M`.
    public static func pixelText(_ n: Int) -> String {
        n % 1_000_000 == 0 ? "\(n / 1_000_000)M" : "\(n)"
    }

    /// Throws a one-line error naming the file, the size and the limit when `size` has more pixels than allowed
    /// (or a side of 0 or less).
    public func checkPixels(_ size: PixelSize, path: String, what: String) throws {
        guard size.width > 0, size.height > 0 else {
            throw MediaError(path: path, reason: "\(what) has no size (\(size))")
        }
        let pixels = size.width.multipliedReportingOverflow(by: size.height)
        if pixels.overflow || pixels.partialValue > maxPixels {
            throw MediaError(path: path, reason: "\(what) \(size) is over the pixel limit --max-pixels \(Self.pixelText(maxPixels))")
        }
    }

    /// Canvases a decoder keeps while it composes (the canvas, the one saved for "restore previous" disposal,
    /// and the frame handed out before it is scaled): counted against `animationBytes`.
    public static let composingCanvases = 3

    /// Throws when an animation's composing canvases alone need more than `animationBytes`.
    public func checkAnimationCanvas(_ canvas: PixelSize, path: String) throws {
        let bytes = canvas.width * canvas.height * 4 * Self.composingCanvases
        if bytes > animationBytes {
            throw MediaError(path: path, reason: "animation canvas \(canvas) needs \(bytes >> 20) MiB to compose, over --animation-mb \(animationBytes >> 20)")
        }
    }

    /// Bytes left for display-size frames once an animation's composing canvases are counted (at least one frame).
    public func windowBytes(canvas: PixelSize, frame: PixelSize) -> Int {
        max(frame.width * frame.height * 4, animationBytes - canvas.width * canvas.height * 4 * Self.composingCanvases)
    }
}
