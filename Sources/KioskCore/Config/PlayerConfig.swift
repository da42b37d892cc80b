/// Everything a slideshow needs to know that is not in the files: built from the command line.
public struct PlayerConfig: Sendable {
    /// Slideshow settings (duration, loop, shuffle, transition).
    public var slideshow = SlideshowOptions()
    /// Fit mode for flat items.
    public var fit: FitMode = .contain
    /// Letterbox colour.
    public var background: RGBColor = .black
    /// Canvas size (the headless canvas, the recording, or the mode's size on a display).
    public var size = PixelSize(width: 1920, height: 1080)
    /// Ken Burns motion on stills, if on.
    public var kenBurns: KenBurns?
    /// Seconds a decode may take before the item is given up.
    public var decodeTimeout: Double = 20
    /// Frame threads each clip's decoder gets (`--decode-threads`; 0: kiosk chooses from the clip's size and rate).
    public var decodeThreads = 0
    /// Where sound goes and how loud.
    public var audio = AudioSettings()
    /// Projection and start view from the command line (each item's `#EXTKIOSK:` line goes on top).
    public var projection = ProjectionOverride()
    /// Yaw degrees per second a 360/180 item pans in the slideshow (0 = still).
    public var panSpeed: Double = 3
    /// The picture effect, if any.
    public var effect: EffectSpec?
    /// Longest a video stays, in seconds (nil: its whole length).
    public var videoMax: Double?
    /// Where a clip's YUV frames become RGB (`--video-convert`).
    public var videoConversion: VideoConversion = .auto
    /// Present every video frame as soon as it is decoded, with no clock and no sound (`--untimed`).
    public var untimed = false
    /// The picture shown while there is nothing to play (`--idle-image`); the background colour without one.
    public var idleImage: String?
    /// Captions (`--captions`, `--caption FORMAT`, `--caption-position`, `--caption-time`); nil when off.
    public var captions: CaptionSettings?
    /// Messages, clock, progress and the rest overlaid on the pictures (`--no-overlays`, `--clock`, ...).
    public var overlays = OverlaySettings()
    /// The overview grid: columns, idle return, thumbnail caches (`--grid-columns`, `--grid-idle`, ...).
    public var grid = GridSettings()
    /// Wall-clock sync and this screen's part of a video wall (`--sync-epoch`, `--wall`, `--viewport`, `--sync-audio`).
    public var sync = SyncSettings()

    /// How large a picture may be (`--max-pixels`) and how much one animation may hold (`--animation-mb`).
    public var limits = DecodeLimits.standard

    /// Where an earlier run left off (`kiosk play`'s state file), continued at start: its item, a long clip's
    /// place, volume, mute and pause. Nil: start at the first item.
    public var restored: PlayerState?

    /// Defaults.
    public init() {}
}

/// Sound settings: the ALSA PCM and the software volume.
public struct AudioSettings: Sendable, Equatable {
    /// The ALSA PCM name (`default`, `hw:1,0`, a name from an asoundrc).
    public var device = "default"
    /// Software volume, 0...100 (100 = as decoded).
    public var volume = 100
    /// Silence without stopping the audio clock.
    public var muted = false

    /// Defaults: `default` at full volume.
    public init() {}
}

/// The option tables of the `kiosk` commands and how they become a `PlayerConfig`.
public enum CommandSpecs {
    /// Options shared by `play` and `record`: the slideshow and how it looks.
    public static let slideshow: [OptionSpec] = [
        OptionSpec("duration", .number(0.05...86_400), metavar: "S", "seconds per still (default 5)"),
        OptionSpec("shuffle", .flag, "random order, new each pass, no immediate repeats"),
        OptionSpec("seed", .integer(0...Int.max), metavar: "N", "seed for --shuffle, --ken-burns and --transition random (default 1)"),
        OptionSpec("loop", .flag, "start again after the last item (default)"),
        OptionSpec("no-loop", .flag, "stop after the last item"),
        // The help lists the renderer's registered transitions (written in by the kiosk command, see RenderChoices).
        OptionSpec("transition", .text, metavar: "NAME[:DIR]", "how items change (default crossfade)"),
        OptionSpec("transition-time", .number(0...60), metavar: "S", "seconds a transition takes (default 1)"),
        OptionSpec("idle-image", .text, metavar: "FILE",
                   "picture shown while the playlist is empty (default: the background colour); kiosk then waits for items"),
        OptionSpec("fit", .choice(FitMode.allCases.map(\.rawValue)), "how pictures fit the screen (default contain)"),
        OptionSpec("background", .color, metavar: "'#RRGGBB'", "letterbox colour (default #000000)"),
        OptionSpec("ken-burns", .flag, "slow zoom and pan across stills"),
        OptionSpec("decode-timeout", .number(0.1...600), metavar: "S", "give up a decode after S seconds (default 20)"),
        OptionSpec("decode-threads", .integer(0...16), metavar: "N",
                   "frame threads for each clip's decoder (default 0: one up to 1080p at 30 fps, one per core above; each more holds frames of its own)"),
        OptionSpec("video-max", .number(0.1...1e7), metavar: "S", "longest a video stays, in seconds (default: its length)"),
        OptionSpec("video-convert", .choice(VideoConversion.allCases.map(\.rawValue)),
                   "where video frames become RGB: cpu (swscale, on the decode thread), gpu (in the shader) or auto (default: cpu on a software renderer such as llvmpipe, gpu otherwise)"),
        OptionSpec("max-pixels", .integer(1...1_000_000_000), metavar: "N",
                   "refuse pictures, animation canvases and videos of more than N pixels, read from their headers (default 64000000)"),
        OptionSpec("animation-mb", .integer(4...4096), metavar: "MB",
                   "memory one animation may hold: its canvas and a window of frames at display size (default 64)"),
        OptionSpec("log-level", .choice(LogLevel.allCases.map(\.name)), "how much to say on stderr (default warn)"),
    ]

