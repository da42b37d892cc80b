/// The grid as commands: every way to open, close or drive it (long press, the menu key, a remote's keys, IPC's
/// `kiosk-view`) arrives as one of these, so the player alone owns the grid's state.

/// What the player shows full screen: the slideshow, or the overview grid over it (paused with the reason `grid`).
public enum ScreenView: String, Sendable, CaseIterable {
    /// The running slideshow.
    case slideshow
    /// The overview grid of the playlist.
    case grid
}

/// A command for the grid.
public enum GridCommand: Sendable, Equatable {
    /// Opens the grid (the slideshow pauses with the reason `grid`); nothing when it is open.
    case open
    /// Closes it, back to the slideshow where it was; nothing when it is closed.
    case close
    /// Opens it when closed, closes it when open (the menu key).
    case toggle
    /// Shows only what a chip picks (also while closed: the filter the grid opens with).
    case filter(GridFilter)
    /// A touch, key or wheel step while it is open (ignored while closed).
    case input(GridInput)
}
