import KioskCore
import KioskPlayer

/// What one command says about itself: its place in the command list, its usage lines, what it does and the
/// option table its parser reads. `kiosk COMMAND --help` prints it and `kiosk --manual` writes it into the manual
/// page, so neither is a hand-kept copy of the other.
struct CommandHelp {
    /// The command's name (`play`).
    let name: String
    /// Its arguments as the command list shows them (`[PATH ...]`).
    let arguments: String
    /// What it does, for the command list (lines split with `\n`).
    let brief: String
    /// The usage lines, each a whole `kiosk …` line (lines split with `\n`).
    let usage: String
    /// What it does, for its own `--help`.
    let summary: String
    /// The options its parser reads.
    let specs: [OptionSpec]

    /// The options as `--help` and the manual show them (the transitions and effects the registry holds).
    var documented: [OptionSpec] { RenderChoices.documented(specs) }

    /// The `--help` text.
    var text: String {
        OptionParser.help(usage: usage.replacingOccurrences(of: "\nkiosk ", with: "\n       kiosk "), summary: summary,
                          specs: documented)
    }

    /// Every command, in the order `kiosk --help` lists them.
    static let all: [CommandHelp] = [play, record, snapshot, probe, outputs, checkConfig, ctl, fleet, report, content, webSnapshot, passwd]

