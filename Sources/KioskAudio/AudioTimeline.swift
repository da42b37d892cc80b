/// Which media time each frame written to an output carries, so the frame being heard can be turned into the
/// media time being heard. Chunks are recorded as segments (output frame, pts, length); old ones are pruned.
struct AudioTimeline {
    /// A run of consecutive output frames with consecutive media times.
    struct Segment {
        /// The output frame index of its first frame.
        var outputFrame: Int
        /// Media seconds of its first frame.
        var pts: Double
        /// Frames in it.
        var frames: Int
    }

    /// Frames per second of the output.
    let rate: Int
    private var segments: [Segment] = []

    /// An empty timeline for an output of `rate` frames per second.
    init(rate: Int) { self.rate = rate }

    /// Records that `frames` frames starting at media time `pts` are written from output frame `outputFrame` on.
    mutating func append(outputFrame: Int, pts: Double, frames: Int) {
        segments.append(Segment(outputFrame: outputFrame, pts: pts, frames: frames))
        if segments.count > 256 { segments.removeFirst(128) }
    }

    /// The media time of output frame `frame`: inside the segment holding it, at the end of the last segment
    /// before it (a gap or the end), or the first segment's start before anything was heard; nil when empty.
    func mediaTime(atOutputFrame frame: Int) -> Double? {
        guard let first = segments.first else { return nil }
        guard let s = segments.last(where: { $0.outputFrame <= frame }) else { return first.pts }
        let into = min(frame - s.outputFrame, s.frames)
        return s.pts + Double(into) / Double(max(1, rate))
    }
}
