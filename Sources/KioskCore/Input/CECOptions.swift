extension CommandSpecs {
    /// HDMI-CEC options of `kiosk play`: the TV's power follows the screen's, and the TV's remote drives kiosk.
    public static let cec: [OptionSpec] = [
        OptionSpec("cec", .text, metavar: "auto|off|/dev/cecN",
                   "HDMI-CEC adapter (default auto: the one tied to the display in use, else the only one; none: DPMS alone)"),
        OptionSpec("cec-name", .text, metavar: "NAME", "the name the TV shows for kiosk's input, at most 14 characters (default kiosk)"),
        OptionSpec("cec-standby", .choice(["tv", "none"]), "screen off sends the TV to standby (tv, default) or only says kiosk is no longer the source (none)"),
        OptionSpec("cec-follow-standby", .choice(["pause", "ignore"]),
                   "the TV going to standby pauses playback until it comes back (pause, default) or not (ignore)"),
    ]

    /// The `--cec-name` given, checked: printable ASCII, 1-14 characters (what `<Set OSD Name>` carries).
    public static func cecName(from o: ParsedOptions) throws -> String {
        guard let name = o.string("cec-name") else { return "kiosk" }
        guard (1...14).contains(name.count), name.allSatisfy({ $0.isASCII && ($0.asciiValue ?? 0) >= 0x20 && ($0.asciiValue ?? 0) < 0x7F }) else {
            throw UsageError("--cec-name: '\(name)' is not 1 to 14 printable ASCII characters")
        }
        return name
    }
}
