import Foundation
import KioskCore

/// Plays one `AudioSource` on its own thread into an `AudioOutput`, and is the audio clock: `now` is the media
/// time of the sample being heard. Without a device, or once the device fails (one log line), it goes on
/// silently: the clock then runs on monotonic time from the last heard position, and the source is still read at
/// real-time pace, so the end of the stream arrives when it would have been heard.
public final class AudioPlayer: Clock, @unchecked Sendable {
    /// Why playback ended.
    public enum End: Sendable, Equatable {
        /// The source ended and everything was played.
        case finished
        /// The source broke (what was decoded before the break was played); the message names the file.
        case sourceFailed(String)
        /// `stop()` was called.
        case stopped
    }

    /// Where the clock comes from.
    private enum Mode {
        /// The device: heard frames through the timeline.
        case device(AudioOutput)
        /// No sound: `media` seconds at monotonic time `since` (nil while paused).
        case silent(media: Double, since: Double?)
    }

    /// Frames asked of the source per read.
    public let chunkFrames: Int
    /// Seconds the silent pacing reads ahead of the clock.
    static let silentLead = 0.2

    private let condition = NSCondition()
    private let source: any AudioSource
    private let log: Log
    private let monotonic = MonotonicClock()
    private var mode: Mode
    private var timeline: AudioTimeline
    private var firstPTS: Double?
    private var endPTS: Double?
    private var paused = false
    private var stopRequested = false
    private var started = false
    private var ended: End?
    private var failure: String?
    private let onEnd: (@Sendable (End) -> Void)?

    /// A player of `source` on `output` (nil: silent from the start). The source's format must be the output's
    /// (open the decoder with `output.format`); after `start()` only the player's thread touches the source.
    /// `onEnd` is called once, on the player's thread.
    public init(source: any AudioSource, output: AudioOutput?, log: Log, chunkFrames: Int = 1024,
                onEnd: (@Sendable (End) -> Void)? = nil) throws {
        if let output, source.format != output.format {
            throw AudioDeviceError(device: output.device, call: "AudioPlayer",
                                   reason: "source is \(source.format), the device takes \(output.format)")
        }
        self.source = source
        self.log = log
        self.chunkFrames = max(1, chunkFrames)
        self.onEnd = onEnd
        timeline = AudioTimeline(rate: output?.format.sampleRate ?? source.format.sampleRate)
        mode = output.map { .device($0) } ?? .silent(media: 0, since: nil)
    }

    /// Starts the playback thread (once; not after `stop()`).
    public func start() {
        condition.lock()
        defer { condition.unlock() }
        guard !started, ended == nil else { return }
        started = true
        if case .silent(let media, _) = mode, !paused { mode = .silent(media: media, since: monotonic.now) }
        let thread = Thread { [self] in run() }
        thread.name = "kiosk-audio"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Stops playback, throwing away what the device still buffers, and waits for the thread to end.
    public func stop() {
        condition.lock()
        stopRequested = true
        condition.broadcast()
        if !started { ended = ended ?? .stopped }
        while ended == nil { condition.wait() }
        condition.unlock()
    }

    /// Pauses (the clock stops) or resumes.
    public var isPaused: Bool {
        get { condition.lock(); defer { condition.unlock() }; return paused }
        set {
            condition.lock()
            defer { condition.unlock() }
            guard newValue != paused else { return }
            if case .silent(let media, let since) = mode {
                let t = monotonic.now
                mode = newValue ? .silent(media: media + (since.map { t - $0 } ?? 0), since: nil)
                    : .silent(media: media, since: started ? t : nil)
            }
            paused = newValue
            condition.broadcast()
        }
    }

    /// Why playback ended; nil while it goes on.
    public var end: End? { condition.lock(); defer { condition.unlock() }; return ended }

    /// The device failure that made playback silent, if any (one line).
    public var deviceFailure: String? { condition.lock(); defer { condition.unlock() }; return failure }

    /// Waits up to `timeout` seconds for the end; returns it, or nil on timeout.
    public func waitForEnd(timeout: Double) -> End? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while ended == nil {
            if !condition.wait(until: deadline) { break }
        }
        return ended
    }

