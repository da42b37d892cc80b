import KioskCore
import KioskOutput
import KioskRender

/// The player's side of the grid: its commands (open, close, filter, input), and its turn of the frame loop
/// while it is open. The slideshow stays paused with the reason `grid` underneath (its clip's sound held), and
/// goes on where it was when the grid closes, or from the item a tap or OK opened.
extension Player {
    /// Runs a grid command at `t`.
    func runGrid(_ command: GridCommand, at t: Double) -> CommandReply {
        defer { viewControl.gridOpen = grid.isOpen }  // keys later in this drain (a remote's) already drive it
        switch command {
        case .open:
            openGrid(at: t)
        case .close:
            closeGrid(at: t, why: "closed")
        case .toggle:
            if grid.isOpen { closeGrid(at: t, why: "closed") } else { openGrid(at: t) }
        case .filter(let f):
            grid.setFilter(f, at: t)
        case .input(let input):
            guard grid.isOpen else { return .failed("the grid is not open") }
            switch grid.handle(input, at: t) {
            case .open(let id)?:
                closeGrid(at: t, why: "opened an item")
                return show.apply(.goTo(.id(id)), at: t) ?? .done()
            case .close?:
                closeGrid(at: t, why: "closed")
            case nil:
                break
            }
        }
        return .done()
    }

    private func openGrid(at t: Double) {
        guard !grid.isOpen else { return }
        if let signal = attachedOutput?.wakeupSignal { grid.wake = { signal.raise() } }
        grid.open(show.playlist, current: show.currentID, canvas: attachedOutput?.size ?? config.size, at: t)
        _ = show.apply(.pause(.grid), at: t)
        log.info("grid: open (\(show.playlist.count) items)")
    }

    private func closeGrid(at t: Double, why: String) {
        guard grid.isOpen else { return }
        grid.close()
        _ = show.apply(.resume(.grid), at: t)
        log.info("grid: \(why)")
    }

    /// A turn of the loop while the grid is open: it closes when idle; else it moves on to `t`, and is drawn
    /// when it changed (or a screenshot waits), then the loop waits for input, a thumbnail or its next step.
    func gridTurn(at t: Double, output: Output, renderer: Renderer, lastKey: inout GridScreen.FrameKey?,
                  presented: inout Int, first: inout Double?) throws {
        if grid.isIdle(at: t) {
            closeGrid(at: t, why: "no input for \(config.grid.idle) s: back to the slideshow")
            lastKey = nil
            return
        }
        sound.pause(true)
        let scene = show.update(at: t, availability: cache.availability)  // paused: the same slot, its time held
        publish(show.takeEvents())
        grid.step(show.playlist, current: show.currentID, canvas: output.size, at: t)
        postStatus(scene: scene, output: output)
        guard output.isAvailable, var drawn = grid.frame(at: t, canvas: output.size, playlist: show.playlist,
                                                         context: output.context) else {
            output.wait(until: wakeTime(t + Self.longestWait), on: clock)
            return
        }
        drawn.key.generation = output.generation
        if drawn.key != lastKey || output.needsEveryFrame || !pendingScreenshots.isEmpty {
            try renderer.draw(drawn.frame, into: output.target, rotation: output.rotation)
            takeScreenshots(from: output.target)
            guard try presentFrame(output, presented: &presented, first: &first) else { return }  // not shown: again
            lastKey = drawn.key
        }
        if grid.isAnimating || output.needsEveryFrame { return }  // inertia, or a recording: the next frame
        let idleAt = config.grid.idle > 0 ? grid.lastInput.map { $0 + config.grid.idle } : nil
        output.wait(until: wakeTime(min(t + 1, idleAt ?? .infinity)), on: clock)
    }
}