    /// `kiosk play`.
    static let play = CommandHelp(name: "play", arguments: "[PATH ...]",
        brief: "play files, folders and .m3u playlists (no path: the built-in demo)\non the DRM/KMS display, or headless when there is none",
        usage: "kiosk play [OPTIONS] [PATH ...]\nkiosk play [OPTIONS] --screen NAME:CONNECTORS:SOURCE ... [--config FILE]",
        summary: "Plays files, folders (recursive, by name; watched for files that arrive and leave) and .m3u\nplaylists full screen. With no path it plays the built-in demo.\n"
            + "With --screen: several screens in one loop, each its own source and options, on connectors of one\n"
            + "card (one each, A+B a span: one canvas across them, A,B a mirror) or on headless canvases.",
        specs: CommandSpecs.play)
    /// `kiosk record`.
    static let record = CommandHelp(name: "record", arguments: "[PATH ...]",
        brief: "render the slideshow into a video file on a virtual clock",
        usage: "kiosk record [PATH ...] --output OUT.mp4|OUT.y4m [--size WxH] [--fps N] [--length S] [play options]",
        summary: "Renders the slideshow offscreen on a virtual clock, exactly timed and faster than real time,\nand encodes it (H.264 if available, else MPEG-4; .y4m writes raw frames).",
        specs: CommandSpecs.record)
    /// `kiosk snapshot`.
    static let snapshot = CommandHelp(name: "snapshot", arguments: "INPUT",
        brief: "render one frame of one item into a PNG",
        usage: "kiosk snapshot INPUT --output OUT.png --size WxH [--at S] [--fit MODE] [--zoom Z] [--center X,Y]\n"
            + "kiosk snapshot --schedule FILE [--start-time T] [--timezone Z] [FALLBACK ...] --output OUT.png\n"
            + "kiosk snapshot PATH... --grid [--filter KIND] [--grid-scroll ROWS] [--layout-json FILE] --output OUT.png",
        summary: "Renders one frame of one item through the same GL pipeline as play, into a PNG of exactly WxH.\n"
            + "With --schedule: the frame play shows at --start-time (black while the screen is off).\n"
            + "With --grid: the overview grid of the items, as the menu key opens it.",
        specs: CommandSpecs.snapshot)
    /// `kiosk probe`.
    static let probe = CommandHelp(name: "probe", arguments: "FILE ...",
        brief: "describe files as JSON lines",
        usage: "kiosk probe FILE ...",
        summary: "Prints one JSON object per file: path, kind, width, height, frames, duration, loops,\norientation, projection, stereo, input_fov, source (name|metadata|override|none), or error.\nExits 1 if any file had an error.",
        specs: CommandSpecs.probe)
    /// `kiosk outputs`.
    static let outputs = CommandHelp(name: "outputs", arguments: "",
        brief: "list DRM/KMS cards, connectors, status and modes",
        usage: "kiosk outputs",
        summary: "Lists the DRM/KMS cards, their connectors, status and modes (for --drm-device,\n--drm-connector and --drm-mode). Exits 1 when there are no cards.",
        specs: CommandSpecs.outputs)
    /// `kiosk check-config`.
    static let checkConfig = CommandHelp(name: "check-config", arguments: "FILE",
        brief: "check a config, its schedule and playlists; print the next 7 days",
        usage: "kiosk check-config FILE [--timezone AREA/CITY] [--start-time T]",
        summary: "Checks a config file, the schedule it names and the playlists and folders they name: each\nproblem as FILE:LINE: reason (exit 2); with none, the effective schedule for the next 7 days,\nthen each screen its screen lines name (connectors, source, its own options).\nA SMIL layout (FILE.smil): its problems, or each region's first minute.",
        specs: [OptionSpec("timezone", .text, metavar: "AREA/CITY", "the schedule's time zone (default: the system's)"),
                OptionSpec("start-time", .text, metavar: "YYYY-MM-DDTHH:MM[:SS]", "the table starts here (default: now)"),
                OptionSpec("log-level", .choice(LogLevel.allCases.map(\.name)), "default warn")])
    /// `kiosk ctl`.
    static let ctl = CommandHelp(name: "ctl", arguments: "COMMAND [ARG ...]",
        brief: "control a running player over its IPC socket (next, pause, get, observe, status…)",
        usage: ControlCommand.usage,
        summary: "Controls a running 'kiosk play --input-ipc-server PATH' (or mpv) over its JSON IPC socket.\n\n"
            + ControlRequest.help,
        specs: ControlCommand.specs)
    /// `kiosk fleet`.
    static let fleet = CommandHelp(name: "fleet", arguments: "--mqtt HOST[:PORT]",
        brief: "list every kiosk on an MQTT broker with its health and alerts, offline ones first",
        usage: "kiosk fleet --mqtt HOST[:PORT] [--wait S] [--json] [--mqtt-user NAME --mqtt-password-file FILE] [--mqtt-tls-ca FILE]",
        summary: "Reads the broker's retained messages (kiosk/ID/availability, kiosk/ID/health) for at most --wait\n"
            + "seconds and prints one line per kiosk: its ID, online or offline (offline is also its last will), the\n"
            + "age of its health report, its highest temperature, its least free space, its frames dropped in the last\n"
            + "hour and its active alerts. Offline kiosks first, then those with alerts, then the rest.\n"
            + "A broker that cannot be read is one line naming it and why (exit 1). See docs/health.md.",
        specs: FleetCommand.specs)
    /// `kiosk report`.
    static let report = CommandHelp(name: "report", arguments: "",
        brief: "count what the play log says was shown, per item, hour, day, region, screen or verdict",
        usage: "kiosk report [--play-log FILE] [--since T] [--until T] [--by item|hour|day|region|screen|verdict] [--format table|csv|json|xibo]\n"
            + "             [--verdict seen|all|screen-off|display-absent|tv-standby|unknown]\n"
            + "kiosk report --verify [--key PUBKEY|FILE] [--play-log FILE]\n"
            + "kiosk report --public-key | --sign [--play-log FILE]",
        summary: "Counts the showings in the play log and sums their seconds on screen: only those seen (a display\n"
            + "connected and on) unless --verdict says otherwise; a table says the others under its total. --verify checks the log's hash\n"
            + "chain and signatures (docs/proof-of-play.md): exit 0 and a summary line, or exit 1 naming the first row\n"
            + "that does not match; a crash's recorded break is not an error.",
        specs: ReportCommand.specs)
    /// `kiosk content`.
    static let content = CommandHelp(name: "content", arguments: "sync URL | import DIR",
        brief: "fetch an index (SMIL or M3U) and its media from a server into a content cache,\nor import a signed bundle (a USB stick's folder) into it",
        usage: "kiosk content sync URL --cache DIR [--content-ca FILE] [--content-rate KBPS] [--content-cache-mb N] [--content-key FILE]\n"
            + "kiosk content import DIR --cache DIR --content-key FILE [--content-cache-mb N]",
        summary: "Checks the index at URL (http or https) once and makes it and every medium it names local in the\n"
            + "cache DIR: conditional requests (an unchanged index costs one request), downloads continued\n"
            + "after a cut, lengths and sha256 attributes checked. Only when everything is local does the index\n"
            + "become the cache's last good one. Exits 0 with one summary line when everything is local, 1 with\n"
            + "one line per problem otherwise (the last good index stays).\n"
            + "import: takes the bundle in DIR (DIR/kiosk/index.smil, else DIR/index.smil, signed as index.smil.minisig\n"
            + "with the content key, naming the URL it stands for in <meta name=\"kiosk-url\">, a sha256 for each\n"
            + "medium, the media beside it) and makes it that URL's last good index. Exits 0 with one summary line,\n"
            + "1 with one line per problem when refused (unsigned, forged, a medium missing, changed or outside the\n"
            + "bundle): nothing in the cache changes.",
        specs: ContentCommand.specs)
    /// `kiosk web-snapshot`.
    static let webSnapshot = CommandHelp(name: "web-snapshot", arguments: "PAGE.html",
        brief: "render a local web page in the web helper (WPE WebKit) into a PNG",
        usage: "kiosk web-snapshot PAGE.html --output OUT.png [--size WxH] [--timeout S] [--settle S]",
        summary: "Shows PAGE.html in kiosk's web helper (a child 'kiosk-web-helper': WPE WebKit offscreen, its frames\n"
            + "handed back in shared memory) at WxH device pixels and writes the first frame it paints after its\n"
            + "load event (never the blank page before; the newest after --settle) as a PNG. The page reaches only\n"
            + "its own folder: other navigations and loads are refused, http and https go nowhere, nothing is\n"
            + "stored. A page missing, failing to load or not painted within --timeout is one line (exit 1).",
        specs: WebSnapshotCommand.specs)
    /// `kiosk passwd`.
    static let passwd = CommandHelp(name: "passwd", arguments: "FILE",
        brief: "read a password on standard input and write its crypt(3) hash for --http-password-file",
        usage: "kiosk passwd FILE",
        summary: "Reads a password on standard input and writes its crypt(3) hash (yescrypt) to FILE (mode 0600),\nfor 'kiosk play --http ADDR:PORT --http-password-file FILE'.",
        specs: [])
}

