import Foundation

/// A video wall (`--wall WxH --viewport X,Y,W,H`): the scene is composed for one large virtual canvas and each
/// screen shows its rectangle of it, scaled to the screen. Bezels are the user's arithmetic: viewports leave gaps
/// between them in wall pixels, as wide as the bezels are, and those pixels are shown by no screen.

/// Where one screen sits on the wall.
public struct WallLayout: Sendable, Equatable {
    /// The whole virtual canvas, in wall pixels.
    public var wall: PixelSize
    /// This screen's part of it, in wall pixels.
    public var viewport: PixelRect

    /// A layout; throws a usage error naming the flag when the viewport is empty or leaves the wall.
    public init(wall: PixelSize, viewport: PixelRect) throws(UsageError) {
        guard viewport.width > 0, viewport.height > 0 else {
            throw UsageError("--viewport: \(Self.text(viewport)) must have a positive width and height")
        }
        // Compared without adding, so no number given can overflow.
        guard viewport.x >= 0, viewport.y >= 0, viewport.width <= wall.width, viewport.height <= wall.height,
              viewport.x <= wall.width - viewport.width, viewport.y <= wall.height - viewport.height else {
            throw UsageError("--viewport: \(Self.text(viewport)) is not inside the \(wall.width)x\(wall.height) wall")
        }
        self.wall = wall
        self.viewport = viewport
    }

    /// Parses `X,Y,W,H` (whole numbers; X and Y may not be negative, W and H must be positive).
    public static func parseViewport(_ text: String) throws(UsageError) -> PixelRect {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, numbers.count == 4 else {
            throw UsageError("--viewport: '\(text)' is not X,Y,W,H in wall pixels (e.g. 1920,0,1920,1080)")
        }
        let rect = PixelRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        guard rect.x >= 0, rect.y >= 0 else { throw UsageError("--viewport: '\(text)' has a negative X or Y") }
        guard rect.width > 0, rect.height > 0 else {
            throw UsageError("--viewport: \(Self.text(rect)) must have a positive width and height")
        }
        return rect
    }

    /// Whether this screen's viewport holds the wall's origin (0,0): the screen that plays sound with
    /// `--sync-audio leader`.
    public var holdsOrigin: Bool { viewport.x == 0 && viewport.y == 0 }

    /// How the wall lands on an output of `screen` pixels.
    public func placement(on screen: PixelSize) -> WallPlacement {
        let sx = Double(screen.width) / Double(viewport.width)
        let sy = Double(screen.height) / Double(viewport.height)
        func r(_ v: Double) -> Int { Int(saturating: v) }
        let canvas = PixelSize(width: max(1, r(Double(wall.width) * sx)), height: max(1, r(Double(wall.height) * sy)))
        return WallPlacement(canvas: canvas, offsetX: -r(Double(viewport.x) * sx), offsetY: -r(Double(viewport.y) * sy))
    }

    private static func text(_ r: PixelRect) -> String { "\(r.x),\(r.y),\(r.width),\(r.height)" }
}

/// The wall as drawn on one output: the whole wall scaled to the output's pixels (`canvas`), placed so that
/// the viewport's corner lands on the output's corner (`offsetX`, `offsetY` ≤ 0). Pictures and overlays are
/// composed on `canvas` and moved by the offset; the output clips the rest.
public struct WallPlacement: Sendable, Equatable {
    /// The wall's size in output pixels.
    public var canvas: PixelSize
    /// Where the wall's left edge falls on the output (0 or less).
    public var offsetX: Int
    /// Where the wall's top edge falls on the output (0 or less).
    public var offsetY: Int

    /// Creates a placement.
    public init(canvas: PixelSize, offsetX: Int, offsetY: Int) {
        self.canvas = canvas
        self.offsetX = offsetX
        self.offsetY = offsetY
    }

    /// The whole screen, no wall: a canvas of `size` at the corner.
    public static func whole(_ size: PixelSize) -> WallPlacement { WallPlacement(canvas: size, offsetX: 0, offsetY: 0) }

    /// A rectangle of the scaled wall (nil: all of it) in output pixels.
    public func onScreen(_ rect: PixelRect?) -> PixelRect {
        (rect ?? PixelRect(canvas)).offsetBy(offsetX, offsetY)
    }
}
