import KioskCore
import KioskMedia
import KioskRender

/// The slideshow's turn: the scene at the clock's time (the slideshow's own, or the wall's with
/// `--sync-epoch`), the current clip kept in step and ended early when it breaks, decodes ahead, and the frame
/// the one-region layout builds (`SlideshowLayout`: region `main`, the playlist its timeline, drawn by the player's
/// composer through the same region composer as a SMIL layout's regions). It owns the slots' count and where their
/// sound played (for `record`'s mix).
final class SlideshowMode: PlayerMode {
    let name = "slideshow"
    private unowned let screen: Screen
    /// Slots started, and where their sound played on the clock.
    private(set) var spans = SoundSpans()
    /// The one-region layout, made around the player's composer at the first frame.
    private var layout: LayoutComposer?

    init(screen: Screen) { self.screen = screen }

    /// The playlist holds beneath an alert or the grid (pause reason `alert` or `grid`), its slot and time kept;
    /// the screen off lets it run (a schedule's window goes on in the dark).
    func covered(by rank: CoverRank, at t: Double) {
        if let reason = Self.pause(for: rank) { screen.show.pause(reason, at: t) }
    }

    /// It goes on where it was.
    func uncovered(by rank: CoverRank, at t: Double) {
        if let reason = Self.pause(for: rank) { screen.show.resume(reason, at: t) }
    }

    private static func pause(for rank: CoverRank) -> PauseReason? {
        switch rank {
        case .alert: .alert
        case .grid: .grid
        case .screenOff: nil
        }
    }

    func turn(at t: Double) throws -> ModeTurn {
        let p = screen, show = screen.show
        guard let scene = p.advanceShow(at: t) else {
            p.postStatus(scene: nil)
            if show.isFinished && !show.isIdle { return .end }
            if show.isIdle { return .rest(.none) }  // the idle mode takes the next turn
            if let u = show.upcoming {
                p.cache.wait(for: u, limit: 0.02)  // the first picture is still decoding
                return .rest(.none)
            }
            return .rest(.nextFrame)
        }
        if scene.current.sequence != spans.sequence {
            if spans.sequence >= 0, p.swapsContent(at: t) { return .rest(.none) }  // new content, at the item's end
            p.startSlot(scene, at: t, spans: &spans)
            p.applyItemEffect(of: scene.current.id, at: t)
            if SMILFile.isSMIL(scene.current.path) {
                p.playLayoutItem(scene.current)  // a layout in the playlist: it takes the screen from the next turn
                return .rest(.none)
            }
        }
        keepClipInStep(scene, at: t)
        var keep: Set<ItemID> = [scene.current.id]
        if let o = scene.outgoing { keep.insert(o.id) }
        if let u = show.upcoming { keep.insert(u) }
        p.cache.evict(keeping: keep)
        p.services.intake.layoutItems.keep(paths: Set(keep.compactMap { show.playlist.item($0)?.path }))
        guard let composer = p.composer else { return .end }
        composer.forget(keeping: keep)
        composer.canvas = p.wallPlacement(on: p.screenSize).canvas  // a display's mode can change while playing
        composer.effect = p.effects.effect(at: t)
        let layout = self.layout ?? LayoutComposer(slideshow: composer, config: p.config)
        self.layout = layout
        let built = try layout.frame(slideshow: scene, cache: p.cache)
        p.postStatus(scene: scene)
        guard let (pictures, key) = built else {
            // Untimed, the clock must still move on: a clip whose last frame was drawn before its decoder said
            // it had ended would otherwise hold the loop forever.
            return .rest(.nextFrame)
        }
        var frame = ModeFrame(pictures: pictures, key: FrameKey(key))
        frame.onShown = { [unowned p] in
            p.logPresentation(scene)
            p.sync?.logPresented(scene, wall: p.frameWall, framePTS: composer.shownPTS[scene.current.sequence], log: p.log)
        }
        if let untimed = p.untimedClock {
            let advance: () -> Void = { [unowned p] in p.advanceUntimed(untimed, scene: scene, playing: p.playing) }
            frame.shown = .then(.none, advance)
            frame.unchanged = .then(.none, advance)
        }
        return .frame(frame)
    }

    /// The clip on screen follows the slot: paused with it, in step with the wall, ended when it breaks.
    private func keepClipInStep(_ scene: Scene, at t: Double) {
        let p = screen
        p.sound.pause(scene.paused)  // the slideshow's pause holds the clip's sound, and so its frames
        guard let clip = p.playing else { return }
        clip.position = clip.clip.startTime + scene.currentTime
        if p.sync?.keepInStep(clip, scene: scene, at: t, log: p.log) == true, p.sound.isPlaying(scene.current.sequence) {
            p.sound.start(path: clip.path, sequence: scene.current.sequence, at: clip.clip.startTime + scene.currentTime)
        }
        if let reason = clip.endsEarly(at: scene.currentTime, slotLength: scene.current.length, log: p.log) {
            p.show.endCurrent(reason)
        }
    }
}
