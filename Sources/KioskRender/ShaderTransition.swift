/// Transitions as parts of the layer shader, not extra passes: during a change the outgoing and the incoming
/// picture layers are each drawn with the transition's piece, which says where the layer's picture shows and how
/// much of the canvas it covers at progress p. A transition is one shader piece, one descriptor and one line in
/// `PassRegistry.transitions`.
import KioskCore

/// The part a picture layer plays in a change.
public enum TransitionRole: Int, Sendable {
    /// The item going out (drawn first).
    case outgoing = 0
    /// The item coming in (drawn on top).
    case incoming = 1
}

/// A transition: its shader piece defines `vec3 kiosk_transition(vec2 canvasUV)` (xy: the canvas point of the
/// layer's own picture shown at canvasUV; z: the layer's coverage 0...1) from `u_transitionRole` and `u_progress`.
/// The descriptor owns its command-line name and parses its options.
public protocol ShaderTransition: Sendable {
    /// The name on the command line, e.g. `slide`.
    static var name: String { get }
    /// Its options for `--help` and docs/playing.md, e.g. `[:left|right|up|down]` (empty when it takes none).
    static var optionsUsage: String { get }
    /// The shader piece in Shaders/, e.g. `transition_slide.frag`.
    static var fragmentShader: String { get }
    /// Parses the options after the name; the error says what is wrong (the registry adds the flag and the name).
    init(options: [String]) throws(UsageError)
    /// Sets its own uniforms (the renderer sets `u_transitionRole` and `u_progress`).
    func setUniforms(_ program: Program, context: PassContext)
}

extension ShaderTransition {
    /// No options.
    public static var optionsUsage: String { "" }
    /// Nothing to set.
    public func setUniforms(_ program: Program, context: PassContext) {}

    /// Rejects any option (for transitions that take none).
    static func noOptions(_ options: [String]) throws(UsageError) {
        if let first = options.first { throw UsageError("takes no options (got '\(first)')") }
    }
}

/// How a picture layer takes part in a change: the transition, its role and the progress.
public struct LayerTransition: Sendable {
    /// The transition drawn.
    public var transition: any ShaderTransition
    /// Outgoing or incoming.
    public var role: TransitionRole
    /// 0...1 through the change.
    public var progress: Double

    /// A layer's part in a change.
    public init(_ transition: any ShaderTransition, role: TransitionRole, progress: Double) {
        self.transition = transition
        self.role = role
        self.progress = progress
    }

    /// Not in a change: the layer's whole picture, fully covering.
    public static var none: LayerTransition { LayerTransition(NoTransition(), role: .incoming, progress: 1) }
}

/// No transition (a cut, or a layer not in a change): identity, full coverage.
public struct NoTransition: ShaderTransition {
    /// `none`.
    public static let name = "none"
    /// The file name of its shader piece.
    public static let fragmentShader = "transition_none.frag"
    /// A cut.
    public init() {}
    /// Takes no options.
    public init(options: [String]) throws(UsageError) { try Self.noOptions(options) }
}