    /// The media time of the sample being heard now (the first chunk's pts before anything is heard).
    public var position: Double {
        condition.lock()
        defer { condition.unlock() }
        return positionLocked()
    }

    /// The audio clock: `position`.
    public var now: Double { position }

    private func positionLocked() -> Double {
        var t: Double
        switch mode {
        case .device(let output):
            t = timeline.mediaTime(atOutputFrame: output.playedFrames) ?? firstPTS ?? 0
        case .silent(let media, let since):
            t = media + (since.map { monotonic.now - $0 } ?? 0)
            if let firstPTS { t = max(t, firstPTS) }
            if let endPTS { t = min(t, endPTS) }
        }
        return t
    }

    // MARK: - The playback thread

    private func run() {
        var outputPaused = false
        var result = End.finished
        loop: while true {
            condition.lock()
            while paused && !stopRequested {
                if case .device(let output) = mode, !outputPaused {
                    condition.unlock()
                    deviceCall { try output.pause(true) }
                    outputPaused = true
                    condition.lock()
                    continue
                }
                condition.wait()
            }
            let stopping = stopRequested
            let current = mode
            condition.unlock()
            if stopping { result = .stopped; break loop }
            if outputPaused, case .device(let output) = current {
                deviceCall { try output.pause(false) }
                outputPaused = false
            }
            let chunk: AudioChunk?
            do {
                chunk = try source.read(maxFrames: chunkFrames)
            } catch {
                log.warn("audio: \(error)")
                result = .sourceFailed("\(error)")
                playOut()
                break loop
            }
            guard let chunk else { playOut(); break loop }
            if chunk.frames == 0 { continue }
            condition.lock()
            if firstPTS == nil {
                firstPTS = chunk.pts
                if case .silent(_, let since) = mode { mode = .silent(media: chunk.pts, since: since) }
            }
            endPTS = chunk.pts + chunk.duration
            let target = mode
            if case .device(let output) = target {
                timeline.append(outputFrame: output.writtenFrames, pts: chunk.pts, frames: chunk.frames)
            }
            condition.unlock()
            switch target {
            case .device(let output): deviceCall { try output.write(chunk) }
            case .silent: waitUntilClock(reaches: chunk.pts - Self.silentLead)
            }
        }
        if result == .stopped, case .device(let output) = mode { deviceCall { try output.discard() } }
        condition.lock()
        if stopRequested && result == .finished { result = .stopped }
        ended = result
        condition.broadcast()
        condition.unlock()
        onEnd?(result)
    }

    /// Plays out what was written (device) or waits until the clock reaches the end (silent).
    private func playOut() {
        condition.lock()
        let current = mode
        condition.unlock()
        if case .device(let output) = current { deviceCall { try output.drain() } }
        if let endPTS { waitUntilClock(reaches: endPTS) }
    }

    /// Sleeps until the (silent) clock reaches `t`, or a stop. Returns at once in device mode.
    private func waitUntilClock(reaches t: Double) {
        condition.lock()
        defer { condition.unlock() }
        while !stopRequested {
            guard case .silent = mode else { return }
            let left = t - positionLocked()
            if left <= 0 && !paused { return }
            _ = condition.wait(until: Date(timeIntervalSinceNow: paused ? 1 : min(left, 0.5)))
        }
    }

    /// Runs a device call; on failure logs one line, falls back to the silent clock from the heard position and
    /// closes the device: a card that went away (unbound, unplugged) can only be freed once its PCM is closed.
    private func deviceCall(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            condition.lock()
            if case .device(let output) = mode {
                let heard = positionLocked()
                mode = .silent(media: heard, since: paused ? nil : monotonic.now)
                failure = "\(error)"
                condition.unlock()
                log.warn("audio: \(error); going on without sound")
                output.close()
            } else {
                condition.unlock()
            }
        }
    }
}
