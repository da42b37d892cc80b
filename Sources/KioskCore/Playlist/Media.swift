/// The media model shared by every layer: sizes, decoded pictures and what a probe learns about a file.

/// A size in whole pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `WxH`.
    public var description: String { "\(width)x\(height)" }

    /// Width divided by height (1 for an empty size).
    public var aspect: Double { height > 0 ? Double(width) / Double(height) : 1 }

    /// The same size with width and height exchanged.
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    /// Parses `WxH`, both positive; nil otherwise.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0,
              w <= 16384, h <= 16384 else { return nil }
        self.init(width: w, height: h)
    }
}

/// A decoded picture: straight (not premultiplied) RGBA, 8 bits a channel, rows top-down, tightly packed.
public struct RGBAImage: Sendable, Equatable {
    /// The picture's size.
    public let size: PixelSize
    /// `size.width * size.height * 4` bytes.
    public var pixels: [UInt8]

    /// Wraps pixels; the count must be `width * height * 4`.
    public init(size: PixelSize, pixels: [UInt8]) {
        precondition(pixels.count == size.width * size.height * 4, "RGBAImage: pixel count does not match size")
        self.size = size
        self.pixels = pixels
    }

    /// A picture filled with one colour.
    public init(size: PixelSize, fill: (UInt8, UInt8, UInt8, UInt8)) {
        var p = [UInt8](repeating: 0, count: size.width * size.height * 4)
        var i = 0
        while i < p.count {
            p[i] = fill.0; p[i + 1] = fill.1; p[i + 2] = fill.2; p[i + 3] = fill.3
            i += 4
        }
        self.init(size: size, pixels: p)
    }

    /// Bytes held by the pixels.
    public var byteCount: Int { pixels.count }
}

/// What kind of item a file is, as `kiosk probe` reports it.
public enum MediaKind: String, Sendable, Codable {
    /// A still picture.
    case image
    /// An animated picture (GIF, animated WebP, APNG).
    case animation
    /// A video, possibly with sound.
    case video
    /// Sound only.
    case audio
}

/// What a probe learns about a file without decoding all of it.
public struct MediaInfo: Sendable, Equatable {
    /// The file's path as given.
    public var path: String
    /// What kind of item it is.
    public var kind: MediaKind
    /// Displayed width, after orientation.
    public var width: Int
    /// Displayed height, after orientation.
    public var height: Int
    /// Number of frames (1 for a still).
    public var frames: Int
    /// Seconds: one loop for an animation, the whole length for video or audio; nil for a still.
    public var duration: Double?
    /// How many times an animation plays; 0 = forever. 1 for stills.
    public var loops: Int
    /// EXIF orientation, 1...8 (1 = as stored).
    public var orientation: Int
    /// What the stream's side data says about projection and stereo (videos), if anything.
    public var projection: ProjectionMetadata?
    /// The video and audio streams of a clip or sound file, in file order (empty for pictures).
    public var streams: [MediaStream] = []
    /// Degrees a video is turned clockwise to be shown (its display matrix): 0, 90, 180 or 270.
    public var rotation: Int = 0

    /// Creates a description of one file.
    public init(path: String, kind: MediaKind, width: Int, height: Int, frames: Int,
                duration: Double?, loops: Int, orientation: Int, projection: ProjectionMetadata? = nil) {
        self.projection = projection
        self.path = path
        self.kind = kind
        self.width = width
        self.height = height
        self.frames = frames
        self.duration = duration
        self.loops = loops
        self.orientation = orientation
    }

    /// Displayed size.
    public var size: PixelSize { PixelSize(width: width, height: height) }
}

/// One video or audio stream of a file, as `kiosk probe` reports it.
public struct MediaStream: Sendable, Equatable {
    /// `video` or `audio`.
    public var type: String
    /// The codec's short name (`h264`, `hevc`, `aac`, …).
    public var codec: String
    /// Stored width and height for video (0 for audio).
    public var width: Int
    /// Stored height for video (0 for audio).
    public var height: Int
    /// Sample rate in Hz for audio (0 for video).
    public var sampleRate: Int
    /// Channels for audio (0 for video).
    public var channels: Int

    /// Creates a stream description.
    public init(type: String, codec: String, width: Int = 0, height: Int = 0, sampleRate: Int = 0, channels: Int = 0) {
        self.type = type
        self.codec = codec
        self.width = width
        self.height = height
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

/// One frame of an animation and how long it stays.
public struct AnimationFrame: Sendable {
    /// The whole composed canvas for this frame.
    public var image: RGBAImage
    /// Seconds this frame stays on screen.
    public var duration: Double

    /// Creates a frame.
    public init(image: RGBAImage, duration: Double) {
        self.image = image
        self.duration = duration
    }
}

/// A decoded picture: a still, or an animation of composed frames.
public enum DecodedPicture: Sendable {
    /// One picture.
    case still(RGBAImage)
    /// Composed frames in order, decoded on demand into a bounded window; `loops` plays (0 = forever).
    case animation(frames: AnimationFrames, loops: Int)
    /// A video being decoded on its own thread, its first frame already decoded.
    case clip(any ClipSource)

    /// The size of the picture (of the first frame for an animation).
    public var size: PixelSize {
        switch self {
        case .still(let image): return image.size
        case .animation(let frames, _): return frames.size
        case .clip(let clip): return clip.displaySize
        }
    }

    /// How the slideshow must time this picture.
    public var timing: MediaTiming {
        switch self {
        case .still: return .still
        case .animation(let frames, let loops):
            return .animation(frameDurations: frames.durations, loops: loops)
        case .clip(let clip): return clip.holdsOneFrame ? .still : .timed(length: clip.slotLength)
        }
    }
}

/// A decoded item ready for the renderer: what it is and its picture at about display size.
public struct DecodedItem: Sendable {
    /// The probe's description of the file (sizes are of the original, after orientation).
    public var info: MediaInfo
    /// The picture, oriented and scaled to about display size.
    public var picture: DecodedPicture
    /// Its caption, tags and dates (read with the decode when something on screen shows them; nil otherwise).
    public var metadata: ItemMetadata?

    /// Creates a decoded item.
    public init(info: MediaInfo, picture: DecodedPicture, metadata: ItemMetadata? = nil) {
        self.info = info
        self.picture = picture
        self.metadata = metadata
    }
}

/// A decode failure with a one-line reason naming the file.
public struct MediaError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The file that failed.
    public var path: String
    /// Why, in one line.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}
