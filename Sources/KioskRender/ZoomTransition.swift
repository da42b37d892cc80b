/// Zoom transition. Shader: Shaders/transition_zoom.frag.
import KioskCore

/// The old item zooms 1 -> 1.2 about the centre while the new one fades in over it (incoming alpha p).
public struct ZoomTransition: ShaderTransition {
    /// `zoom`.
    public static let name = "zoom"
    /// The file name of its shader piece.
    public static let fragmentShader = "transition_zoom.frag"
    /// The magnification of the outgoing item at the end of the change.
    public static let endScale = 1.2
    /// A zoom.
    public init() {}
    /// Takes no options.
    public init(options: [String]) throws(UsageError) { try Self.noOptions(options) }
}
