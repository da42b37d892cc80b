/// How touches, keys and the wheel drive the grid while it is open: a tap opens the tile or picks the chip under
/// the finger, a vertical drag scrolls (with inertia on release), a two-finger tap closes; an IR remote's arrows,
/// page and home/end keys move the focus ring, OK opens the focused tile and BACK (or the menu key) closes.

/// The grid's share of input, pure.
public enum GridInputRouting {
    /// Evdev codes that move the focus: up, down, left, right, page up/down (and a remote's channel up/down), home,
    /// end.
    static let moves: [Int: GridMove] = [103: .up, 108: .down, 105: .left, 106: .right, 104: .pageUp, 109: .pageDown,
                                         0x192: .pageUp, 0x193: .pageDown, 102: .home, 107: .end]
    /// OK on a remote, Enter on a keyboard, select.
    static let activate: Set<Int> = [0x160, 28, 96, 0x161]
    /// Back, Escape, Exit.
    static let back: Set<Int> = [158, 1, 174]

    /// What a gesture does to the open grid.
    public static func command(for gesture: Gesture) -> GridCommand? {
        switch gesture {
        case .tap(let p), .doubleTap(let p): return .input(.tap(p))
        case .drag(_, let dy): return .input(.drag(dy: dy))
        case .dragEnded(_, let vy): return .input(.dragEnded(vy: vy))
        case .twoFingerTap: return .close
        case .longPress, .swipe, .pinch, .pinchEnded: return nil
        }
    }

    /// What a key press (not a release) does to the open grid: a move, OK, back; nil for keys the grid leaves
    /// to the key map (volume, mute, quit, the menu key's own `grid` action).
    public static func command(forKey code: Int) -> GridCommand? {
        if let m = moves[code] { return .input(.move(m)) }
        if activate.contains(code) { return .input(.activate) }
        if back.contains(code) { return .close }
        return nil
    }

    /// Whether a key-map outcome still acts while the grid is open: volume, mute, quit, the grid key and console
    /// switches do; what would move, pause, zoom or caption the slideshow hidden under the grid does not, so that
    /// closing the grid goes back to where the slideshow was.
    public static func passesThrough(_ outcome: KeyOutcome) -> Bool {
        switch outcome {
        case .ignored: return false
        case .switchVT: return true
        case .action(let a):
            switch a {
            case .volumeUp, .volumeDown, .mute, .grid, .quit: return true
            case .next, .previous, .pause, .zoomIn, .zoomOut, .overlay, .back, .effect, .none: return false
            }
        }
    }

    /// A wheel turn of `steps` detents (positive: away from the user) scrolls the grid up by that many rows.
    public static func command(forWheel steps: Double) -> GridCommand {
        .input(.scroll(rows: -steps))
    }
}