/// The options `kiosk` itself takes before a command, and the exit statuses every command shares.
enum ToolHelp {
    /// The options in place of a command (`kiosk --version`).
    static let options: [(flag: String, help: String)] = [
        ("--help", "this list of commands"),
        ("--version", "the version ('kiosk 0.N.0')"),
        ("--manual", "the manual page kiosk(1) as roff (man -l <(kiosk --manual))"),
    ]

    /// The exit statuses, as every command returns them.
    static let exitStatuses: [(status: String, meaning: String)] = [
        ("0", "done"),
        ("1", "a failure while running: a file that cannot be read, no DRM card (outputs), an error reply (ctl),\na file probe could not describe"),
        ("2", "a usage error (an unknown or bad option, a missing argument), one line naming the flag,\nor the problems check-config found (one FILE:LINE: reason each)"),
        ("128+N", "signal N arrived and the frame loop did not stop within the stop watchdog's grace"),
    ]

    /// What kiosk is, first in `--help` and the manual's description.
    static let description = "An offline, full-screen slideshow player for Linux."

    /// What follows the lists.
    static let closing = """
    Run 'kiosk COMMAND --help' for a command's options. '--config FILE' anywhere after the command reads
    'name = value' lines (the same names as the options; 'path = …' adds what to play). For play, a
    '[screen NAME]' line starts the options of the screen '--screen NAME:…' (or 'screen = …') names.
    """

    /// The text of `kiosk --help` (and of `kiosk` alone, on standard error).
    static var summary: String {
        var s = "usage: kiosk COMMAND [OPTIONS] [PATH ...]\n\n\(description)\n\ncommands:\n"
        for command in CommandHelp.all {
            s += column(command.name + (command.arguments.isEmpty ? "" : " " + command.arguments), command.brief)
        }
        s += "\noptions instead of a command:\n"
        for option in options { s += column(option.flag, option.help) }
        s += "\nexit status:\n"
        for exit in exitStatuses { s += column(exit.status, exit.meaning) }
        return s + "\n" + closing
    }

    /// One entry of a two-column list: `left` padded to 25 columns, `right`'s further lines under its first.
    private static func column(_ left: String, _ right: String) -> String {
        let indent = String(repeating: " ", count: 27)
        let lines = right.split(separator: "\n", omittingEmptySubsequences: false)
        let first = "  " + left + (left.count < 25 ? String(repeating: " ", count: 25 - left.count) : " ")
        return first + lines.map(String.init).joined(separator: "\n" + indent) + "\n"
    }
}
