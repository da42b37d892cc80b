import KioskCore

/// Where one item's sound played: from `start` on the player's clock, `length` seconds, starting at `mediaStart`
/// seconds of the file.
public struct SoundSpan: Sendable, Equatable {
    /// The file.
    public var path: String
    /// Clock seconds at which its slot began.
    public var start: Double
    /// Media seconds of the file heard at `start`.
    public var mediaStart: Double
    /// Seconds it played.
    public var length: Double
    /// How loud, times the volume (a layout region's `soundLevel`).
    public var level: Double = 1
}

/// The clip on screen now: where it is, for resuming, and whether it ended before its slot.
final class PlayingClip {
    let path: String
    let clip: any ClipSource
    let length: Double
    var position: Double = 0
    private var reported = false

    init(path: String, clip: any ClipSource, length: Double) {
        self.path = path
        self.clip = clip
        self.length = length
        position = clip.startTime
    }

    /// Notes where a long clip was left.
    func leave(_ book: ResumeBook) { book.leave(path, at: position, length: length) }

    /// Whether the item must end now, and why: its stream broke (one log line naming the file), or it ran out of frames
    /// more than a second before the slot's end (a container that overstates its length).
    func endsEarly(at t: Double, slotLength: Double, log: Log) -> EndReason? {
        guard !reported, clip.isFinished, !clip.holdsOneFrame else { return nil }
        if let failure = clip.failure {
            reported = true
            log.warn("\(failure.description); item ended at \(String(format: "%.2f", position)) s")
            return .error
        }
        if slotLength - t > 1 {
            reported = true
            return .eof
        }
        return nil
    }
}

extension Screen {
    /// A new slot is on screen: its clip and its sound start (the previous ones stop).
    func startSlot(_ scene: Scene, at t: Double, spans: inout SoundSpans) {
        MemoryReturn.trim()  // the items that left are freed by now: their pages go back
        spans.sequence = scene.current.sequence
        spans.slots += 1
        leaveClip()
        spans.close(at: t - scene.currentTime)
        guard let item = cache.item(scene.current.id), case .clip(let clip) = item.picture else {
            sound.stop()
            return
        }
        playing = PlayingClip(path: item.info.path, clip: clip, length: item.info.duration ?? 0)
        let hasSound = item.info.streams.contains(where: { $0.type == "audio" })
        if hasSound && untimedClock == nil {
            spans.open(SoundSpan(path: item.info.path, start: t - scene.currentTime, mediaStart: clip.startTime, length: -1))
        }
        if untimedClock == nil, services.playsSound, hearsSound, hasSound {
            sound.start(path: item.info.path, sequence: scene.current.sequence, at: soundStart(clip, scene: scene))
        } else {
            sound.stop()
        }
    }

    /// The clip on screen is left: a long one remembers where, and its teardown goes to the reaper.
    func leaveClip() {
        guard let p = playing else { return }
        p.leave(services.resume)
        playing = nil
        Reaper.dispose(consume p)
    }
}
