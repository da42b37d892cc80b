import KioskCore
import KioskRender

/// What owns the screen this turn: the slideshow (or a layout), idle, the grid, or the screen off. The player's
/// loop asks the active mode for its turn; the mode moves its own state on to the turn's time and says what to
/// draw, or how long to rest. Drawing, the redraw test and waiting are the `FramePresenter`'s.
protocol PlayerMode: AnyObject {
    /// A short name for logs.
    var name: String { get }
    /// The mode's turn at player time `t`.
    func turn(at t: Double) throws -> ModeTurn
    /// Called before the turn when the mode takes the screen from another (its first frame is drawn whatever
    /// its key).
    func takesScreen()
    /// A mode of `rank` was pushed over this one at player time `t` (`ModeStack`).
    func covered(by rank: CoverRank, at t: Double)
    /// The mode of `rank` over this one was popped at player time `t`.
    func uncovered(by rank: CoverRank, at t: Double)
}

extension PlayerMode {
    /// Nothing to set up.
    func takesScreen() {}
    /// Nothing to hold.
    func covered(by rank: CoverRank, at t: Double) {}
    /// Nothing to go on with.
    func uncovered(by rank: CoverRank, at t: Double) {}
}

/// What a mode's turn asks of the loop.
enum ModeTurn {
    /// Show this frame (drawn only when it differs from the one on screen), then rest as it says.
    case frame(ModeFrame)
    /// Nothing to draw this turn.
    case rest(Rest)
    /// Play is over (the playlist ended, or nothing can bring items).
    case end
}

/// A frame a mode wants on screen.
struct ModeFrame {
    /// The pictures, composed on the canvas (overlays and the wall are added by the loop).
    var pictures: RenderFrame
    /// Equal for frames that look the same.
    var key: FrameKey
    /// Whether the screen's overlays (clock, messages, captions) are drawn over it and it is placed on the wall
    /// (`--wall`); the grid, and the screen off's black, are drawn as they are.
    var overlaid = true
    /// After it reached the screen.
    var shown: Rest = .none
    /// When it was the frame on screen already, or the display is lost.
    var unchanged: Rest = .nextFrame
    /// When it was drawn but not shown yet (a pending flip).
    var notShown: Rest = .none
    /// Called once it reached the screen (presentation logs).
    var onShown: (() -> Void)?
}

/// How the loop rests after a turn.
indirect enum Rest {
    /// Not at all: the next turn at once.
    case none
    /// About a frame: the output's next vblank, tick or virtual frame (or a wakeup).
    case nextFrame
    /// Until this player-clock time (or a wakeup).
    case until(Double)
    /// As `rest` says, then runs `step` (`--untimed`'s clock moving itself on).
    case then(Rest, () -> Void)
}
