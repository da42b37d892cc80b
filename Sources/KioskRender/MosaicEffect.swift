/// Mosaic: pixelation left of a split line, the untouched picture right of it. Shader: Shaders/mosaic.frag.
import KioskCore

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

/// Pixelates the canvas in tiles of `tile` pixels where x/width ≤ `split`. Both are uniforms, so they can change
/// every frame (animated) without a new program.
public struct MosaicEffect: ShaderEffect {
    /// `mosaic`.
    public static let name = "mosaic"
    /// `[:tile=N][:split=R]`.
    public static let optionsUsage = "[:tile=N][:split=R]"
    /// The file name of its shader piece.
    public static let fragmentShader = "mosaic.frag"
    /// Tile size and split.
    public var settings: MosaicSettings

    /// A mosaic with `settings`.
    public init(settings: MosaicSettings) {
        self.settings = settings
    }

    /// `tile=N` (1...512 canvas pixels, default 16) and `split=R` (0...1, default 0.5), in any order.
    public init(options: [String]) throws(UsageError) {
        var m = MosaicSettings()
        for (key, text) in try PieceSpec(name: Self.name, options: options).keyValues() {
            guard let v = Double(text), v.isFinite else { throw UsageError("\(key)=\(text) is not a number") }
            switch key {
            case "tile":
                guard MosaicSettings.tileRange.contains(v) else { throw UsageError("tile=\(text) is out of range 1...512") }
                m.tile = v
            case "split":
                guard (0...1).contains(v) else { throw UsageError("split=\(text) is out of range 0...1") }
                m.split = v
            default:
                throw UsageError("unknown option '\(key)' (tile, split)")
            }
        }
        settings = m
    }

    /// Sets `u_tile` (canvas pixels) and `u_split` (0...1 of the canvas width).
    public func setUniforms(_ program: Program, context: PassContext) {
        program.set("u_tile", settings.tile)
        program.set("u_split", settings.split)
    }
}
