/// Effects and transitions named on the command line: `NAME[:OPTION]...`. The core only splits and syntax-checks
/// the text; each renderer descriptor owns its name and parses its own options (see KioskRender's registries).

/// A piece named on the command line (`--effect` or `--transition`): a name and its options, split at `:`.
public struct PieceSpec: Sendable, Hashable, CustomStringConvertible {
    /// The piece's name, e.g. `mosaic`, `slide`.
    public var name: String
    /// The options after the name, in order, e.g. `["tile=8"]` or `["left"]`.
    public var options: [String]

    /// Creates a spec.
    public init(name: String, options: [String] = []) {
        self.name = name
        self.options = options
    }

    /// `NAME[:OPTION]...` as written on the command line.
    public var description: String { ([name] + options).joined(separator: ":") }

    /// Splits `NAME[:OPTION]...`; the error names `flag` (e.g. `--effect`) when the name or an option is empty or
    /// the name is not a lowercase word.
    public static func split(_ text: String, flag: String) throws(UsageError) -> PieceSpec {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard let name = parts.first, !name.isEmpty,
              name.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
            throw UsageError("\(flag): '\(text)' does not start with a name (NAME[:OPTION]...)")
        }
        if let empty = parts.dropFirst().firstIndex(where: \.isEmpty) {
            throw UsageError("\(flag): option \(empty) of '\(text)' is empty")
        }
        return PieceSpec(name: name, options: Array(parts.dropFirst()))
    }

    /// The options as `key=value` pairs, in order; the error (without the flag) names the first that is not one.
    public func keyValues() throws(UsageError) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        for option in options {
            let kv = option.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard kv.count == 2, !kv[0].isEmpty, !kv[1].isEmpty else {
                throw UsageError("'\(option)' is not key=value")
            }
            pairs.append((kv[0], kv[1]))
        }
        return pairs
    }
}

/// The picture effect chosen with `--effect NAME[:key=value]...`; its renderer descriptor validates the options.
public typealias EffectSpec = PieceSpec
