/// The audio model shared by decoders and outputs: a PCM format, a decoded chunk, and a source of chunks.

/// Interleaved PCM: sample rate, channel count and sample type.
public struct AudioFormat: Hashable, Sendable, CustomStringConvertible {
    /// How one sample is stored (little-endian, interleaved).
    public enum Sample: String, Hashable, Sendable, CaseIterable {
        /// Signed 16-bit integer.
        case s16
        /// Signed 32-bit integer.
        case s32
        /// 32-bit IEEE float, -1...1.
        case float

        /// Bytes of one sample.
        public var bytes: Int { self == .s16 ? 2 : 4 }
    }

    /// Frames per second.
    public var sampleRate: Int
    /// Samples per frame.
    public var channels: Int
    /// The sample type.
    public var sample: Sample

    /// Creates a format.
    public init(sampleRate: Int, channels: Int, sample: Sample) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sample = sample
    }

    /// 48 kHz stereo s16: what an output is asked for when nothing else is known.
    public static let standard = AudioFormat(sampleRate: 48_000, channels: 2, sample: .s16)

    /// Bytes of one frame (one sample per channel).
    public var bytesPerFrame: Int { channels * sample.bytes }

    /// Seconds that `frames` frames last.
    public func seconds(frames: Int) -> Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }

    /// `48000 Hz 2 ch s16`.
    public var description: String { "\(sampleRate) Hz \(channels) ch \(sample.rawValue)" }
}

/// Decoded audio: interleaved bytes of one format and the media time of its first sample.
public struct AudioChunk: Sendable, Equatable {
    /// The format of `bytes`.
    public var format: AudioFormat
    /// Interleaved samples, a whole number of frames.
    public var bytes: [UInt8]
    /// Seconds on the media's timeline of the first frame.
    public var pts: Double

    /// Creates a chunk.
    public init(format: AudioFormat, bytes: [UInt8], pts: Double) {
        self.format = format
        self.bytes = bytes
        self.pts = pts
    }

    /// Frames in the chunk.
    public var frames: Int { format.bytesPerFrame > 0 ? bytes.count / format.bytesPerFrame : 0 }

    /// Seconds the chunk lasts.
    public var duration: Double { format.seconds(frames: frames) }
}

/// Something that yields decoded audio in one fixed format, such as a file's decoder.
/// Not thread-safe: one thread at a time reads it.
public protocol AudioSource: AnyObject {
    /// The format of every chunk.
    var format: AudioFormat { get }
    /// The next chunk of at most `maxFrames` frames; nil at the end. Throws when the stream is broken
    /// (after handing out everything decoded before the break).
    func read(maxFrames: Int) throws -> AudioChunk?
    /// Moves so the next chunk starts at `seconds` on the media's timeline.
    func seek(to seconds: Double) throws
}
