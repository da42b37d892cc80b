internal import CFFmpeg
import KioskCore

/// One frame of a clip as a still picture, for a grid tile: seek, decode the one frame shown at that time, and
/// turn its YUV planes into RGBA at the size asked for, with the clip's own matrix, range, sample aspect and
/// rotation (the same picture the player shows).
enum ClipStill {
    /// The frame shown at `seconds` into the clip at `path` (the first frame when the seek fails), oriented and
    /// scaled to `targetSize(displayed size)` (never larger). `isCancelled` is asked after the seek.
    static func frame(path: String, at seconds: Double, limits: DecodeLimits, isCancelled: () -> Bool,
                      targetSize: (PixelSize) -> PixelSize) throws -> RGBAImage {
        let reader = try VideoStreamReader(path: path)
        try limits.checkPixels(reader.info.size, path: path, what: "video")
        var frame: VideoFrame?
        if seconds > 0 {
            do {
                try reader.seek(to: seconds)
                frame = try reader.next()
            } catch {
                frame = nil  // a failed seek falls back to the first frame below
            }
        }
        if isCancelled() { throw ThumbnailError.cancelled(path: path) }
        if frame == nil { frame = try VideoStreamReader(path: path).next() }
        guard let frame else { throw MediaError(path: path, reason: "no video frame decoded") }
        return try rgba(frame, path: path, targetSize: targetSize)
    }

    /// `frame` as RGBA of `targetSize(its displayed size)` (clamped to it), turned upright.
    static func rgba(_ frame: VideoFrame, path: String, targetSize: (PixelSize) -> PixelSize) throws -> RGBAImage {
        let shown = frame.displaySize
        let wanted = FFmpegImageDecoder.clamp(targetSize(shown), to: shown)
        let stored = frame.orientation.swapsAxes ? wanted.transposed : wanted
        let format = frame.layout.ffmpegFormat
        guard frame.planes.count >= frame.layout.planeCount else {
            throw MediaError(path: path, reason: "video frame has \(frame.planes.count) of \(frame.layout.planeCount) planes")
        }
        let strides = frame.planes.map { Int32($0.stride) }
        let colour = frame.layout == .rgba ? nil : (matrix: frame.matrix, range: frame.range)
        let image = try withPlanes(frame.planes) { planes in
            try PixelConversion.toRGBA(path: path, planes: planes, strides: strides, size: frame.size, format: format,
                                       target: stored, colour: colour)
        }
        return frame.orientation.apply(to: image)
    }

    /// Runs `body` with a base pointer to each of `planes`, in order.
    static func withPlanes<R>(_ planes: [VideoPlane], _ held: [UnsafePointer<UInt8>?] = [],
                              _ body: ([UnsafePointer<UInt8>?]) throws -> R) throws -> R {
        guard let first = planes.first else { return try body(held) }
        return try first.withBytes { raw in
            try withPlanes(Array(planes.dropFirst()), held + [raw.baseAddress?.assumingMemoryBound(to: UInt8.self)], body)
        }
    }
}
