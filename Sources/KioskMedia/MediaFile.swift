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

    /// Describes a file (kind, displayed size, frames, duration, loops, orientation).
    public static func probe(_ path: String) throws -> MediaInfo {
        switch Family(head: try head(path)) {
        case .gif: return try GifDecoder.probe(path: path)
        case .webp: return try WebPDecoder.probe(path: path)
        case .ffmpeg: return try FFmpegImageDecoder.probe(path: path)
        }
    }

    /// Decodes a picture oriented and scaled to `targetSize(displayed full size)`, never larger than the source.
    public static func decode(_ path: String, targetSize: (PixelSize) -> PixelSize) throws -> DecodedItem {
        let item: DecodedItem
        switch Family(head: try head(path)) {
        case .gif: item = try GifDecoder.decode(path: path)
        case .webp: item = try WebPDecoder.decode(path: path)
        case .ffmpeg: item = try FFmpegImageDecoder.decode(path: path, targetSize: targetSize)
        }
        return try fitted(item, to: FFmpegImageDecoder.clamp(targetSize(item.info.size), to: item.info.size))
    }

    /// Whether `path` is a video to play as a clip (by its probe: a video stream that is not a still picture).
    public static func isClip(_ path: String) -> Bool {
        (try? probe(path))?.kind == .video
    }

    /// Opens a video for playing: its decoder thread starts at `startAt` seconds and its first frame is decoded
    /// before this returns (so the item is ready before its slot begins). `maxLength` caps its slot (`--video-max`).
    public static func openClip(_ path: String, info: MediaInfo, log: Log, startAt: Double = 0,
                                maxLength: Double? = nil, timeout: Double = 20) throws -> DecodedItem {
        let decoder = try VideoDecoder(path: path, log: log, startAt: startAt, maxLength: maxLength)
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
        case .animation(let frames, let loops):
            let scaled = try frames.map { AnimationFrame(image: try fit($0.image), duration: $0.duration) }
            return DecodedItem(info: item.info, picture: .animation(frames: scaled, loops: loops))
        case .clip:
            return item
        }
    }
}
