import KioskCore

/// mpv's OSD commands: `show-text TEXT [DURATION_MS|-1 [LEVEL]]` and `show-progress`. The text is shown as it
/// is written (mpv's `${property}` expansion is not done). As in mpv, a duration that is absent or negative is
/// `--osd-duration`'s default (1000 ms), and the level is the lowest `--osd-level` the text shows at (default 1).
enum MPVOverlayCommands {
    static let all: [MPVCommand] = [
        MPVCommand(name: "show-text", args: [MPVCommandTable.arg("text", "String"),
                                             MPVCommandTable.arg("duration", "Integer", optional: true),
                                             MPVCommandTable.arg("level", "Integer", optional: true)],
                   vararg: false) { a, _ throws(MPVError) in
            let text = try a.required(0)
            let ms = try a.integer(1) ?? -1
            let seconds = ms < 0 ? OverlaySettings.remoteTextSeconds : Double(ms) / 1000
            let level = try a.integer(2) ?? 1
            return .player([.showText(text, seconds: seconds, level: level)], failure: .command, data: .null)
        },
        MPVCommand(name: "show-progress", args: [], vararg: false) { _, _ throws(MPVError) in
            .player([.showProgress], failure: .command, data: .null)
        },
    ]
}
