/// Slide: the new item pushes the old one out. Shader: Shaders/transition_slide.frag.
import KioskCore

/// A direction on the canvas, as written after a transition's name (`slide:up`).
public enum TransitionDirection: String, Sendable, CaseIterable {
    /// Towards x = 0.
    case left
    /// Towards x = width.
    case right
    /// Towards y = 0 (the top).
    case up
    /// Towards y = height (the bottom).
    case down

    /// The unit vector in canvas uv ((0,0) top-left).
    public var vector: (x: Double, y: Double) {
        switch self {
        case .left: return (-1, 0)
        case .right: return (1, 0)
        case .up: return (0, -1)
        case .down: return (0, 1)
        }
    }

    /// `[:left|right|up|down]`.
    static let usage = "[:" + allCases.map(\.rawValue).joined(separator: "|") + "]"

    /// At most one option naming a direction (default `left`).
    static func parse(_ options: [String]) throws(UsageError) -> TransitionDirection {
        guard options.count <= 1 else { throw UsageError("takes one direction, got \(options.count) options") }
        guard let text = options.first else { return .left }
        guard let direction = TransitionDirection(rawValue: text) else {
            throw UsageError("'\(text)' is not a direction (\(allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return direction
    }
}

/// The pictures move towards `direction`: at p the old one is offset by p·size, the new one by (p − 1)·size
/// (`slide:left`: old by −p·W, new by (1 − p)·W).
public struct SlideTransition: ShaderTransition {
    /// `slide`.
    public static let name = "slide"
    /// `[:left|right|up|down]`.
    public static let optionsUsage = TransitionDirection.usage
    /// The file name of its shader piece.
    public static let fragmentShader = "transition_slide.frag"
    /// Where the pictures move.
    public var direction: TransitionDirection

    /// A slide towards `direction`.
    public init(direction: TransitionDirection = .left) {
        self.direction = direction
    }

    /// `[left|right|up|down]`, default left.
    public init(options: [String]) throws(UsageError) {
        direction = try TransitionDirection.parse(options)
    }

    /// Sets `u_direction`.
    public func setUniforms(_ program: Program, context: PassContext) {
        program.set("u_direction", direction.vector.x, direction.vector.y)
    }
}
