/// How one item hands over to the next (`--transition NAME[:OPTION]`). The slideshow only needs to know whether a
/// change is a cut; the renderer's transition registry owns the names and their options.

/// A transition chosen on the command line: a name and its options, syntax-checked only.
public struct TransitionSpec: Sendable, Hashable, CustomStringConvertible {
    /// The name and options.
    public var spec: PieceSpec

    /// A transition of `name` with `options`.
    public init(name: String, options: [String] = []) {
        spec = PieceSpec(name: name, options: options)
    }

    /// The name, e.g. `slide`.
    public var name: String { spec.name }
    /// The options, e.g. `["up"]`.
    public var options: [String] { spec.options }
    /// `NAME[:OPTION]...`.
    public var description: String { spec.description }

    /// A cut: no transition at all.
    public static let none = TransitionSpec(name: "none")
    /// The new item fades in over the old one (the default).
    public static let crossfade = TransitionSpec(name: "crossfade")
    /// A different transition for each change, seeded by `--seed`.
    public static let random = TransitionSpec(name: "random")

    /// Whether a change is a cut (nothing is drawn in between).
    public var isCut: Bool { spec.name == Self.none.name }

    /// Splits `NAME[:OPTION]...`; the error names `--transition`.
    public static func parse(_ text: String) throws(UsageError) -> TransitionSpec {
        TransitionSpec(spec: try PieceSpec.split(text, flag: "--transition"))
    }

    /// Wraps a split spec.
    public init(spec: PieceSpec) {
        self.spec = spec
    }
}
