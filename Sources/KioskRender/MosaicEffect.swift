/// Mosaic: pixelation left of a split line, the untouched picture right of it, and a thin bar on the line.
/// Shader: Shaders/mosaic.frag.
import KioskCore

/// Pixelation left of a split line; the untouched picture shows right of it; a bar marks the line.
public struct MosaicSettings: Sendable, Equatable {
    /// Allowed tile sizes, canvas pixels.
    public static let tileRange: ClosedRange<Double> = 1...512
    /// Allowed bar widths, whole canvas pixels (0 hides the bar).
    public static let barRange: ClosedRange<Double> = 0...64
    /// The bar's colour unless `bar-color` says otherwise: red.
    public static let defaultBarColor = RGBColor(red: 1, green: 0, blue: 0)
    /// Tile edge in canvas pixels (default 16).
    public var tile: Double
    /// The split as a fraction of the canvas width, 0...1: the effect applies where x/width ≤ split (default 0.5).
    public var split: Double
    /// The bar's width in whole canvas pixels, centred on the pixel edge nearest the split (default 2; 0: none).
    public var bar: Double
    /// The bar's colour (default red).
    public var barColor: RGBColor
    /// A sweep of the split back and forth (`split=A..B:period=S`); `split` is then where it starts.
    public var sweep: SplitSweep?

    /// Creates settings, clamped to their ranges (the bar's width to a whole number).
    public init(tile: Double = 16, split: Double = 0.5, bar: Double = 2, barColor: RGBColor = MosaicSettings.defaultBarColor,
                sweep: SplitSweep? = nil) {
        self.tile = min(max(tile, Self.tileRange.lowerBound), Self.tileRange.upperBound)
        self.split = min(max(split, 0), 1)
        self.bar = min(max(bar, Self.barRange.lowerBound), Self.barRange.upperBound).rounded()
        self.barColor = barColor
        self.sweep = sweep
    }
}

/// Pixelates the canvas in tiles of `tile` pixels where x/width ≤ `split`, and draws a bar `bar` pixels wide
/// on the split. All are uniforms, so they can change every frame (a drag, a sweep) without a new program.
public struct MosaicEffect: SplitEffect {
    /// `mosaic`.
    public static let name = "mosaic"
    /// Its options.
    public static let optionsUsage = "[:tile=N][:split=R|A..B][:period=S][:bar=W][:bar-color=#RRGGBB]"
    /// The file name of its shader piece.
    public static let fragmentShader = "mosaic.frag"
    /// Tile size, split and bar.
    public var settings: MosaicSettings

    /// A mosaic with `settings`.
    public init(settings: MosaicSettings) {
        self.settings = settings
    }

    /// `tile=N` (1...512 canvas pixels, default 16); `split=R` (0...1, default 0.5) or `split=A..B` (each 0...1:
    /// a sweep from A to B and back, on a cosine) with `period=S` (seconds > 0, default 10; only with a sweep);
    /// `bar=W` (whole pixels 0...64, default 2; 0 hides it); `bar-color=#RRGGBB` (default #FF0000). Any order.
    public init(options: [String]) throws(UsageError) {
        var m = MosaicSettings()
        var range: (from: Double, to: Double)?
        var period: (value: Double, option: String)?
        for (key, text) in try PieceSpec(name: Self.name, options: options).keyValues() {
            let option = "\(key)=\(text)"
            switch key {
            case "tile":
                let v = try Self.number(text, option)
                guard MosaicSettings.tileRange.contains(v) else { throw UsageError("\(option) is out of range 1...512") }
                m.tile = v
            case "split":
                let ends = text.components(separatedBy: "..")
                guard ends.count <= 2 else { throw UsageError("\(option) is not a number or a range A..B") }
                let values = try ends.map { (end: String) throws(UsageError) -> Double in try Self.number(end, option) }
                guard values.allSatisfy({ (0...1).contains($0) }) else { throw UsageError("\(option) is out of range 0...1") }
                m.split = values[0]
                range = values.count == 2 ? (values[0], values[1]) : nil
            case "period":
                let v = try Self.number(text, option)
                guard v > 0 else { throw UsageError("\(option) is not a number of seconds above 0") }
                period = (v, option)
            case "bar":
                let v = try Self.number(text, option)
                guard MosaicSettings.barRange.contains(v), v == v.rounded() else {
                    throw UsageError("\(option) is not a whole number of pixels 0...64")
                }
                m.bar = v
            case "bar-color":
                guard text.hasPrefix("#"), let c = RGBColor(hex: text) else { throw UsageError("\(option) is not a colour #RRGGBB") }
                m.barColor = c
            default:
                throw UsageError("unknown option '\(key)' (tile, split, period, bar, bar-color)")
            }
        }
        if let period, range == nil { throw UsageError("\(period.option) needs a sweep: split=A..B") }
        if let range { m.sweep = SplitSweep(from: range.from, to: range.to, period: period?.value ?? SplitSweep.defaultPeriod) }
        settings = m
    }

    /// A finite number, or an error naming `option`.
    private static func number(_ text: String, _ option: String) throws(UsageError) -> Double {
        guard let v = Double(text), v.isFinite else { throw UsageError("\(option) is not a number") }
        return v
    }

    /// The split drawn (for a sweep: its start).
    public var split: Double {
        get { settings.split }
        set { settings.split = min(max(newValue, 0), 1) }
    }

    /// The sweep the options asked for.
    public var sweep: SplitSweep? { settings.sweep }

    /// Whether the bar is drawn (wider than 0).
    public var drawsBar: Bool { settings.bar > 0 }

    /// Sets `u_tile` (canvas pixels), `u_split` (0...1 of the canvas width), `u_bar` (pixels) and `u_barColor`.
    public func setUniforms(_ program: Program, context: PassContext) {
        program.set("u_tile", settings.tile)
        program.set("u_split", settings.split)
        program.set("u_bar", settings.bar)
        program.set("u_barColor", settings.barColor.red, settings.barColor.green, settings.barColor.blue)
    }
}
