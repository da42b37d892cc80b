import KioskCore

/// The player's side of the grid: its commands (open, close, filter, input), and its turn of the frame loop
/// while it is open. The slideshow stays paused with the reason `grid` underneath (its clip's sound held), and
/// goes on where it was when the grid closes, or from the item a tap or OK opened.
extension Screen {
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
        if let signal = presenter?.output.wakeupSignal { grid.wake = { signal.raise() } }
        grid.open(show.playlist, current: show.currentID, canvas: presenter?.output.size ?? config.size, at: t)
        modes.push(modes.grid, as: .grid, at: t)  // the slideshow holds beneath it
        log.info("grid: open (\(show.playlist.count) items)")
    }

    func closeGrid(at t: Double, why: String) {
        guard grid.isOpen else { return }
        grid.close()
        modes.pop(.grid, at: t)
        log.info("grid: \(why)")
    }
}
