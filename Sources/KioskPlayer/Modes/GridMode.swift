import KioskCore
import KioskRender

/// The turn while the overview grid is open (PlayerGrid.swift has its commands): the slideshow stays paused
/// underneath, its slot and time held; the grid closes when idle, else moves on to the turn's time and is
/// drawn when it changed, then the loop rests until input, a thumbnail or its next step.
final class GridMode: PlayerMode {
    let name = "grid"
    private unowned let screen: Screen

    init(screen: Screen) { self.screen = screen }

    func turn(at t: Double) throws -> ModeTurn {
        let p = screen, grid = screen.grid, config = screen.config
        if grid.isIdle(at: t) {
            p.closeGrid(at: t, why: "no input for \(config.grid.idle) s: back to the slideshow")
            return .rest(.none)
        }
        p.sound.pause(true)
        let scene = p.show.update(at: t, availability: p.cache.availability)  // paused: the same slot, its time held
        p.publish(p.show.takeEvents())
        guard let presenter = p.presenter else { return .end }
        let canvas = presenter.output.size
        grid.step(p.show.playlist, current: p.show.currentID, canvas: canvas, at: t)
        p.postStatus(scene: scene)
        guard presenter.output.isAvailable,
              let drawn = grid.frame(at: t, canvas: canvas, playlist: p.show.playlist, context: presenter.output.context) else {
            return .rest(.until(p.wakeTime(t + Player.longestWait)))
        }
        let idleAt = config.grid.idle > 0 ? grid.lastInput.map { $0 + config.grid.idle } : nil
        // inertia, or a recording: the next frame at once; else until input, a thumbnail or the idle close
        let rest: Rest = grid.isAnimating || presenter.output.needsEveryFrame
            ? .none : .until(p.wakeTime(min(t + 1, idleAt ?? .infinity)))
        return .frame(ModeFrame(pictures: drawn.frame, key: FrameKey(drawn.key), overlaid: false, shown: rest, unchanged: rest))
    }
}
