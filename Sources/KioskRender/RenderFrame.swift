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
    /// The effect applied on the canvas (none by default).
    public var effect: any ShaderEffect

    /// Creates a layer.
    public init(texture: Texture, pass: any ShaderPass, opacity: Double = 1, effect: any ShaderEffect = NoEffect()) {
        self.texture = texture
        self.pass = pass
        self.opacity = opacity
        self.effect = effect
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
