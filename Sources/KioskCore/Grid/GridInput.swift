/// What the touch grid is made of and spoken to with: its entries, the inputs that reach it (touch gestures,
/// wheel, remote keys) and the actions it asks of the player.

/// One playlist item as a grid tile.
public struct GridEntry: Sendable, Equatable {
    /// The item.
    public var id: ItemID
    /// Its file (the thumbnail's source and the tile's caption).
    public var path: String
    /// What the tile knows about it (kind, length, projection).
    public var facts: TileFacts

    /// An entry as given.
    public init(id: ItemID, path: String, facts: TileFacts) {
        self.id = id
        self.path = path
        self.facts = facts
    }
}

/// A focus move by a remote's or a keyboard's keys.
public enum GridMove: String, Sendable, CaseIterable {
    /// A row up (stays in the top row).
    case up
    /// A row down (to the last tile from a column the last row lacks; stays in the last row).
    case down
    /// The previous tile (from a row's start, the previous row's end; stays on the first).
    case left
    /// The next tile (from a row's end, the next row's start; stays on the last).
    case right
    /// As many rows up as the tile area shows whole.
    case pageUp = "page-up"
    /// As many rows down as the tile area shows whole.
    case pageDown = "page-down"
    /// The first tile.
    case home
    /// The last tile.
    case end
}

/// An input to the grid, in canvas pixels and seconds.
public enum GridInput: Sendable, Equatable {
    /// A tap: opens a tile, or picks a chip.
    case tap(CanvasPoint)
    /// A one-finger drag step by `dy` canvas pixels (down positive): the content follows the finger.
    case drag(dy: Double)
    /// The drag ended with the finger moving at `vy` px/s (down positive): the content coasts on.
    case dragEnded(vy: Double)
    /// Scroll by `rows` rows (down positive): the wheel, a remote's channel keys.
    case scroll(rows: Double)
    /// A focus move.
    case move(GridMove)
    /// OK: opens the focused tile.
    case activate
    /// BACK: closes the grid.
    case back
    /// Picks a filter, as a tap on its chip does.
    case filter(GridFilter)
}

/// What the grid asks of the player.
public enum GridAction: Sendable, Equatable {
    /// Close the grid and show this item.
    case open(ItemID)
    /// Close the grid, back to the slideshow as it was.
    case close
}