    /// `kiosk play` options.
    public static let play: [OptionSpec] = slideshow + [
        OptionSpec("output", .choice(["auto", "drm", "headless"]),
                   "where to show (default auto: the DRM/KMS display if one is connected and usable, else headless)"),
        OptionSpec("size", .size, metavar: "WxH", "headless canvas size (default 1920x1080; a display uses its mode)"),
        OptionSpec("drm-device", .text, metavar: "PATH", "DRM card (default: the first with a connected display)"),
        OptionSpec("drm-connector", .text, metavar: "NAME",
                   "connector, e.g. HDMI-A-1 (default: the first connected; 'kiosk outputs' lists them)"),
        OptionSpec("drm-mode", .text, metavar: "WxH[@Hz]", "display mode (default: the display's preferred mode)"),
        OptionSpec("drm-commit", .choice(["auto", "atomic", "legacy"]),
                   "how frames reach the display: atomic KMS where the driver has it (auto, the default), atomic only, or legacy (every screen's)"),
        OptionSpec("rotate", .choice(["0", "90", "180", "270"]), "turn the picture clockwise on the display (default 0)"),
        OptionSpec("length", .number(0...1e9), metavar: "S", "stop after S seconds"),
        OptionSpec("untimed", .flag, "headless: present every video frame as soon as it is decoded (no clock, no sound)"),
    ] + screens + audio + view + captions + overlays + input + cec + remote + fleet + web + scheduling + state + playLog + watch + grid + sync
        + content + health

    /// Schedule options of `kiosk play` and `kiosk record`.
    public static let scheduling: [OptionSpec] = [
        OptionSpec("schedule", .text, metavar: "FILE", "what plays when: 'DAYS HH:MM-HH:MM TARGET [DATES]' lines, 'off', 'fallback TARGET'"),
        OptionSpec("timezone", .text, metavar: "AREA/CITY", "the schedule's local time (default: the system's time zone)"),
        OptionSpec("start-time", .text, metavar: "YYYY-MM-DDTHH:MM[:SS]", "start the player's wall clock at this local time (previews, tests)"),
    ]

    /// State options of `kiosk play`: where it keeps the item, position, volume and pause across restarts.
    public static let state: [OptionSpec] = [
        OptionSpec("state-dir", .text, metavar: "DIR",
                   "keep the state (item, position, volume, pause) in DIR/state.json (default: $STATE_DIRECTORY, "
                   + "else /var/lib/kiosk if writable, else $XDG_STATE_HOME/kiosk)"),
        OptionSpec("no-state", .flag, "neither continue from nor save the state"),
    ]

    /// Folder-watching options of `kiosk play`.
    public static let watch: [OptionSpec] = [
        OptionSpec("no-watch", .flag, "do not watch the folders given for files that arrive and leave"),
        OptionSpec("settle", .number(0...3600), metavar: "S",
                   "a new file never closed after writing (a network share) plays once its size and time held S seconds (default 2)"),
    ]

    /// Remote-control options of `kiosk play` (mpv's JSON IPC).
    public static let remote: [OptionSpec] = [
        OptionSpec("input-ipc-server", .text, metavar: "PATH|auto",
                   "serve mpv's JSON IPC on a Unix socket (auto: $XDG_RUNTIME_DIR/kiosk/ipc.sock or /run/kiosk/ipc.sock)"),
        OptionSpec("ipc-mode", .choice(["0600", "0660"]), "the socket's mode: 0600 owner only (default), 0660 also its group"),
        OptionSpec("media-root", .text, metavar: "DIR",
                   "confine remote loadfile, loadlist and screenshot-to-file (IPC) and load (MQTT) to DIR (symlinks resolved)"),
    ]

    /// Sound options of `kiosk play`.
    public static let audio: [OptionSpec] = [
        OptionSpec("audio-device", .text, metavar: "NAME", "ALSA PCM to play sound on (default 'default')"),
        OptionSpec("mute", .flag, "play silently (the audio clock still runs)"),
        OptionSpec("volume", .integer(0...100), metavar: "0..100", "software volume (default 100)"),
    ]

