/// How the kept state follows the player: built from the status the player posts each frame, and saved only
/// when something a restart needs has changed.
extension PlayerState {
    /// The pause reasons `paused` keeps: someone asked (see `PlayerState`).
    public static let keptPauses: Set<PauseReason> = [.user, .remote]

    /// This state moved on to what `status` shows: volume, mute and pause always; the item and a clip's position
    /// while something is on screen (before the first item, and while idle, the last item is kept, so a restart
    /// still knows where it was). `resume` is the resume book, less the item on screen (its `position` says
    /// where it is) and clips no longer in the playlist (so the file stays as small as the playlist; an empty
    /// playlist, as while a media folder is missing, drops nothing); `savedAt` is the wall-clock time.
    public func following(_ status: PlayerStatus, resume: [String: Double], savedAt: Double) -> PlayerState {
        var s = self
        s.volume = min(100, max(0, status.volume))
        s.muted = status.mute
        s.paused = !status.pauseReasons.isDisjoint(with: Self.keptPauses)
        if let entry = status.current {
            s.path = entry.path
            let isClip = status.itemKind == MediaKind.video.rawValue || status.itemKind == MediaKind.audio.rawValue
            let time = status.timePosition.flatMap { $0.isFinite ? max(0, $0) : nil }
            s.position = isClip ? time : nil
            s.duration = isClip ? status.duration.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } : nil
        }
        let listed = Set(status.playlist.map(\.path))
        s.resume = resume.filter { place in
            place.key != s.path && place.value.isFinite && place.value >= 0 && (listed.isEmpty || listed.contains(place.key))
        }
        s.saved = savedAt
        s.alert = status.alert
        return s
    }

    /// As `following(_:resume:savedAt:)`, with each further screen's status (`screens`, by name) as its
    /// `ScreenState` (none: no `screens` member, as with one screen).
    public func following(_ status: PlayerStatus, resume: [String: Double], savedAt: Double,
                          screens: [String: PlayerStatus]) -> PlayerState {
        var s = following(status, resume: resume, savedAt: savedAt)
        s.screens = screens.isEmpty ? nil : screens.mapValues { status in
            let one = PlayerState().following(status, resume: [:], savedAt: savedAt)
            var screen = ScreenState()
            (screen.path, screen.position, screen.duration, screen.paused) = (one.path, one.position, one.duration, one.paused)
            return screen
        }
        return s
    }

    /// Whether this state must be written, `last` being the one written before (nil: none yet): when the item,
    /// volume, mute, pause or resume book changed, or a clip came or went; and for a clip of at least
    /// `longClip` seconds (the ones that resume), when its position is `period` seconds or more from the saved
    /// one (every `period` seconds of playing, and after a seek). A short clip's position is saved along with
    /// other changes but never by itself: it restarts anyway.
    public func needsSaving(since last: PlayerState?, period: Double, longClip: Double) -> Bool {
        guard let last else { return true }
        var a = self, b = last
        (a.saved, b.saved, a.position, b.position) = (0, 0, nil, nil)
        if a != b { return true }
        switch (position, last.position) {
        case (nil, nil): return false
        case let (now?, then?): return (duration ?? 0) >= longClip && abs(now - then) >= period
        default: return true
        }
    }

    /// Whether this state differs from `last` only where the player moves on by itself: the item, a clip's position
    /// and the resume book, and each further screen's item and position; not in volume, mute, pause or the alert,
    /// which someone asked for, nor the first item when none was kept. The keeper saves such changes at most every
    /// five minutes (`StateKeeper.movePeriod`).
    public func onlyMovedOn(from last: PlayerState) -> Bool {
        guard last.path != nil else { return false }  // the first item since nothing was kept: a restart needs it now
        var a = self
        (a.saved, a.path, a.position, a.duration, a.resume) = (last.saved, last.path, last.position, last.duration, last.resume)
        if let mine = a.screens, let theirs = last.screens, Set(mine.keys) == Set(theirs.keys) {
            a.screens = Dictionary(uniqueKeysWithValues: mine.map { name, screen in
                var s = screen
                if let t = theirs[name] { (s.path, s.position, s.duration) = (t.path, t.position, t.duration) }
                return (name, s)
            })
        }
        return a == last
    }

    /// Whether this state differs from `last` in anything but the time it was saved (at exit every change is
    /// written, the last second of a clip's position included).
    public func differs(from last: PlayerState?) -> Bool {
        guard let last else { return true }
        var a = self
        a.saved = last.saved
        return a != last
    }
}
