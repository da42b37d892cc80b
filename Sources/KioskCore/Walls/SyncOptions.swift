/// The options of video walls and wall-clock sync: `--sync-epoch`, `--wall`, `--viewport` and `--sync-audio`.

/// Which screens of a synced group play a clip's sound.
public enum SyncAudio: String, CaseIterable, Sendable {
    /// Only the screen whose viewport holds the wall's origin (0,0); without `--wall`, every player (each shows
    /// the whole canvas, so each is its own leader).
    case leader
    /// Every screen.
    case all
    /// No screen.
    case none
}

/// How a player keeps in step with others and which part of a wall it shows.
public struct SyncSettings: Sendable, Equatable {
    /// Unix time at which pass 0 of the wall-clock timeline begins (nil: the player's own clock, no sync).
    public var epoch: Double?
    /// This screen's place on a wall (nil: it shows the whole canvas).
    public var wall: WallLayout?
    /// Which screens play sound.
    public var audio: SyncAudio = .leader

    /// No sync, no wall.
    public init() {}

    /// Whether this screen plays items' sound.
    public var playsSound: Bool {
        switch audio {
        case .all: return true
        case .none: return false
        case .leader: return wall?.holdsOrigin ?? true
        }
    }
}

extension CommandSpecs {
    /// `--wall` and `--viewport`: `play` and `snapshot`.
    public static let wallView: [OptionSpec] = [
        OptionSpec("wall", .size, metavar: "WxH", "video wall: the whole virtual canvas in wall pixels (with --viewport)"),
        OptionSpec("viewport", .text, metavar: "X,Y,W,H",
                   "video wall: this screen's part of the wall, scaled to the screen (leave bezel gaps between screens)"),
    ]

    /// The sync options of `kiosk play`.
    public static let sync: [OptionSpec] = [
        OptionSpec("sync-epoch", .number(0...4_102_444_800), metavar: "UNIXTIME",
                   "play a timeline fixed to the wall clock from this Unix time: players with the same playlist and options agree"),
        OptionSpec("sync-audio", .choice(SyncAudio.allCases.map(\.rawValue)),
                   "which synced screens play sound: leader (the one showing the wall's 0,0; default), all, none"),
    ] + wallView

    /// The sync and wall settings of parsed options; a usage error naming the flag when they do not fit together.
    public static func syncSettings(_ o: ParsedOptions) throws(UsageError) -> SyncSettings {
        var s = SyncSettings()
        s.epoch = o.number("sync-epoch")
        if s.epoch != nil, o.has("untimed") { throw UsageError("--sync-epoch follows the wall clock: it does not go with --untimed") }
        switch (o.size("wall"), o.string("viewport")) {
        case (nil, nil): break
        case (nil, .some): throw UsageError("--viewport needs --wall WxH (the whole canvas it is a part of)")
        case (.some, nil): throw UsageError("--wall needs --viewport X,Y,W,H (this screen's part of the wall)")
        case (.some(let wall), .some(let text)):
            s.wall = try WallLayout(wall: wall, viewport: WallLayout.parseViewport(text))
        }
        if let a = o.string("sync-audio"), let audio = SyncAudio(rawValue: a) {
            guard s.epoch != nil || s.wall != nil else { throw UsageError("--sync-audio goes with --sync-epoch or --wall") }
            s.audio = audio
        }
        return s
    }
}
