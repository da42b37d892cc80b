import KioskCore
import KioskRender

/// A screen's turn of the player's loop (Player.swift has the loop): its input in, its mode's turn, the mode's frame
/// out through the presenter, and the rests between.
extension Screen {
    /// The top of a turn: input drives the current item's view and sends commands (run in this turn's drain).
    func takeInput(at t: Double) {
        frameTime = t
        viewControl.gridOpen = grid.isOpen
        viewControl.layoutKeys = layoutMode?.screen.accessKeys ?? []
        viewControl.layoutTaps = layoutMode?.screen.hearsTaps ?? false
        let size = screenSize
        let inbox = services.inbox
        if let input = interaction {
            input.canvas = size
            for c in input.frame(at: t, splitBar: effects.bar(at: t)) { inbox.queueFromLoop(c, toScreen: name) }  // this screen's
        } else {
            standaloneView.canvas = size
            for case .command(let c) in standaloneView.step(at: t) { inbox.queueFromLoop(c, toScreen: name) }  // settles the view, holds `zoomed`
        }
    }

    /// The screen's turn at `t`, after the commands: the playlist's item windows and the display's hotplug, then
    /// the turn of the mode that owns it (the first frame of one that takes the screen drawn whatever its key),
    /// its frame shown; the rest it asks for is the loop's to take (`Player.rest`). Nil: play is over.
    func turn(at t: Double) throws -> Rest? {
        guard let presenter else { return nil }
        try presenter.output.context.makeCurrentIfNeeded()  // another screen's context may be current
        updateItemWindows(at: t)
        if !screenOff, hotplug?.changed() == true { presenter.output.displayChanged() }
        let mode = modes.active
        if mode !== modeOnScreen {
            presenter.forget()
            mode.takesScreen()
        }
        modeOnScreen = mode
        switch try mode.turn(at: t) {
        case .end: return nil
        case .rest(let r): return r
        case .frame(let f): return try show(f, at: t, on: presenter)
        }
    }

    /// How the run went, once it is over; throws when nothing given to it could be shown and nothing
    /// (`keepsRunningWhenEmpty`, a layout) could bring items.
    func report(keepsRunningWhenEmpty: Bool) throws -> PlayReport {
        let spans = modes.slideshow.spans
        if spans.slots == 0 && show.isIdle && playing == nil && !keepsRunningWhenEmpty && layoutMode == nil {
            throw PlayerError("nothing playable: every item in the playlist was skipped")
        }
        let end = clock.now
        let heard = (spans.closed(at: end) + voiceSpans.closed(at: end)).sorted { $0.start < $1.start }
        return PlayReport(framesPresented: presenter?.presented ?? 0, slotsShown: spans.slots, endTime: end,
                          firstFrameTime: presenter?.firstFrameTime, soundSpans: heard)
    }

    /// Hands a mode's frame to the presenter: with the screen's overlays and placed on the wall when the mode
    /// asks for that (the overlays are part of its key); the rest the mode asked for what became of it.
    func show(_ frame: ModeFrame, at t: Double, on presenter: FramePresenter) throws -> Rest {
        let size = presenter.output.size
        let overlays = frame.overlaid ? overlayFrame(at: t) : nil
        let key = FrameKey(ScreenKey(pictures: frame.key, overlays: overlays))
        let outcome = try presenter.show(key: key) {
            guard frame.overlaid else { return frame.pictures }
            return onScreen(frame.pictures, overlays: Self.onTop(overlayLayers(overlays, canvas: wallPlacement(on: size).canvas),
                                                                 of: frame.pictures), size: size)
        }
        switch outcome {
        case .shown:
            frame.onShown?()
            return frame.shown
        case .unchanged, .unavailable:
            return frame.unchanged
        case .notShown:
            return frame.notShown
        }
    }

    /// The screen's overlays raised above everything in `pictures` (a layout's regions stack by z-index).
    static func onTop(_ overlays: [RenderOverlay], of pictures: RenderFrame) -> [RenderOverlay] {
        let top = (pictures.layers.map(\.z) + pictures.overlays.map(\.z)).max() ?? 0
        return overlays.map { o in
            var o = o
            if o.z <= top { o.z = top + 1 }
            return o
        }
    }

    /// Rests as `rest` says, never past the end of the run (`--length`), whatever the mode asked (a layout of
    /// stills, an alert); a command, input or a producer's wakeup ends a wait at once.
    func rest(_ rest: Rest) {
        switch rest {
        case .none: break
        case .nextFrame: presenter?.wait(until: nil)
        case .until(let deadline): presenter?.wait(until: min(deadline, services.run.end ?? .infinity))
        case .then(let first, let step):
            self.rest(first)
            step()
        }
    }

    /// The slideshow moved on to `t`: decodes asked for ahead, failed items whose files changed retried, the
    /// scene at `t` (nil: nothing to show), and the slideshow's events published.
    func advanceShow(at t: Double) -> Scene? {
        prepareDecodes()
        let retried = cache.retryChanged()
        if !retried.isEmpty { show.retry(retried) }
        let scene = scene(at: t)
        publish(show.takeEvents())
        return scene
    }

    /// Play is over: sound, clip, grid and textures let go, every answer still waiting given, the item on screen
    /// ended (`quit`), every screenshot still waiting answered, and the board told.
    func stop() {
        sound.stop()
        leaveClip()
        grid.stop()
        composer?.releaseAll()
        layoutMode = nil
        events.answerCommands()
        if let id = show.currentID, !show.isFinished, let path = show.currentSlot?.path {
            publish([.itemEnded(id, path: path, reason: .quit)])
        }
        presenter?.dropScreenshots("the player stopped")
        publish([.shutdown])  // observers too: the play log closes what shows
    }
}

/// What a frame on screen looks like: the mode's pictures and the overlays drawn over them.
private struct ScreenKey: Equatable {
    var pictures: FrameKey
    var overlays: OverlayScene?
}
