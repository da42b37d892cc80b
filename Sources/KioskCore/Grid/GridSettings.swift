/// The grid's settings from the command line: its columns, when it closes by itself, and how much memory and disk
/// its thumbnails may take.

/// How the overview grid behaves.
public struct GridSettings: Sendable, Equatable {
    /// Columns (nil: from the canvas width, `GridLayout`'s rule).
    public var columns: Int?
    /// Seconds without input after which an open grid closes, back to the slideshow (`--grid-idle`; 0: never).
    public var idle = 60.0
    /// Bytes of decoded thumbnails kept in memory (`--thumb-cache-mb`).
    public var memoryBytes = 64 << 20
    /// Where thumbnails are kept on disk (nil: `$XDG_CACHE_HOME/kiosk/thumbs`, else under the state folder).
    public var diskFolder: String?
    /// Bytes the disk cache may take (LRU eviction beyond).
    public var diskBytes = 256 << 20
    /// Whether thumbnails are kept on disk at all (`--no-thumb-cache`).
    public var diskCache = true
    /// Whether the grid is open when the player starts (`--start-view grid`: a browsing kiosk).
    public var openAtStart = false

    /// Defaults.
    public init() {}
}

extension CommandSpecs {
    /// The grid options of `kiosk play`.
    public static let grid: [OptionSpec] = [
        OptionSpec("grid-columns", .integer(1...16), metavar: "N", "the grid's columns (default: from the screen width)"),
        OptionSpec("grid-idle", .number(0...86_400), metavar: "S",
                   "close the grid after S seconds without input, back to the slideshow (default 60; 0 never)"),
        OptionSpec("thumb-cache-mb", .integer(1...4096), metavar: "MB", "memory for decoded thumbnails (default 64)"),
        OptionSpec("thumb-cache-dir", .text, metavar: "DIR",
                   "keep thumbnails on disk in DIR (default $XDG_CACHE_HOME/kiosk/thumbs, at most 256 MiB)"),
        OptionSpec("no-thumb-cache", .flag, "keep no thumbnails on disk"),
        OptionSpec("start-view", .choice(ScreenView.allCases.map(\.rawValue)),
                   "what shows first: the slideshow (default), or the grid for visitors to browse"),
    ]

    /// The grid options of `kiosk snapshot --grid`.
    public static let snapshotGrid: [OptionSpec] = [
        OptionSpec("grid", .flag, "draw the overview grid of INPUT... (files, folders, playlists) instead of one item"),
        OptionSpec("filter", .choice(GridFilter.allCases.map(\.rawValue)), "with --grid: which chip is on (default all)"),
        OptionSpec("grid-scroll", .number(0...1e6), metavar: "ROWS", "with --grid: scrolled down by ROWS rows"),
        OptionSpec("layout-json", .text, metavar: "FILE",
                   "with --grid: write each tile's and chip's rectangle, one JSON object per line"),
        OptionSpec("grid-columns", .integer(1...16), metavar: "N", "with --grid: the columns (default: from the width)"),
    ]

    /// The grid settings the options ask for; the error names the flag.
    public static func gridSettings(_ o: ParsedOptions) throws(UsageError) -> GridSettings {
        var s = GridSettings()
        s.columns = o.integer("grid-columns")
        if let idle = o.number("grid-idle") { s.idle = idle }
        if let mb = o.integer("thumb-cache-mb") { s.memoryBytes = mb << 20 }
        if let dir = o.string("thumb-cache-dir") {
            guard !dir.isEmpty else { throw UsageError("--thumb-cache-dir: needs a folder") }
            if o.has("no-thumb-cache") { throw UsageError("--thumb-cache-dir and --no-thumb-cache contradict each other") }
            s.diskFolder = dir
        }
        s.diskCache = !o.has("no-thumb-cache")
        s.openAtStart = o.string("start-view") == ScreenView.grid.rawValue
        return s
    }
}
