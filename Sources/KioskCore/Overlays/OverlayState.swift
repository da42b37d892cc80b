/// What overlays remember between frames: the on-screen message, whether captions are shown, and what the last
/// pause, zoom and item were. One per player, used on the player's thread: fed the player's events
/// (`handle(_:at:)`), overlay commands (`apply(_:at:)`) and the player's notes for what no event says (volume,
/// zoom, a remote's text); asked each frame for the scene (`scene(at:context:)`, in OverlayComposition.swift).
public final class OverlayState {
    /// What the command line asked for.
    public let settings: OverlaySettings
    /// How captions show; nil when they are off.
    public let captions: CaptionSettings?
    /// Whether captions are shown now (a tap or the info key flips it).
    public private(set) var captionsShown = true
    /// The newest on-screen message (it may have run out: see `OnScreenMessage.shows(at:)`).
    public private(set) var message: OnScreenMessage?
    /// The sequence of the slot that last came on screen.
    public private(set) var currentSequence: Int?
    /// When captions were last turned on, or asked for, during the slot with this sequence: they show for their
    /// time again from then.
    var captionReveal: (sequence: Int, at: Double)?
    private var pauseReasons: Set<PauseReason> = []
    /// An item was skipped (a command moved on): the next item's start shows its place.
    private var skipped = false
    /// The zoom last noted, as its message says it; nil: the next note is taken silently (a new item).
    private var zoomText: String?

    /// Overlays for `settings`, with captions as `captions` says.
    public init(settings: OverlaySettings = OverlaySettings(), captions: CaptionSettings? = nil) {
        self.settings = settings
        self.captions = captions
    }

    // MARK: - what happened

    /// An event the player published at player time `t`.
    public func handle(_ event: PlayerEvent, at t: Double) {
        switch event {
        case .itemStarted(_, _, let sequence):
            currentSequence = sequence
            zoomText = nil
            if settings.osdLevel >= 2 {
                post(.place, level: 2, at: t)
            } else if skipped {
                post(.place, level: 1, at: t)
            }
            skipped = false
        case .itemEnded(_, _, let reason):
            skipped = reason == .skipped
        case .pauseChanged(let reasons):
            let asked: Set<PauseReason> = [.user, .remote]
            let changed = reasons.intersection(asked) != pauseReasons.intersection(asked)
            pauseReasons = reasons
            if changed { post(.text(reasons.isEmpty ? "Playing" : "Paused"), level: 1, at: t) }
        case .idle, .shutdown:
            currentSequence = nil
        case .playlistChanged, .itemFailed, .seeked, .triggered, .interrupt, .screenPower, .regionShowing, .tvPower, .alert, .healthAlert:
            break
        }
    }

    /// An overlay command at player time `t`: the tap and the info key flip captions (turned on, they show for
    /// their time again); a long press shows the item's place and what is next, and the caption again.
    public func apply(_ change: OverlayChange, at t: Double) {
        switch change {
        case .toggleInfo:
            captionsShown.toggle()
            if captionsShown { reveal(at: t) }
        case .showInfo:
            captionsShown = true
            reveal(at: t)
            post(.placeAndNext, level: 1, at: t)
        }
    }

    /// The player ran a volume `change`; the sound is now at `volume` (0…100), `muted` or not.
    public func noteVolume(_ change: VolumeChange, volume: Int, muted: Bool, at t: Double) {
        switch change {
        case .mute, .toggleMute: post(.text(muted ? "Muted" : "Unmuted"), level: 1, at: t)
        case .set, .by: post(.text("Volume \(volume) %"), level: 1, at: t)
        }
    }

    /// The current item's zoom as of this frame. A change from the last note shows `Zoom 2.5×` (to one
    /// decimal, so a pinch shows while it moves and not for noise); the first note after an item starts is
    /// taken silently.
    public func noteZoom(_ zoom: Double, at t: Double) {
        guard zoom.isFinite else { return }
        let text = OnScreenMessage.zoomText(zoom)
        defer { zoomText = text }
        if let last = zoomText, last != text { post(.text(text), level: 1, at: t) }
    }

    /// A remote's `show-text`: `text` for `seconds`, shown when the OSD level is at least `level` (mpv's).
    public func showText(_ text: String, seconds: Double, level: Int = 1, at t: Double) {
        post(.text(text), seconds: seconds, level: level, at: t)
    }

    /// A remote's `show-progress`: the item's place and its slot's time, counting, for mpv's OSD duration.
    public func showProgress(at t: Double) {
        post(.progress, seconds: OverlaySettings.remoteTextSeconds, level: 1, at: t)
    }

    // MARK: - helpers

    private func post(_ content: OnScreenMessage.Content, seconds: Double = OverlaySettings.messageSeconds,
                      level: Int, at t: Double) {
        guard settings.enabled, settings.osdLevel >= max(1, level), seconds > 0 else { return }
        message = OnScreenMessage(content, postedAt: t, seconds: seconds)
    }

    private func reveal(at t: Double) {
        if let s = currentSequence { captionReveal = (s, t) }
    }
}
