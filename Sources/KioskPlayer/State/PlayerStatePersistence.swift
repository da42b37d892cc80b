import KioskCore

/// The player's side of the state file: at start it continues where an earlier run left off. (Saving is the
/// `StateKeeper`'s, a reader of the player's board.)
extension Screen {
    /// Continues from `state` (`config.restored`), before the first item is asked for: the resume book gets the
    /// places kept, the clip that was on screen among them (when it is long enough to resume: `ResumeBook`'s
    /// rule, so a clip shorter than 7 minutes starts from its beginning); the saved item shows first when the
    /// playlist has it (by path; otherwise the playlist starts at its first item); volume and mute come back;
    /// a pause someone asked for comes back as the user's pause.
    func restore(_ state: PlayerState?) {
        guard let state else { return }
        if let alert = state.alert {
            if alert.isOn(at: services.wallClock.at(clock.now).timeIntervalSince1970) {
                startAlert(alert, at: clock.now)  // it was on when kiosk stopped, and its time is not up
            } else {
                log.info("state: the alert kept has ended since")
            }
        }
        services.resume.restore(state.resume)
        if let path = state.path, let position = state.position, let length = state.duration {
            services.resume.leave(path, at: position, length: length)
        }
        if sound.level.volume != state.volume { sound.apply(.set(state.volume)) }
        if sound.level.muted != state.muted { sound.apply(.mute(state.muted)) }
        if state.paused { show.pause(.user, at: clock.now) }
        guard let path = state.path else { return }
        guard let id = show.playlist.ids(withPath: path).first else {
            log.info("state: \(path) is not in the playlist; starting at its first item")
            return
        }
        _ = show.apply(.goTo(.id(id)), at: clock.now)
        let at = services.resume.start(for: path)
        log.info("state: continuing at \(path)" + (at > 0 ? String(format: " from %.1f s", at) : "")
                 + (state.paused ? ", paused" : ""))
    }
}
