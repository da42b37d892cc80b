internal import CFFmpeg
import Foundation
import KioskCore

/// How many frame threads libavcodec gets for a clip.
extension VideoStreamReader {
    /// Bytes the decoder's own frame pool may take beyond the frames a codec must keep: each frame thread holds
    /// about two frames of its own, so the thread count is capped to keep them within this.
    static let poolBytes = 96 << 20

    /// Frame threads for a video of `size`: one per core (not ffmpeg's automatic cores + 1: each frame thread holds
    /// frames of its own, and the extra one bought no speed on 2 cores, 1080p or 2160p) while two frames a thread
    /// fit in `poolBytes`, else as many as fit (at least 1).
    static func decodeThreads(for size: PixelSize, cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
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
