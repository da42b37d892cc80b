/// A playing video as the player sees it: frames by presentation time from a decoder running on its own thread.

/// A clip being decoded: the slideshow times it by `slotLength`; the composer takes its frames by media time.
/// Implemented by the video decoder (KioskMedia); only `Sendable` frames come out of it.
public protocol ClipSource: AnyObject, Sendable {
    /// The picture's size as displayed (sample aspect and rotation applied).
    var displaySize: PixelSize { get }
    /// Media seconds at which this playing starts (0, or where a long clip was left).
    var startTime: Double { get }
    /// Seconds the clip's slot lasts: its length from `startTime`, capped by `--video-max`.
    var slotLength: Double { get }
    /// The newest frame due at media time `t`, dropping older ones; nil when no new frame is due.
    func frame(at t: Double) -> VideoFrame?
    /// The next frame in order, waiting up to `timeout` seconds; nil at the end, on a failure, or on time-out.
    func nextFrame(timeout: Double) -> VideoFrame?
    /// The first queued frame without taking it, waiting up to `timeout` seconds.
    func peekFrame(timeout: Double) -> VideoFrame?
    /// Restarts so the next frame is the one shown at media time `seconds`.
    func seek(to seconds: Double)
    /// Whether the stream has ended (or failed) and every frame was taken.
    var isFinished: Bool { get }
    /// The error that ended the stream early, if any.
    var failure: MediaError? { get }
    /// Whether the clip is one held picture (a one-frame video): timed like a still, for `--duration`.
    var holdsOneFrame: Bool { get }
    /// Takes back a frame it handed out that is done with (uploaded), to reuse its storage; the frame may be
    /// left without planes.
    func recycle(_ frame: inout VideoFrame)
}

extension ClipSource {
    /// A clip plays its length unless it says it holds one frame.
    public var holdsOneFrame: Bool { false }
    /// Nothing to reuse by default.
    public func recycle(_ frame: inout VideoFrame) {}
}
