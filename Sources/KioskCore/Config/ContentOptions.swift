extension CommandSpecs {
    /// Content-from-a-server options of `kiosk play URL` (and `kiosk content sync`): where the fetched index and
    /// media are cached, how they are fetched, and the key a signed index must verify with.
    public static let content: [OptionSpec] = [
        OptionSpec("content-cache", .text, metavar: "DIR",
                   "keep the fetched index and media in DIR (default: content/ in the state folder); with --screen, the "
                   + "first screen's, each further screen's in DIR/screens/NAME unless its section names one"),
        OptionSpec("content-ca", .text, metavar: "FILE", "trust the CA certificates in FILE (PEM) instead of the system's"),
        OptionSpec("content-rate", .number(1...10_000_000), metavar: "KBPS", "at most this many kilobytes per second per transfer"),
        OptionSpec("content-cache-mb", .integer(1...16_777_216), metavar: "N",
                   "keep the cache within N MiB (never evicting what the index needs)"),
        OptionSpec("content-key", .text, metavar: "FILE",
                   "play only an index signed with this minisign public key (URL.minisig), each medium with its sha256"),
        OptionSpec("content-bundle", .text, metavar: "DIR|auto",
                   "import a signed bundle (DIR/kiosk/index.smil or DIR/index.smil; needs --content-key) when it appears in DIR, "
                   + "or with auto on a stick mounted under /media, /run/media or /mnt"),
        OptionSpec("content-refresh", .number(5...86_400), metavar: "S",
                   "check the index every S seconds when it says no <meta http-equiv=\"Refresh\"> (default 60)"),
        OptionSpec("content-media-refresh", .number(5...604_800), metavar: "S",
                   "ask for each cached medium again every S seconds, to notice one changed in place (default 600)"),
    ]
}
