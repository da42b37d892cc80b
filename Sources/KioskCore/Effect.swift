/// Picture effects applied on the canvas after projection: parsed from `--effect NAME[:key=value]...`.

/// Pixelation left of a split line; the untouched picture shows right of it.
public struct MosaicSettings: Sendable, Equatable {
    /// Allowed tile sizes, canvas pixels.
    public static let tileRange: ClosedRange<Double> = 1...512
    /// Tile edge in canvas pixels (default 16).
    public var tile: Double
    /// The split as a fraction of the canvas width, 0...1: the effect applies where x/width ≤ split (default 0.5).
    public var split: Double

    /// Creates settings, clamped to their ranges.
    public init(tile: Double = 16, split: Double = 0.5) {
        self.tile = min(max(tile, Self.tileRange.lowerBound), Self.tileRange.upperBound)
        self.split = min(max(split, 0), 1)
    }
}

/// An effect chosen on the command line.
public enum EffectSpec: Sendable, Equatable {
    /// `mosaic[:tile=N][:split=R]`.
    case mosaic(MosaicSettings)

    /// The effect names known.
    public static let names = ["mosaic"]

    /// Parses `NAME[:key=value]...`; the error names `--effect` and what is wrong.
    public static func parse(_ text: String) throws -> EffectSpec {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard let name = parts.first, names.contains(name) else {
            throw UsageError("--effect: '\(parts.first ?? text)' is not one of \(names.joined(separator: ", "))")
        }
        var m = MosaicSettings()
        for option in parts.dropFirst() {
            let kv = option.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2, let v = Double(kv[1]), v.isFinite else {
                throw UsageError("--effect: '\(option)' is not key=NUMBER (mosaic takes tile=N and split=R)")
            }
            switch kv[0] {
            case "tile":
                guard MosaicSettings.tileRange.contains(v) else { throw UsageError("--effect: tile=\(kv[1]) is out of range 1...512") }
                m.tile = v
            case "split":
                guard (0...1).contains(v) else { throw UsageError("--effect: split=\(kv[1]) is out of range 0...1") }
                m.split = v
            default:
                throw UsageError("--effect: unknown mosaic option '\(kv[0])' (tile, split)")
            }
        }
        return .mosaic(m)
    }
}
