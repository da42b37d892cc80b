import Foundation

/// Frames shown late and frames dropped over the last hour, counted by the output from its page flips: a flip whose
/// event came more than one and a half refresh intervals after its commit was shown late (it missed the vblank it
/// was drawn for); a frame that was drawn but not shown, because the previous flip was still pending, was dropped.
/// Kept in one-minute buckets, so an hour costs 60 counters whatever the frame rate. Thread-safe: the frame loop
/// counts, the health monitor reads.
public final class FrameTiming: @unchecked Sendable {
    /// The window the counts cover, in seconds.
    public static let window = 3600.0
    private static let bucketSeconds = 60.0
    private static let bucketCount = Int(saturating: window / bucketSeconds)

    private let lock = NSLock()
    private var late = [Int](repeating: 0, count: bucketCount)
    private var dropped = [Int](repeating: 0, count: bucketCount)
    private var minutes = [Int](repeating: -1, count: bucketCount)  // the minute each bucket counts
    private var flips = 0

    /// Nothing counted.
    public init() {}

    /// A page flip committed at `committed` came at `shown` (monotonic seconds) on a display refreshing every
    /// `interval` seconds; counted as late when it missed its vblank.
    public func flipped(committed: Double, shown: Double, interval: Double) {
        guard interval > 0, shown.isFinite, committed.isFinite else { return }
        lock.lock()
        flips += 1
        if shown - committed > interval * 1.5 { add(late: true, at: shown) }
        lock.unlock()
    }

    /// A frame was drawn at `time` (monotonic seconds) but not shown: the previous flip was still pending.
    public func droppedFrame(at time: Double) {
        guard time.isFinite else { return }
        lock.lock()
        add(late: false, at: time)
        lock.unlock()
    }

    /// Frames late and dropped in the hour before `now` (monotonic seconds), and the flips counted since the start.
    public func lastHour(now: Double) -> (late: Int, dropped: Int, flips: Int) {
        lock.lock()
        defer { lock.unlock() }
        let current = Self.minute(now)
        var l = 0, d = 0
        for i in 0..<Self.bucketCount where minutes[i] >= 0 && current - minutes[i] < Self.bucketCount {
            l += late[i]
            d += dropped[i]
        }
        return (l, d, flips)
    }

    /// Counts a late frame (`late`) or a dropped one at `time`, in its minute's bucket.
    private func add(late isLate: Bool, at time: Double) {
        let m = Self.minute(time)
        let i = ((m % Self.bucketCount) + Self.bucketCount) % Self.bucketCount
        if minutes[i] != m {  // the bucket last counted an hour or more ago: start it again
            minutes[i] = m
            late[i] = 0
            dropped[i] = 0
        }
        if isLate { late[i] += 1 } else { dropped[i] += 1 }
    }

    private static func minute(_ time: Double) -> Int { Int(saturating: (time / bucketSeconds).rounded(.down), rounding: .towardZero) }
}
