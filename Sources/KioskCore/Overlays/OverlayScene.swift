/// What text and bars are on screen in one frame, as plain values: no fonts, no pixels, no GL. `OverlayState`
/// makes one for each frame; the renderer turns it into layers. Every position is a fraction of the canvas
/// (0…1, x to the right, y down) and every text size a fraction of the canvas height, so a scene does not
/// depend on the output's resolution.

/// Where a text sits inside its area: one of nine places. A left anchor aligns the text's lines left, a right
/// anchor right, the others centre them.
public enum OverlayAnchor: String, Sendable, Equatable, CaseIterable {
    /// The top left corner.
    case topLeft = "top-left"
    /// The middle of the top edge.
    case top
    /// The top right corner.
    case topRight = "top-right"
    /// The middle of the left edge.
    case left
    /// The middle.
    case centre
    /// The middle of the right edge.
    case right
    /// The bottom left corner.
    case bottomLeft = "bottom-left"
    /// The middle of the bottom edge.
    case bottom
    /// The bottom right corner.
    case bottomRight = "bottom-right"

    /// Horizontal place: 0 left, 0.5 middle, 1 right (of the area, and of the text block).
    public var x: Double {
        switch self {
        case .topLeft, .left, .bottomLeft: return 0
        case .top, .centre, .bottom: return 0.5
        case .topRight, .right, .bottomRight: return 1
        }
    }

    /// Vertical place: 0 top, 0.5 middle, 1 bottom.
    public var y: Double {
        switch self {
        case .topLeft, .top, .topRight: return 0
        case .left, .centre, .right: return 0.5
        case .bottomLeft, .bottom, .bottomRight: return 1
        }
    }
}

/// A rectangle in canvas fractions: the core's fractional rectangle (`UnitRect`), (0,0) top-left.
public typealias OverlayRect = UnitRect

extension UnitRect: CustomStringConvertible {
    /// The whole canvas.
    public static let canvas = UnitRect.full

    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }

    /// The rectangle shrunk by `dx` on the left and right and `dy` on the top and bottom.
    public func inset(dx: Double, dy: Double) -> UnitRect {
        UnitRect(x: x + dx, y: y + dy, width: max(0, width - 2 * dx), height: max(0, height - 2 * dy))
    }

    /// `x,y wxh` with three decimals, for test failures.
    public var description: String {
        func f(_ v: Double) -> String { String((v * 1000).rounded() / 1000) }
        return "\(f(x)),\(f(y)) \(f(width))x\(f(height))"
    }
}

/// One text on screen.
public struct OverlayText: Sendable, Equatable {
    /// What the text is for (the renderer may style each differently; tests find texts by it).
    public enum Role: String, Sendable, Equatable, CaseIterable {
        /// The current item's caption.
        case caption
        /// An on-screen message: pause, volume, zoom, the item's place, a remote's `show-text`.
        case osd
        /// The wall clock.
        case clock
        /// A clip's time left.
        case countdown
        /// The now-playing card's title line.
        case cardTitle
        /// One of the card's other lines: artist, album, track and year.
        case cardLine
        /// The card's `elapsed / length` line.
        case cardTime
        /// A video's title and time (`--clip-info`).
        case clipInfo
        /// A filter chip's label on the grid.
        case gridChip
        /// A badge on a grid tile: its length, a 360 mark, a play mark.
        case gridBadge
    }

    /// What it is for.
    public var role: Role
    /// The text; `\n` breaks lines.
    public var text: String
    /// Where the text block sits in `area` (it also sets the lines' alignment).
    public var anchor: OverlayAnchor
    /// The rectangle the text is anchored in: the scene's safe area less its margin, or a line of the card.
    public var area: OverlayRect
    /// Font size (line height) as a fraction of the canvas height.
    public var sizeFraction: Double
    /// 0 (invisible) … 1 (opaque), in steps of 0.001.
    public var opacity: Double
    /// The most lines it wraps to; what does not fit ends in an ellipsis.
    public var maxLines: Int
    /// The widest a line may be, as a fraction of the canvas width.
    public var maxWidthFraction: Double
    /// Whether a translucent box goes behind it (for legibility over any picture).
    public var box: Bool
    /// Rectangles it must not cover (a layout's regions): the renderer tries `anchor`, then each of `fallbacks`,
    /// and leaves the text out where every one would cover one of them.
    public var avoid: [OverlayRect] = []
    /// The anchors tried after `anchor`, in order, while `avoid` is not empty.
    public var fallbacks: [OverlayAnchor] = []

    /// A text with every property given.
    public init(role: Role, text: String, anchor: OverlayAnchor, area: OverlayRect, sizeFraction: Double,
                opacity: Double = 1, maxLines: Int = 1, maxWidthFraction: Double = 0.9, box: Bool = false) {
        self.role = role
        self.text = text
        self.anchor = anchor
        self.area = area
        self.sizeFraction = sizeFraction
        self.opacity = opacity
        self.maxLines = maxLines
        self.maxWidthFraction = maxWidthFraction
        self.box = box
    }
}

/// One bar on screen: a track with a filled part from its left end.
public struct OverlayBar: Sendable, Equatable {
    /// What the bar is for.
    public enum Role: String, Sendable, Equatable, CaseIterable {
        /// The slot's progress along the bottom (`--progress bar`).
        case progress
        /// The now-playing card's progress.
        case cardProgress
    }

    /// What it is for.
    public var role: Role
    /// The whole track, in canvas fractions.
    public var rect: OverlayRect
    /// How much of it, from the left, is filled: 0…1.
    public var filled: Double

    /// A bar.
    public init(role: Role, rect: OverlayRect, filled: Double) {
        self.role = role
        self.rect = rect
        self.filled = filled
    }
}

/// Everything overlaid on one frame. Texts are drawn in order, each placed at its anchor inside its area;
/// texts that share an anchor and an area stack away from that edge (or, for the middle row, downward) in
/// order, the first nearest the edge, so an OSD message and a clock at the same corner never overlap.
public struct OverlayScene: Sendable, Equatable {
    /// The texts, in drawing and stacking order.
    public var texts: [OverlayText]
    /// The bars.
    public var bars: [OverlayBar]
    /// The now-playing card for a sound file, if one shows (its texts and bar are in `texts` and `bars` too; the
    /// item's cover art or placeholder goes in `card.layout.artwork`).
    public var card: NowPlayingCard?
    /// The part of the canvas overlays keep within (the whole canvas less `--overscan`).
    public var safeArea: OverlayRect

    /// A scene.
    public init(texts: [OverlayText] = [], bars: [OverlayBar] = [], card: NowPlayingCard? = nil,
                safeArea: OverlayRect = .canvas) {
        self.texts = texts
        self.bars = bars
        self.card = card
        self.safeArea = safeArea
    }

    /// Whether nothing is overlaid (the renderer can skip the overlay pass).
    public var isEmpty: Bool { texts.isEmpty && bars.isEmpty && card == nil }

    /// The first text with `role`, if any.
    public func text(_ role: OverlayText.Role) -> OverlayText? { texts.first { $0.role == role } }

    /// The first bar with `role`, if any.
    public func bar(_ role: OverlayBar.Role) -> OverlayBar? { bars.first { $0.role == role } }
}
