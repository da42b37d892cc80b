import KioskCore
import KioskRender

/// The turn while the playlist is empty or wholly unplayable: no clip, no sound, no decoded pictures; the idle
/// picture (`--idle-image`) or the background, with the overlays, until commands, a watched folder or a
/// schedule bring items. A player given items it could not show, with nothing that could bring more, ends.
final class IdleMode: PlayerMode {
    let name = "idle"
    private unowned let screen: Screen
    /// The playlist's version when play began: once commands edited it, an empty playlist waits for more.
    private let givenPlaylist: Int

    init(screen: Screen) {
        self.screen = screen
        givenPlaylist = screen.show.playlist.version
    }

    func turn(at t: Double) throws -> ModeTurn {
        let p = screen, show = screen.show
        if p.advanceShow(at: t) != nil || !show.isIdle { return .rest(.none) }  // items came: the slideshow's turn
        if !p.services.keepsRunningWhenEmpty && show.playlist.version == givenPlaylist { return .end }
        p.leaveClip()
        p.sound.stop()
        p.cache.evict(keeping: [])
        guard let composer = p.composer else { return .end }
        composer.canvas = p.wallPlacement(on: p.screenSize).canvas
        let (pictures, key) = try composer.idleFrame()
        p.postStatus(scene: nil)
        // a command ends the wait at once; a clock or a message wakes it when it changes
        let rest = Rest.until(min(p.wakeTime(t + Player.longestWait), p.overlayDeadline(after: t) ?? .infinity))
        return .frame(ModeFrame(pictures: pictures, key: FrameKey(key), shown: rest, unchanged: rest, notShown: rest))
    }
}
