/// What remote-control servers see of the player: a snapshot of its state (`PlayerStatus`), the events it
/// publishes, and a `CommandSink` to send commands to. Servers run on their own threads; they read snapshots and
/// send commands, and never touch the player's state.

/// Where commands go (the player's inbox). Thread-safe.
public protocol CommandSink: AnyObject, Sendable {
    /// Queues `command`; `reply` is called once it has run (on the player's thread), or failed when the run ends.
    func send(_ command: PlayerCommand, reply: (@Sendable (CommandReply) -> Void)?)
}

/// The player's state as of its last frame. Every value a remote property reads comes from here.
public struct PlayerStatus: Sendable, Equatable {
    /// One playlist entry.
    public struct Entry: Sendable, Equatable {
        /// Its stable id.
        public var id: ItemID
        /// The file, as given.
        public var path: String
        /// A title, where the playlist gave one (`#EXTINF:...,title`).
        public var title: String?

        /// An entry.
        public init(id: ItemID, path: String, title: String? = nil) {
            self.id = id
            self.path = path
            self.title = title
        }
    }

    /// The current item's view.
    public struct View: Sendable, Equatable {
        /// Zoom factor (flat items), 1 when not zoomed.
        public var zoom = 1.0
        /// The picture point at the canvas centre, 0...1 each.
        public var centerX = 0.5, centerY = 0.5
        /// Sphere angles, degrees.
        public var yaw = 0.0, pitch = 0.0, roll = 0.0
        /// Horizontal field of view, degrees.
        public var fov = 90.0

        /// The default view.
        public init() {}
    }

    /// The playlist, in order.
    public var playlist = StatusPlaylist()
    /// The item on screen (nil when idle or before the first item is shown).
    public var currentID: ItemID?
    /// Why it is paused (empty: playing).
    public var pauseReasons: Set<PauseReason> = []
    /// Sound volume 0...100, and mute.
    public var volume = 100
    public var mute = false
    /// Seconds into the current item (its slot time, a clip's media time), if something is on screen.
    public var timePosition: Double?
    /// The current item's length in seconds: a clip's or animation's own, a still's slot.
    public var duration: Double?
    /// The current item's picture size, when known (decoded).
    public var itemWidth: Int?
    public var itemHeight: Int?
    /// The current item's kind (`image`, `animation`, `video`, `audio`), when known.
    public var itemKind: String?
    /// Nothing to play: waiting for items (never while a layout plays instead of the playlist).
    public var idle = false
    /// The playlist ended (`loop` off) and nothing more will play.
    public var finished = false
    /// Whether the playlist starts over after its last item, and whether it plays in shuffled order.
    public var loop = true
    public var shuffle = false
    /// Seconds a still stays on screen.
    public var imageDuration = 5.0
    /// The transition between items (`crossfade`, `slide:left`, `none`…) and its seconds.
    public var transition = "crossfade"
    public var transitionTime = 1.0
    /// The canvas (display, after rotation) size and refresh rate.
    public var displayWidth = 0
    public var displayHeight = 0
    public var displayFPS: Double?
    /// The current item's view.
    public var view = View()
    /// The current item's projection (`flat`, `equirect`, `fisheye`…) and its stereo layout.
    public var projection = "flat"
    /// The picture effect (`mosaic:tile=8:split=0.25`), if any.
    public var effect: String?
    /// Where the effect's split is this frame (the mosaic's; a fraction of the canvas width, 0...1), if it has one.
    public var effectSplit: Double?
    /// The output's name for logs (`headless`, `drm card0 HDMI-A-1 1920x1080@60`) and its rotation in degrees.
    public var output = ""
    public var rotation = 0
    /// Whether the display is on (a schedule's `off` window or a remote's `screen off` turns it off).
    public var screenOn = true
    /// The TV's power status over HDMI-CEC; nil without CEC (`--cec off`, or no adapter).
    public var tvPower: TVPower?
    /// Today's showings in the play log (local day), and their seconds on screen; nil without a play log.
    public var playStats: PlayStats?
    /// What is full screen: the slideshow or the grid.
    public var screenView = ScreenView.slideshow
    /// The emergency alert on screen, if one is.
    public var alert: EmergencyAlert?
    /// The content fetcher (`kiosk play URL`, or one waiting for a remote's `load URL`); nil without one.
    public var content: ContentStatus?
    /// The health monitor's latest report (the machine's readings and this player's displays); nil without one.
    public var health: HealthReport?
    /// The SMIL layout playing instead of the playlist, if one is, and what each of its regions shows.
    public var layout: String?
    public var regions: [RegionStatus] = []
    /// The grid's chip (also while it is closed: the one it opens with).
    public var gridFilter = GridFilter.all
    /// The path of the grid's focused tile while it is open.
    public var gridFocus: String?

    /// A status: idle, empty.
    public init() {}

    /// Position of the current item in the playlist, if any.
    public var currentPosition: Int? {
        guard let id = currentID else { return nil }
        return playlist.position(of: id)
    }

    /// The current entry, if any: the playlist's item on screen, else the layout playing instead of the playlist
    /// (its playlist entry when a remote's load listed it, else an entry of its own), so that a layout is what
    /// `path`, `kiosk ctl status` and the web page say plays, not `idle`.
    public var current: Entry? {
        if let p = currentPosition { return playlist[p] }
        guard let layout else { return nil }
        return playlist.first { $0.path == layout } ?? Entry(id: Self.layoutID, path: layout)
    }

    /// The id of a layout's own entry (one the playlist does not list): no playlist item has it.
    public static let layoutID = ItemID(-1)
}

/// The play log's figures for one local day.
public struct PlayStats: Sendable, Equatable {
    /// `YYYY-MM-DD`, local.
    public var day: String
    public var showings: Int
    public var seconds: Double
    /// Figures for `day`.
    public init(day: String, showings: Int, seconds: Double) { self.day = day; self.showings = showings; self.seconds = seconds }
}
