/// The options of several screens (issue 40): `--screen` and `--bezel`, and which of `kiosk play`'s options a
/// `[screen NAME]` section may give.
extension CommandSpecs {
    /// `--screen` and `--bezel` (`kiosk play`).
    public static let screens: [OptionSpec] = [
        OptionSpec("screen", .text, metavar: "NAME:CONNECTORS:SOURCE",
                   "one screen of several: NAME (a-z, 0-9, _, -), its connector (HDMI-A-1), A+B (a span: one canvas across "
                   + "the outputs, left to right) or A,B (a mirror), and what it plays (empty: its section's path lines); "
                   + "a [screen NAME] section of --config gives it its own options. Not with --drm-connector",
                   repeatable: true),
        OptionSpec("bezel", .integer(0...16_384), metavar: "PX",
                   "a span's hidden gap between two panels, in pixels (default 0; spans only)"),
    ]
}

/// Which of `kiosk play`'s options one screen of several may have for itself.
public enum ScreenOptions {
    /// The options a `[screen NAME]` section may give, so that one screen differs from the global lines and the
    /// command line: what plays when, how the picture sits on the screen, the slideshow, the view, the text on
    /// screen, the sound and the wall clock it follows, how its content fetcher fetches (its cache folder, budget,
    /// periods, CA, rate and key) and its TV's HDMI-CEC (its adapter, the name its TV shows, what screen off sends and
    /// whether the TV's standby pauses it). Every other option of `kiosk play` (`CommandSpecs.play`) applies to the
    /// whole player: the output and card, decoding and limits, the remotes (IPC, MQTT, web), input, the state, the
    /// play log, folder watching, signed bundles. `path = …` lines are the screen's content, not an option.
    /// `ScreenOptionTests` checks that each name is one of `kiosk play`'s options.
    public static let perScreen: [String] = [
        "schedule",
        "rotate", "drm-mode", "size", "bezel",
        "duration", "shuffle", "seed", "loop", "no-loop", "transition", "transition-time", "idle-image", "fit",
        "background", "ken-burns", "video-max",
        "projection", "input-fov", "stereo", "eye", "yaw", "pitch", "roll", "fov", "pan-speed", "effect",
        "captions", "caption", "caption-position", "caption-time",
        "no-overlays", "osd-level", "osd-size", "caption-size", "clock", "clock-position", "progress", "clip-info",
        "overscan", "font", "text-box",
        "audio-device", "mute", "volume",
        "sync-epoch", "sync-audio", "wall", "viewport",
        "content-cache", "content-cache-mb", "content-refresh", "content-media-refresh", "content-ca", "content-rate", "content-key",
        "cec", "cec-name", "cec-standby", "cec-follow-standby",
    ]

    /// `perScreen` as a set, for look-ups.
    static let perScreenNames = Set(perScreen)

    /// Options that undo each other: a section that sets one drops the other the global lines set.
    static let opposites = ["loop": "no-loop", "no-loop": "loop"]

    /// Whether `name` is an option one screen may have for itself.
    public static func isPerScreen(_ name: String) -> Bool { perScreenNames.contains(name) }

    /// Throws the one-line reason a section's `line` (at `at`, `FILE:LINE`) may not stand there: an option that
    /// applies to the whole player, one `kiosk play` does not have, or a value that does not fit.
    static func check(_ line: ConfigLine, at: String) throws(UsageError) {
        guard let name = line.optionName else { return }
        guard let spec = CommandSpecs.play.first(where: { $0.name == name }) else {
            throw UsageError("\(at): play: unknown option '--\(ErrorQuote.cut(name))' (see kiosk play --help)")
        }
        if name == "drm-connector" {
            throw UsageError("\(at): 'drm-connector' does not go in a [screen] section: a screen's connectors are in its --screen line")
        }
        guard isPerScreen(name) else {
            throw UsageError("\(at): '\(name)' applies to the whole player, not to one screen (move it above the first [screen] section)")
        }
        if case .flag(_, on: false) = line { return }  // unset: nothing to check
        do {
            _ = try ParsedOptions.parse(line.arguments, specs: [spec], command: "play")
        } catch let e as UsageError {
            throw UsageError("\(at): \(e.message)")
        } catch {
            throw UsageError("\(at): \(error)")
        }
    }
}
