/// One screen of several (issue 40), resolved from its `--screen NAME:CONNECTORS:SOURCE`, the global options and
/// its `[screen NAME]` section: what the player loop needs to play it.
public struct ScreenPlan: Sendable {
    /// The screen's NAME.
    public var name: String
    /// Its connectors: one, a span (with its bezel) or a mirror.
    public var connectors: ScreenConnectors
    /// What it plays: its SOURCE, else its section's `path = …` lines (empty: its schedule says).
    public var sources: [String]
    /// Its `kiosk play` arguments: the global options with its section's on top, then `--` and `sources`; no
    /// connector (`--drm-connector` is the player's to add per output).
    public var arguments: [String]
    /// Each argument's `FILE:LINE`, nil for the command line's own (for `ConfigFile.locate`).
    public var origins: [String?]
    /// `arguments` parsed against `CommandSpecs.play`.
    public var options: ParsedOptions
    /// `options` as `kiosk play` makes them a config (`CommandSpecs.config(from:)`).
    public var config: PlayerConfig
    /// The `FILE:LINE` of its `screen = …` line; nil when the command line gave it.
    public var origin: String?
    /// The `FILE:LINE` of its `[screen NAME]` header, if it has one.
    public var section: String?
    /// Its options that differ from the global ones, in `ScreenOptions.perScreen` order.
    public var changes: [ScreenOptionChange]

    /// `--screen NAME`, after `FILE:LINE: ` when a config line gave it: the start of an error about the screen.
    public var label: String { (origin.map { "\($0): " } ?? "") + "--screen \(name)" }
}

/// One option a screen's section sets otherwise than the global lines and the command line.
public struct ScreenOptionChange: Sendable, Equatable {
    /// The option's name.
    public var name: String
    /// The screen's value(s): `[""]` for a flag that is on, nil when the section unset it.
    public var values: [String]?
    /// The global value(s), nil when none was given.
    public var global: [String]?
    /// The `FILE:LINE` of the section line that set it.
    public var origin: String?

    /// `duration = 8 (global 5)`, `shuffle = on (global off)`, `clock = off (global %H:%M)`.
    public var text: String {
        "\(name) = \(Self.show(values)) (global \(Self.show(global)))"
    }

    private static func show(_ values: [String]?) -> String {
        guard let values else { return "off" }
        return values == [""] ? "on" : values.joined(separator: ", ")
    }
}
