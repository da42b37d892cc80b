/// What the renderer draws in one frame: a background, picture layers, then overlay layers, each blended into its
/// rectangle of the canvas in z-order.
import KioskCore

/// How a layer is combined with what is below it.
public enum LayerBlend: Sendable, Equatable {
    /// The layer replaces what is below inside its rect (its alpha is ignored).
    case opaque
    /// Premultiplied over: result = colour + below * (1 - alpha).
    case premultipliedOver
}

/// A rectangle in canvas pixels, (0,0) the top-left corner: the core's whole-pixel rectangle.
public typealias CanvasRect = PixelRect

/// One picture on the canvas, drawn by its pass, effect and transition, blended with its opacity.
public struct RenderLayer {
    /// The picture: an RGBA texture or a video frame's planes.
    public var texture: any LayerPicture
    /// How it is projected onto its rect (the rect is the pass's canvas).
    public var pass: any ShaderPass
    /// 0...1: how much of it covers what is below.
    public var opacity: Double
    /// The effect applied on the canvas (none by default).
    public var effect: any ShaderEffect
    /// Its part in a change between items (none by default).
    public var transition: LayerTransition
    /// How it is combined with what is below (premultiplied over by default).
    public var blend: LayerBlend
    /// Where it is drawn, in canvas pixels (nil: the whole canvas).
    public var rect: CanvasRect?
    /// Drawing order: lower first; equal z keep their order (picture layers 0, overlays 1 by default).
    public var z: Int

    /// Creates a layer.
    public init(texture: any LayerPicture, pass: any ShaderPass, opacity: Double = 1, effect: any ShaderEffect = NoEffect(),
                transition: LayerTransition = .none, blend: LayerBlend = .premultipliedOver, rect: CanvasRect? = nil,
                z: Int = 0) {
        self.texture = texture
        self.pass = pass
        self.opacity = opacity
        self.effect = effect
        self.transition = transition
        self.blend = blend
        self.rect = rect
        self.z = z
    }
}

/// A colour with premultiplied alpha, components 0...1 (red, green and blue each ≤ alpha).
public struct PremultipliedColor: Sendable, Equatable {
    /// Red × alpha.
    public var red: Double
    /// Green × alpha.
    public var green: Double
    /// Blue × alpha.
    public var blue: Double
    /// Alpha.
    public var alpha: Double

    /// A premultiplied colour as given.
    public init(red: Double, green: Double, blue: Double, alpha: Double) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// `color` at `alpha`, premultiplied.
    public init(_ color: RGBColor, alpha: Double) {
        self.init(red: color.red * alpha, green: color.green * alpha, blue: color.blue * alpha, alpha: alpha)
    }
}

/// A layer drawn over the pictures: a solid rectangle or a textured quad, stretched over its rect.
public struct RenderOverlay {
    /// What an overlay shows.
    public enum Content {
        /// A solid premultiplied colour.
        case solid(PremultipliedColor)
        /// An RGBA texture with alpha (a `Texture` stores its picture premultiplied, and is drawn so).
        case texture(Texture)
        /// A block of text (drawn where the drawing says; the overlay's rect is its area).
        case text(TextDrawing)
    }

    /// What it shows.
    public var content: Content
    /// Where, in canvas pixels.
    public var rect: CanvasRect
    /// 0...1, multiplies its colour and alpha.
    public var opacity: Double
    /// How it is combined with what is below (premultiplied over by default).
    public var blend: LayerBlend
    /// Drawing order: lower first; equal z keep their order (picture layers 0, overlays 1 by default).
    public var z: Int

    /// Creates an overlay.
    public init(_ content: Content, rect: CanvasRect, opacity: Double = 1, blend: LayerBlend = .premultipliedOver, z: Int = 1) {
        self.content = content
        self.rect = rect
        self.opacity = opacity
        self.blend = blend
        self.z = z
    }

    /// A block of text over its area.
    public init(text: TextDrawing, opacity: Double = 1, z: Int = 1) {
        self.init(.text(text), rect: CanvasRect(text.area), opacity: opacity, z: z)
    }
}

/// One frame: the background colour, then the layers from bottom to top.
public struct RenderFrame {
    /// Whether no picture is in a change between items: every layer whole (its transition done, fully opaque), so
    /// the frame shows the pictures themselves, the same each time they show (a proof thumbnail's moment).
    public var isSettled: Bool { layers.allSatisfy { $0.transition.progress >= 1 && $0.opacity >= 1 } }

    /// The colour of the canvas where no picture is.
    public var background: RGBColor
    /// The picture layers, bottom first.
    public var layers: [RenderLayer]
    /// The overlay layers, bottom first (above the pictures unless their z says otherwise).
    public var overlays: [RenderOverlay]

    /// Creates a frame.
    public init(background: RGBColor, layers: [RenderLayer], overlays: [RenderOverlay] = []) {
        self.background = background
        self.layers = layers
        self.overlays = overlays
    }

    /// One thing to draw, in z-order.
    enum Drawable {
        /// A picture layer.
        case picture(RenderLayer)
        /// An overlay.
        case overlay(RenderOverlay)
    }

    /// Picture layers then overlays, stably sorted by z.
    var drawOrder: [Drawable] {
        let all = layers.map { (z: $0.z, item: Drawable.picture($0)) } + overlays.map { (z: $0.z, item: Drawable.overlay($0)) }
        return all.enumerated().sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }.map(\.element.item)
    }
}
