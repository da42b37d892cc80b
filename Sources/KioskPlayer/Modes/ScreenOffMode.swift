import KioskCore
import KioskRender

/// The turn with the screen off (a schedule's `off`, a `screen off` command): no clip, no sound, no decoded
/// pictures; a recorder gets a black frame each tick, a display is drawn nothing. Rests until the next quarter
/// second, a command or a producer's deadline.
final class ScreenOffMode: PlayerMode {
    let name = "screen off"
    private unowned let screen: Screen

    init(screen: Screen) { self.screen = screen }

    /// An alert over the screen off: the display comes on for it (it is seen whatever the schedule says).
    func covered(by rank: CoverRank, at t: Double) {
        if rank == .alert { screen.powerDisplay(on: true) }
    }

    /// The alert is gone: the display goes off again.
    func uncovered(by rank: CoverRank, at t: Double) {
        if rank == .alert { screen.powerDisplay(on: false) }
    }

    func turn(at t: Double) throws -> ModeTurn {
        let p = screen
        p.leaveClip()
        p.sound.stop()
        p.cache.evict(keeping: [])
        p.composer?.forget(keeping: [])
        p.postStatus(scene: nil)
        var rest = Rest.until(p.wakeTime(t + Player.longestWait))
        if p.presenter?.output.needsEveryFrame == true { rest = .none }
        if let untimed = p.untimedClock { rest = .then(rest, { untimed.advance(by: 1.0 / 30) }) }
        guard p.presenter?.wantsFrame == true else { return .rest(rest) }
        return .frame(ModeFrame(pictures: RenderFrame(background: RGBColor(red: 0, green: 0, blue: 0), layers: []),
                                key: FrameKey("screen off"), overlaid: false, shown: rest, unchanged: rest, notShown: rest))
    }
}
