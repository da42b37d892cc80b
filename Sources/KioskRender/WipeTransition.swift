/// Wipe: the new item is revealed from one edge. Shader: Shaders/transition_wipe.frag.
import KioskCore

/// The new item is revealed from the edge `direction` names (`wipe:left`: the columns x < p·W show it; `right`:
/// x ≥ (1 − p)·W; `up`: the rows y < p·H from the top; `down`: y ≥ (1 − p)·H from the bottom). Shader:
/// Shaders/transition_wipe.frag.
public struct WipeTransition: ShaderTransition {
    /// `wipe`.
    public static let name = "wipe"
    /// `[:left|right|up|down]`.
    public static let optionsUsage = TransitionDirection.usage
    /// The file name of its shader piece.
    public static let fragmentShader = "transition_wipe.frag"
    /// The edge the new item comes from.
    public var edge: TransitionDirection

    /// A wipe from `edge`.
    public init(edge: TransitionDirection = .left) {
        self.edge = edge
    }

    /// `[left|right|up|down]`, default left.
    public init(options: [String]) throws(UsageError) {
        edge = try TransitionDirection.parse(options)
    }

    /// Sets `u_edge`: t = dot(uv, xy) + z is 0 at the edge and 1 at the opposite one.
    public func setUniforms(_ program: Program, context: PassContext) {
        switch edge {
        case .left: program.set("u_edge", 1, 0, 0)
        case .right: program.set("u_edge", -1, 0, 1)
        case .up: program.set("u_edge", 0, 1, 0)
        case .down: program.set("u_edge", 0, -1, 1)
        }
    }
}
