/// Crossfade transition. Shader: Shaders/transition_crossfade.frag.
import KioskCore

/// The new item fades in over the old one: incoming alpha p.
public struct CrossfadeTransition: ShaderTransition {
    /// `crossfade`.
    public static let name = "crossfade"
    /// The file name of its shader piece.
    public static let fragmentShader = "transition_crossfade.frag"
    /// A crossfade.
    public init() {}
    /// Takes no options.
    public init(options: [String]) throws(UsageError) { try Self.noOptions(options) }
}
