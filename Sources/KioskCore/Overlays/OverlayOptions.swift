/// The overlay options of `kiosk play`, `kiosk record` and `kiosk snapshot`: the on-screen messages, the clock,
/// the progress bar or countdown, a video's title and time, sizes and the TV safe area. Errors are one line
/// naming the flag.

/// How a slot's progress shows.
public enum ProgressStyle: String, Sendable, Equatable, CaseIterable {
    /// Not at all (the default).
    case none
    /// A thin bar along the bottom, filled as the slot runs (stills and clips).
    case bar
    /// A clip's time left (`0:07`) in the bottom right corner; nothing for stills.
    case countdown
}

/// What is overlaid and how large, from the command line.
public struct OverlaySettings: Sendable, Equatable {
    /// Whether any overlay shows: `--no-overlays` turns them all off, captions included, whatever else asks for
    /// them (so it can override a config's `--clock` or `--captions`).
    public var enabled = true
    /// How much the on-screen messages say (`--osd-level`): 0 nothing; 1 pause, volume, mute, zoom, the item's
    /// place after a skip, and the remote's texts; 2 also the item's place at every change and the next item's
    /// name just before a slot ends.
    public var osdLevel = 1
    /// Text size of the messages and the clock, of the canvas height (`--osd-size`).
    public var osdSize = 0.045
    /// Text size of captions, of the canvas height (`--caption-size`).
    public var captionSize = 0.05
    /// The clock's format (`--clock`), nil for no clock.
    public var clock: ClockFormat?
    /// Where the clock sits (`--clock-position`).
    public var clockPosition: OverlayAnchor = .topRight
    /// Whether `--clock-position` was given: then the clock stays there, over a layout's regions too; without it,
    /// the clock takes a corner free of the layout's regions, or does not show while none is.
    public var clockPositionAsked = false
    /// The slot's progress (`--progress`).
    public var progress: ProgressStyle = .none
    /// Whether a video shows its title and time (`--clip-info`).
    public var clipInfo = false
    /// Percent of the canvas kept clear at each edge (`--overscan`), for TVs that crop the picture.
    public var overscan = 0.0
    /// The font family (`--font`, as fontconfig names it); a family that is not installed falls back to this
    /// default with one warning.
    public var font = OverlaySettings.defaultFont

    /// How opaque the dark box behind captions, messages and the clock is (`--text-box`); 0: no box, the text's
    /// outline and shadow alone keep it readable.
    public var boxOpacity = 0.55

    /// The font overlays use unless `--font` says otherwise (Debian's fonts-dejavu-core).
    public static let defaultFont = "DejaVu Sans"

    /// Seconds the player's own messages stay (pause, volume, zoom, the item's place).
    public static let messageSeconds = 1.5
    /// mpv's `--osd-duration`: seconds a remote's `show-text` stays when it gives no duration.
    public static let remoteTextSeconds = 1.0
    /// Seconds before a slot's end that level 2 shows the next item's name.
    public static let nextNoticeSeconds = 2.0

    /// Defaults: messages at level 1, no clock, no progress.
    public init() {}

    /// The part of the canvas overlays keep within, in canvas fractions: `overscan` percent off each edge.
    public var safeArea: OverlayRect {
        let f = overscan / 100
        return OverlayRect.canvas.inset(dx: f, dy: f)
    }
}

extension CommandSpecs {
    /// The overlay options, appended to `play` and `record`.
    public static let overlays: [OptionSpec] = [
        OptionSpec("no-overlays", .flag, "show no text or bars over the pictures (captions, messages, clock, progress)"),
        OptionSpec("osd-level", .integer(0...2), metavar: "0|1|2",
                   "on-screen messages: 0 none, 1 pause/volume/zoom/remote texts (default), 2 also each item's place and what is next"),
        OptionSpec("osd-size", .number(0.01...0.2), metavar: "F", "message and clock text size, of the screen height (default 0.045)"),
        OptionSpec("caption-size", .number(0.01...0.2), metavar: "F", "caption text size, of the screen height (default 0.05)"),
        OptionSpec("clock", .text, metavar: "FORMAT", "show a clock: %H %M %S %T %R %Y %m %d %e %A %a %B %b (e.g. '%H:%M')"),
        OptionSpec("clock-position", .choice(OverlayAnchor.allCases.map(\.rawValue)), "where the clock sits (default top-right)"),
        OptionSpec("progress", .choice(ProgressStyle.allCases.map(\.rawValue)),
                   "a bar along the bottom, or a clip's time left (default none)"),
        OptionSpec("clip-info", .flag, "show a video's title and time"),
        OptionSpec("overscan", .number(0...10), metavar: "PERCENT", "keep overlays this far from each edge (default 0)"),
        OptionSpec("font", .text, metavar: "FAMILY", "the text's font family, as fontconfig knows it (default 'DejaVu Sans')"),
        OptionSpec("text-box", .number(0...1), metavar: "OPACITY", "the dark box behind text: 0 none, 1 opaque (default 0.55)"),
    ]

    /// The overlay options `kiosk snapshot` takes: those that show on a single frame.
    public static let snapshotOverlays: [OptionSpec] = overlays.filter {
        ["no-overlays", "osd-size", "caption-size", "clock", "clock-position", "progress", "clip-info", "overscan", "font",
         "text-box"].contains($0.name)
    }

    /// The overlay settings the options ask for; the error names the flag.
    public static func overlaySettings(_ o: ParsedOptions) throws(UsageError) -> OverlaySettings {
        var s = OverlaySettings()
        s.enabled = !o.has("no-overlays")
        if let level = o.integer("osd-level") { s.osdLevel = level }
        if let size = o.number("osd-size") { s.osdSize = size }
        if let size = o.number("caption-size") { s.captionSize = size }
        if let text = o.string("clock") {
            do {
                s.clock = try ClockFormat(parsing: text)
            } catch {
                throw UsageError("--clock: '\(text)': \(error)")
            }
        } else if o.has("clock-position") {
            throw UsageError("--clock-position needs --clock FORMAT")
        }
        if let p = o.string("clock-position"), let anchor = OverlayAnchor(rawValue: p) {
            s.clockPosition = anchor
            s.clockPositionAsked = true
        }
        if let p = o.string("progress"), let style = ProgressStyle(rawValue: p) { s.progress = style }
        s.clipInfo = o.has("clip-info")
        if let percent = o.number("overscan") { s.overscan = percent }
        if let opacity = o.number("text-box") { s.boxOpacity = opacity }
        if let family = o.string("font") {
            guard !family.allSatisfy({ $0 == " " || $0 == "\t" }) else { throw UsageError("--font: give a font family name") }
            s.font = family
        }
        return s
    }
}
