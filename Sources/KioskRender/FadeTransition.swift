/// Fade transition. Shader: Shaders/transition_fade.frag.
import KioskCore

/// Fade through the background: the old item fades out in the first half, the new one in in the second.
public struct FadeTransition: ShaderTransition {
    /// `fade`.
    public static let name = "fade"
    /// The file name of its shader piece.
    public static let fragmentShader = "transition_fade.frag"
    /// A fade.
    public init() {}
    /// Takes no options.
    public init(options: [String]) throws(UsageError) { try Self.noOptions(options) }
}