    /// `kiosk record` options.
    public static let record: [OptionSpec] = slideshow + [
        OptionSpec("output", .text, metavar: "OUT.mp4|OUT.y4m", "the video file to write (required)"),
        OptionSpec("size", .size, metavar: "WxH", "frame size (default 1920x1080)"),
        OptionSpec("fps", .integer(1...240), metavar: "N", "frames per second (default 30)"),
        OptionSpec("length", .number(0...1e6), metavar: "S", "stop after S seconds (default: the playlist once with --no-loop, else 60)"),
        OptionSpec("realtime", .flag,
                   "keep pace with the wall clock (no frame before its time), so commands sent over IPC or MQTT land when they are sent"),
    ] + view + captions + overlays + scheduling + remote + fleet + playLog + screens

    /// `kiosk snapshot` options.
    public static let snapshot: [OptionSpec] = [
        OptionSpec("output", .text, metavar: "OUT.png", "the PNG to write (required)"),
        OptionSpec("size", .size, metavar: "WxH", "picture size (default 1920x1080)"),
        OptionSpec("at", .number(0...1e7), metavar: "SECONDS", "time into the item (animations: which frame)"),
        OptionSpec("fit", .choice(FitMode.allCases.map(\.rawValue)), "how the picture fits (default contain)"),
        OptionSpec("background", .color, metavar: "'#RRGGBB'", "letterbox colour (default #000000)"),
        OptionSpec("zoom", .number(1...4), metavar: "Z", "zoom 1..4 (default 1)"),
        OptionSpec("center", .point, metavar: "X,Y", "picture point at the centre, 0..1 each (default 0.5,0.5)"),
        OptionSpec("duration", .number(0.05...86_400), metavar: "S", "slot length used to time animations (default 5)"),
        OptionSpec("log-level", .choice(LogLevel.allCases.map(\.name)), "how much to say on stderr (default warn)"),
    ] + view + captions + snapshotOverlays + scheduling + snapshotGrid + wallView + screens + [
        OptionSpec("side-by-side", .flag, "with --screen: one picture of every screen, left to right in --screen order, "
                   + "top-aligned on black (else OUT-NAME.png per screen)"),
    ]

    /// `kiosk outputs` options.
    public static let outputs: [OptionSpec] = [
        OptionSpec("log-level", .choice(LogLevel.allCases.map(\.name)), "how much to say on stderr (default warn)"),
    ]

    /// `kiosk probe` options.
    public static let probe: [OptionSpec] = [
        OptionSpec("log-level", .choice(LogLevel.allCases.map(\.name)), "how much to say on stderr (default warn)"),
    ] + projectionFlags

    /// Builds a config from parsed `play`/`record`/`snapshot` options.
    public static func config(from o: ParsedOptions) throws -> PlayerConfig {
        var c = PlayerConfig()
        if let d = o.number("duration") { c.slideshow.duration = d }
        if o.has("loop") && o.has("no-loop") { throw UsageError("--loop and --no-loop contradict each other") }
        if o.has("no-loop") { c.slideshow.loop = false }
        c.slideshow.shuffle = o.has("shuffle")
        if let s = o.integer("seed") { c.slideshow.seed = UInt64(s) }
        if let t = o.string("transition") { c.slideshow.transition = try TransitionSpec.parse(t) }
        if let t = o.number("transition-time") { c.slideshow.transitionTime = t }
        if let f = o.string("idle-image") {
            guard !f.isEmpty else { throw UsageError("--idle-image: needs a file name") }
            c.idleImage = f
        }
        if let f = o.string("fit"), let m = FitMode(rawValue: f) { c.fit = m }
        if let b = o.color("background") { c.background = b }
        if let s = o.size("size") { c.size = s }
        if o.has("ken-burns") { c.kenBurns = KenBurns(seed: c.slideshow.seed) }
        if let t = o.number("decode-timeout") { c.decodeTimeout = t }
        if let n = o.integer("decode-threads") { c.decodeThreads = n }
        if let d = o.string("audio-device") { c.audio.device = d }
        if let v = o.integer("volume") { c.audio.volume = v }
        c.audio.muted = o.has("mute")
        c.videoMax = o.number("video-max")
        if let v = o.string("video-convert"), let conversion = VideoConversion(rawValue: v) { c.videoConversion = conversion }
        if let n = o.integer("max-pixels") { c.limits.maxPixels = n }
        if let m = o.integer("animation-mb") { c.limits.animationBytes = m << 20 }
        c.untimed = o.has("untimed")
        try applyView(o, to: &c)
        c.captions = try captionSettings(o)
        c.overlays = try overlaySettings(o)
        c.grid = try gridSettings(o)
        c.sync = try syncSettings(o)
        return c
    }
}
