/// How long items stay on screen: the slideshow's rules for stills, animations and (later) video.

/// What the scheduler needs to know about an item's own time.
public enum MediaTiming: Sendable, Equatable {
    /// A still picture: stays for the configured duration.
    case still
    /// An animation: frame durations in seconds and how many plays the file asks for (0 = forever).
    case animation(frameDurations: [Double], loops: Int)
    /// A clip with a length in seconds.
    case timed(length: Double)

    /// Seconds of one loop of an animation (0 for others).
    public var loopLength: Double {
        if case .animation(let d, _) = self { return d.reduce(0, +) }
        return 0
    }

    /// How many whole loops an animation plays in a slot of `duration` seconds:
    /// `max(1, ceil(duration / loopLength))`, capped by a finite loop count in the file.
    public func plays(forDuration duration: Double) -> Int {
        guard case .animation(_, let loops) = self else { return 1 }
        let len = loopLength
        guard len > 0 else { return 1 }
        // A slot of 1e300 s or `inf` (a remote's image-display-duration, an #EXTINF) plays as many loops as an Int
        // holds, never a trapping conversion.
        var n = max(1, Int(clamping: (duration / len - 1e-9).rounded(.up), to: 1...Int.max) ?? 1)
        if loops > 0 { n = min(n, loops) }
        return n
    }

    /// The slot length: a still gets `duration`; an animation plays whole loops (and holds its last frame
    /// until `duration` if the file's loop count stops it earlier); a clip gets its length.
    public func slotLength(forDuration duration: Double) -> Double {
        switch self {
        case .still: return duration
        case .animation:
            return max(duration, Double(plays(forDuration: duration)) * loopLength)
        case .timed(let length): return length
        }
    }

    /// For an animation, the frame index shown `t` seconds into its slot; 0 otherwise.
    public func frameIndex(at t: Double, slotDuration duration: Double) -> Int {
        guard case .animation(let durations, _) = self, !durations.isEmpty else { return 0 }
        let len = loopLength
        guard len > 0 else { return 0 }
        let playing = Double(plays(forDuration: duration)) * len
        if t >= playing { return durations.count - 1 }
        var local = max(0, t).truncatingRemainder(dividingBy: len)
        for (i, d) in durations.enumerated() {
            if local < d { return i }
            local -= d
        }
        return durations.count - 1
    }
}
