internal import CFFmpeg
import Foundation
import KioskCore

/// The frame threads libavcodec gets for clips in this process: `--decode-threads N`, or 0 for kiosk's own
/// choice (`VideoStreamReader.decodeThreads`). The player sets it once at start; readers read it as they open.
public enum DecodeThreads {
    /// The most a user may ask for (libavcodec warns past 16).
    public static let most = 16

    /// Threads asked for with `--decode-threads` (0: kiosk chooses from the clip's size and frame rate).
    public static var requested: Int {
        get { stored.value }
        set { stored.value = min(max(0, newValue), most) }
    }

    private static let stored = LockedValue(0)
}

/// How many frame threads libavcodec gets for a clip.
extension VideoStreamReader {
    /// Bytes the decoder's own frame pool may take beyond the frames a codec must keep: each frame thread holds
    /// about two frames of its own, so the thread count is capped to keep them within this.
    static let poolBytes = 96 << 20

    /// The most pixels a second that one thread decodes: 1080p at 30 frames a second. One core here decodes a
    /// 1080p H.264 frame in about 3.5 ms and a 1080p HEVC Main 10 frame in 6 ms, a fifth of a 30 fps frame's
    /// time, while each further frame thread costs 10-13 MiB at 1080p (its own context and frames: ffmpeg's own
    /// decode of a 1080p30 x264 `medium` clip peaks 13 MiB higher with two threads than with one).
    static let oneThreadPixelRate = 1920.0 * 1088 * 30.5

    /// Frame threads for a video of `size` at `frameRate` frames a second (0 or not finite: unknown, taken as
    /// 30): `requested` when the user asked (`--decode-threads`); else one up to `oneThreadPixelRate`; above it,
    /// one per core (not ffmpeg's automatic cores + 1: the extra one bought no speed on 2 cores, 1080p or 2160p)
    /// while two frames a thread fit in `poolBytes`, else as many as fit (at least 1).
    static func decodeThreads(for size: PixelSize, frameRate: Double, requested: Int = DecodeThreads.requested,
                              cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        if requested > 0 { return min(requested, DecodeThreads.most) }
        let rate = frameRate.isFinite && frameRate > 0 ? frameRate : 30
        if Double(size.width) * Double(size.height) * rate <= oneThreadPixelRate { return 1 }
        let frameBytes = max(1, size.width * size.height * 3 / 2)  // 8-bit 4:2:0
        let fit = max(1, poolBytes / (2 * frameBytes))
        return max(1, min(cores, fit))
    }
}

/// What libavcodec's frame pool held for one clip, counted from the frames it handed out: each distinct buffer is
/// one frame of the pool (its references, its reorder delay and each frame thread's own frame, together). The
/// decoder's memory for a clip is about this count times a frame's bytes; the log line says so for each clip.
struct DecoderPoolCount {
    /// Most distinct buffers remembered (a pool never holds more than a few dozen).
    static let limit = 64
    private var seen: Set<UInt> = []
    private var frameBytes = 0

    /// Counts `frame`'s buffers if they are new to the pool.
    mutating func saw(_ frame: UnsafeMutablePointer<AVFrame>) {
        guard let first = frame.pointee.buf.0, let data = first.pointee.data, seen.count < Self.limit else { return }
        if seen.insert(UInt(bitPattern: data)).inserted {
            var bytes = 0
            withUnsafePointer(to: frame.pointee.buf) { tuple in
                tuple.withMemoryRebound(to: UnsafeMutablePointer<AVBufferRef>?.self, capacity: 8) { refs in
                    for i in 0..<8 { bytes += refs[i].map { Int($0.pointee.size) } ?? 0 }
                }
            }
            frameBytes = max(frameBytes, bytes)
        }
    }

    /// One line: the decoder's frame threads and reorder delay, and the frame buffers its pool handed out; the
    /// rest of the count is the stream's reference frames (libavcodec does not say how many the stream keeps).
    func summary(path: String, context: UnsafeMutablePointer<AVCodecContext>) -> String {
        let c = context.pointee
        let name = c.codec.flatMap { $0.pointee.name }.map { String(cString: $0) } ?? "decoder"
        let count = seen.count >= Self.limit ? "at least \(Self.limit)" : "\(seen.count)"
        let mib = Double(frameBytes) / 1_048_576
        return "\(path): libavcodec \(name), \(c.thread_count) frame threads, \(c.has_b_frames) frames of reorder delay: "
            + "its pool handed out \(count) frame buffers of " + String(format: "%.1f MiB (%.1f MiB)", mib, mib * Double(seen.count))
    }
}
