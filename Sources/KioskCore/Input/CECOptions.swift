extension CommandSpecs {
    /// HDMI-CEC options of `kiosk play`: the TV's power follows the screen's, and the TV's remote drives kiosk.
    /// Each is a screen's own with several screens (a `[screen NAME]` section may give it: each screen has its
    /// TV); the global value is every screen's that does not.
    public static let cec: [OptionSpec] = [
        OptionSpec("cec", .text, metavar: "auto|off|/dev/cecN",
                   "HDMI-CEC adapter (default auto: the one tied to the display in use, else the only one; none: DPMS alone; "
                   + "with several screens each screen's own: auto takes the one tied to its connector)"),
        OptionSpec("cec-name", .text, metavar: "NAME", "the name the TV shows for kiosk's input, at most 14 characters (default kiosk)"),
        OptionSpec("cec-standby", .choice(["tv", "none"]), "screen off sends the TV to standby (tv, default) or only says kiosk is no longer the source (none)"),
        OptionSpec("cec-follow-standby", .choice(["pause", "ignore"]),
                   "the TV going to standby pauses playback until it comes back (pause, default) or not (ignore)"),
    ]

    /// The `--cec` given, checked: `auto` (also when none is given), `off` or a path (`/dev/cecN`).
    public static func cecAdapter(from o: ParsedOptions) throws(UsageError) -> String {
        let option = o.string("cec") ?? "auto"
        if !["auto", "off"].contains(option), !option.hasPrefix("/") {
            throw UsageError("--cec: '\(ErrorQuote.cut(option))' is not auto, off or a /dev/cecN path")
        }
        return option
    }

    /// The `--cec-name` given, checked: printable ASCII, 1-14 characters (what `<Set OSD Name>` carries).
    public static func cecName(from o: ParsedOptions) throws(UsageError) -> String {
        guard let name = o.string("cec-name") else { return "kiosk" }
        guard (1...14).contains(name.count), name.allSatisfy({ $0.isASCII && ($0.asciiValue ?? 0) >= 0x20 && ($0.asciiValue ?? 0) < 0x7F }) else {
            throw UsageError("--cec-name: '\(ErrorQuote.cut(name))' is not 1 to 14 printable ASCII characters")
        }
        return name
    }

    /// Checks the CEC options of `o` (a command line's, or one screen's), throwing the first bad value as one line
    /// naming its flag (`ConfigFile.locate` turns it into the `FILE:LINE` that set it).
    public static func checkCEC(_ o: ParsedOptions) throws(UsageError) {
        _ = try cecAdapter(from: o)
        _ = try cecName(from: o)
    }
}
