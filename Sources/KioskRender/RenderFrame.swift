/// What the renderer draws in one frame: a background and layers, bottom first.
import KioskCore

/// One picture on the canvas, drawn by its pass and blended with its opacity.
public struct RenderLayer {
    /// The picture.
    public var texture: Texture
    /// How it is projected onto the canvas.
    public var pass: any ShaderPass
    /// 0...1: how much of it covers what is below (a crossfade draws two layers).
    public var opacity: Double

    /// Creates a layer.
    public init(texture: Texture, pass: any ShaderPass, opacity: Double = 1) {
        self.texture = texture
        self.pass = pass
        self.opacity = opacity
    }
}

/// One frame: the background colour, then the layers from bottom to top.
public struct RenderFrame {
    /// The colour of the canvas where no picture is.
    public var background: RGBColor
    /// The layers, bottom first.
    public var layers: [RenderLayer]

    /// Creates a frame.
    public init(background: RGBColor, layers: [RenderLayer]) {
        self.background = background
        self.layers = layers
    }
}
