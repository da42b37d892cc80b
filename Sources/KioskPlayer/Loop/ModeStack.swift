import KioskCore

/// A mode pushed over the screen's base, by rank: an alert over the screen off over the grid.
enum CoverRank: Int, Comparable, CaseIterable {
    /// The overview grid.
    case grid = 1
    /// The display off (a schedule's `off`, a `screen off` command).
    case screenOff = 2
    /// An emergency alert: over everything, the screen on whatever the schedule says.
    case alert = 3

    static func < (a: CoverRank, b: CoverRank) -> Bool { a.rawValue < b.rawValue }
}

/// The modes on the screen, bottom first: the base (the layout playing, else idle while the playlist has nothing
/// to show, else the slideshow) and the modes pushed over it (`CoverRank`). The top one owns the screen. Pushing
/// a mode tells each one beneath it, and popping it tells them again (`covered`/`uncovered`): the slideshow holds
/// its playlist under an alert or the grid, a layout stops its clock under an alert, the screen off lights the
/// display for an alert. No mode calls another; the stack is the one place that says who owns the screen.
final class ModeStack {
    let slideshow: SlideshowMode
    let idle: IdleMode
    let grid: GridMode
    let screenOff: ScreenOffMode
    private unowned let screen: Screen
    /// The modes pushed over the base, lowest rank first.
    private var covers: [(rank: CoverRank, mode: PlayerMode)] = []

    init(screen: Screen) {
        self.screen = screen
        slideshow = SlideshowMode(screen: screen)
        idle = IdleMode(screen: screen)
        grid = GridMode(screen: screen)
        screenOff = ScreenOffMode(screen: screen)
    }

    /// The base modes a cover is told of: the slideshow (it owns the playlist, also beneath a layout or idle) and
    /// the layout playing, if one is.
    private var base: [PlayerMode] { [slideshow] + (screen.layoutMode.map { [$0] } ?? []) }

    /// The mode that owns the screen this turn.
    var active: PlayerMode {
        if let top = covers.last { return top.mode }
        if let layout = screen.layoutMode { return layout }
        return screen.show.isIdle ? idle : slideshow
    }

    /// The mode pushed at `rank`, if one is.
    func cover(_ rank: CoverRank) -> PlayerMode? { covers.first { $0.rank == rank }?.mode }

    /// Whether a mode is pushed at `rank`.
    func has(_ rank: CoverRank) -> Bool { cover(rank) != nil }

    /// Pushes `mode` at `rank` at player time `t` (replacing the one there, which tells no one: a new alert over an
    /// old one); each mode beneath it is told it is covered.
    func push(_ mode: PlayerMode, as rank: CoverRank, at t: Double) {
        if let i = covers.firstIndex(where: { $0.rank == rank }) {
            covers[i].mode = mode
            return
        }
        for below in beneath(rank) { below.covered(by: rank, at: t) }
        covers.append((rank, mode))
        covers.sort { $0.rank < $1.rank }
    }

    /// Pops the mode at `rank` at player time `t`, if one is pushed; each mode beneath it is told it is uncovered.
    func pop(_ rank: CoverRank, at t: Double) {
        guard let i = covers.firstIndex(where: { $0.rank == rank }) else { return }
        covers.remove(at: i)
        for below in beneath(rank) { below.uncovered(by: rank, at: t) }
    }

    /// The modes a cover at `rank` lies over: the base and the covers of lower rank.
    private func beneath(_ rank: CoverRank) -> [PlayerMode] { base + covers.filter { $0.rank < rank }.map(\.mode) }
}
