extension CommandSpecs {
    /// Proof-of-play options of `kiosk play` and `kiosk record`.
    public static let playLog: [OptionSpec] = [
        OptionSpec("play-log", .text, metavar: "FILE",
                   "record every showing in this SQLite file (play: default plays.sqlite in the state folder; record: none unless given)"),
        OptionSpec("no-play-log", .flag, "record no showings"),
        OptionSpec("play-log-days", .integer(1...100_000), metavar: "N", "keep N days of showings (default 400), pruned daily"),
        OptionSpec("play-log-batch", .number(0...600), metavar: "S",
                   "write the showings of S seconds together, to spare an SD card (default 300; 0: each at once); a power cut loses at most S seconds of them, a recorded break"),
    ]
}
