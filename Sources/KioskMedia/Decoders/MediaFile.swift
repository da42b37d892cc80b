import KioskCore

/// The front door for every media file: checks the file, picks the decoder by the file's first bytes, and
/// makes sure what comes back is no larger than the size the caller wants.
public enum MediaFile {
    /// Which decoder family a file's first bytes select.
    enum Family: Equatable {
        /// `GIF87a` / `GIF89a`.
        case gif
        /// `RIFF....WEBP`.
        case webp
        /// Everything else: libavformat decides.
        case ffmpeg

        /// The family of a file starting with `head`.
        init(head: [UInt8]) {
            let gif87: [UInt8] = Array("GIF87a".utf8), gif89: [UInt8] = Array("GIF89a".utf8)
            if head.count >= 6 && (Array(head[0..<6]) == gif87 || Array(head[0..<6]) == gif89) {
                self = .gif
            } else if head.count >= 12 && Array(head[0..<4]) == Array("RIFF".utf8) && Array(head[8..<12]) == Array("WEBP".utf8) {
                self = .webp
            } else {
                self = .ffmpeg
            }
        }
    }

    /// Checks that `path` is a non-empty regular file and returns its first bytes.
    private static func head(_ path: String) throws -> [UInt8] {
        if try FileBytes.size(path) == 0 { throw MediaError(path: path, reason: "empty file") }
        return try FileBytes.read(path, count: 16)
    }

    /// Describes a file (kind, displayed size, frames, duration, loops, orientation). With `limits`, a video or
    /// picture whose header size is over `limits.maxPixels` is refused before ffmpeg decodes anything of it.
    public static func probe(_ path: String, limits: DecodeLimits? = nil) throws -> MediaInfo {
        switch Family(head: try head(path)) {
        case .gif: return try GifDecoder.probe(path: path)
        case .webp: return try WebPDecoder.probe(path: path)
        case .ffmpeg: return try FFmpegImageDecoder.probe(path: path, limits: limits)
        }
    }

    /// Decodes a picture oriented and scaled to `targetSize(displayed full size)`, never larger than the source.
    /// The size in the file's header is checked against `limits.maxPixels` before any pixel is allocated; an
    /// animation holds at most `limits.animationBytes` (its frames decode on demand, each within `timeout`).
    public static func decode(_ path: String, limits: DecodeLimits = .standard, timeout: Double = 20,
                              targetSize: (PixelSize) -> PixelSize) throws -> DecodedItem {
        let item: DecodedItem
        switch Family(head: try head(path)) {
        case .gif: item = try GifDecoder.decode(path: path, targetSize: targetSize, limits: limits, timeout: timeout)
        case .webp: item = try WebPDecoder.decode(path: path, targetSize: targetSize, limits: limits, timeout: timeout)
        case .ffmpeg:
            item = try FFmpegImageDecoder.decode(path: path, limits: limits, timeout: timeout, targetSize: targetSize)
        }
        return try fitted(item, to: FFmpegImageDecoder.clamp(targetSize(item.info.size), to: item.info.size))
    }

    /// Whether `path` is a video to play as a clip (by its probe: a video stream that is not a still picture).
    public static func isClip(_ path: String) -> Bool {
        (try? probe(path))?.kind == .video
    }

    /// Opens a video for playing: its decoder thread starts at `startAt` seconds and its first frame is decoded
    /// before this returns (so the item is ready before its slot begins). `maxLength` caps its slot (`--video-max`).
    /// `form` says, from the displayed size, whether its frames come as planes or as RGBA.
    public static func openClip(_ path: String, info: MediaInfo, log: Log, startAt: Double = 0,
                                maxLength: Double? = nil, timeout: Double = 20,
                                limits: DecodeLimits = .standard,
                                form: (_ displaySize: PixelSize) -> VideoFrameForm = { _ in .planes }) throws -> DecodedItem {
        for stream in info.streams where stream.type == "video" && stream.width > 0 && stream.height > 0 {
            try limits.checkPixels(PixelSize(width: stream.width, height: stream.height), path: path, what: "video")
        }
        let decoder = try VideoDecoder(path: path, log: log, startAt: startAt, maxLength: maxLength, form: form)
        guard decoder.peekFrame(timeout: timeout) != nil else {
            decoder.close()
            throw decoder.failure ?? MediaError(path: path, reason: "no video frame decoded")
        }
        return DecodedItem(info: info, picture: .clip(decoder))
    }

    /// `item` with every picture larger than `wanted` (in either axis) scaled down to `wanted`.
    static func fitted(_ item: DecodedItem, to wanted: PixelSize) throws -> DecodedItem {
        func fit(_ image: RGBAImage) throws -> RGBAImage {
            guard image.size.width > wanted.width || image.size.height > wanted.height else { return image }
            do {
                return try Scaler.scale(image, to: wanted)
            } catch let error as MediaError {
                throw MediaError(path: item.info.path, reason: error.reason)
            }
        }
        switch item.picture {
        case .still(let image):
            return DecodedItem(info: item.info, picture: .still(try fit(image)))
        case .animation, .clip:  // an animation's frames are made at the size asked for
            return item
        }
    }

    /// `image` scaled to `size` unless it is that size already; errors name `path`.
    static func scaled(_ image: RGBAImage, to size: PixelSize, path: String) throws -> RGBAImage {
        guard image.size != size else { return image }
        do {
            return try Scaler.scale(image, to: size)
        } catch let error as MediaError {
            throw MediaError(path: path, reason: error.reason)
        }
    }
}
