import Foundation
import KioskCore
import KioskInput
import KioskMedia
import KioskOutput
import KioskRender

/// Why a run of the player failed.
public struct PlayerError: Error, CustomStringConvertible, Sendable {
    /// One line.
    public var description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// How a run of the player ended.
public struct PlayReport: Sendable {
    /// Frames that reached the screen.
    public var framesPresented: Int
    /// Slots shown (items, counting repeats).
    public var slotsShown: Int
    /// The clock's time at the end.
    public var endTime: Double
    /// The clock's time when the first frame had been presented, if one was.
    public var firstFrameTime: Double?
    /// Where items' sound played on the clock (for `record`, which mixes it into the file).
    public var soundSpans: [SoundSpan] = []

    /// Frames presented per second after the first one (start-up excluded), if at least two were.
    public var presentedFPS: Double? {
        guard let first = firstFrameTime, framesPresented > 1, endTime > first else { return nil }
        return Double(framesPresented - 1) / (endTime - first)
    }
}

/// The player: its screens and what they share. One turn of its loop: drain the command inbox (input is one
/// producer), let the mode that owns the screen take its turn (the slideshow or a layout, idle, the grid, the
/// screen off, an alert: `Modes/`), hand the frame it gives to the screen's `FramePresenter` (drawn only when it
/// changed), and rest as the mode said. A screen holds what is its own (`Screen.swift`); what every screen shares
/// is the `PlayerServices` (the log, the sound, the inbox, the events and board, the content intake, the
/// producers). Observers hear what happened.
public final class Player {
    /// The display and what it shows (`Screen.swift`): one, `main`.
    let screen: Screen
    /// What the screens share (`PlayerServices.swift`).
    let services: PlayerServices
    /// Called at the top of every turn of the frame loop (waits between turns last at most a second), e.g. to
    /// ping a watchdog that restarts a player whose loop hangs.
    public var onLoopTurn: (() -> Void)?

    /// Builds a player over `items` on `clock` and starts decoding the first item at once, so the decode
    /// overlaps the output's start-up. Frames go to the output given to `attach`.
    public init(items: [PlaylistItem], config: PlayerConfig, clock: Clock, log: Log,
                waitForDecodes: Bool, decode: DecodeCache.Decode? = nil) {
        LocalMediaPolicy.apply(config)  // how long a media read may block, and each clip's frame threads
        let frames = VideoFrameChoice(config.videoConversion)
        let book = ResumeBook()
        services = PlayerServices(log: log, sound: ItemSound(settings: config.audio, log: log), resume: book, videoFrames: frames,
                                  waitForDecodes: waitForDecodes)
        services.keepsRunningWhenEmpty = config.idleImage != nil
        services.playsSound = config.sync.playsSound
        services.events.observe { [log, clock] in PlayerLog.write($0, at: clock.now, log: log) }
        let playlist = LivePlaylist(items)
        // Layout items are read ahead with their decode, into `layoutItems`, whichever decoder is given.
        let limits = config.limits, reads = services.intake.layoutItems
        let cache = DecodeCache(playlist: playlist, timeout: config.decodeTimeout, log: log,
                                decode: decode.map { LayoutItemReads.decoder($0, limits: limits, into: reads) }
                                    ?? Player.decoder(for: Player.decodeConfig(config), log: log, resume: config.sync.epoch == nil ? book : nil,
                                                      frames: frames, layouts: reads))
        screen = Screen(name: "main", config: config, clock: clock, show: Slideshow(playlist: playlist, options: config.slideshow),
                        cache: cache, services: services)
    }

    /// Builds a player over `items` drawing into `output` on `clock`.
    public convenience init(items: [PlaylistItem], config: PlayerConfig, output: Output, clock: Clock, log: Log,
                            waitForDecodes: Bool, decode: DecodeCache.Decode? = nil) throws {
        self.init(items: items, config: config, clock: clock, log: log, waitForDecodes: waitForDecodes, decode: decode)
        try attach(output)
    }

    /// Sets the output frames go to (on the render thread: its GL context must be current here).
    public func attach(_ output: Output) throws { try screen.attach(output) }

    /// Plays until the playlist ends (`--no-loop`), `length` seconds pass, a `quit` command, or `shouldStop`.
    /// Throws when nothing given to it can be shown and nothing else can bring items.
    ///
    /// A turn: the producers' and the inbox's commands, then the screen's turn (its input, its mode's turn, the
    /// frame drawn and presented when it changed, and the rest until the next frame, a deadline or a wakeup:
    /// `Loop/ScreenTurn.swift`).
    public func run(length: Double?, shouldStop: () -> Bool = { false }) throws -> PlayReport {
        guard screen.presenter != nil else { throw PlayerError("the player has no output") }
        if let failure = screen.syncFailure { throw failure }
        if screen.config.grid.openAtStart { services.inbox.queueFromLoop(.grid(.open)) }
        defer { stopPlaying() }
        services.run.end = length
        while !shouldStop() && !services.run.quitRequested {
            onLoopTurn?()
            let t = screen.clock.now
            if let length, t >= length { break }
            screen.takeInput(at: t)
            services.turnProducers(at: t)
            runCommands(at: t)
            if services.run.quitRequested { break }
            if try !screen.turn(at: t) { break }
        }
        return try screen.report(keepsRunningWhenEmpty: services.keepsRunningWhenEmpty)
    }

    /// Play is over: every command still waiting answered, then the screen stops and the observers are told.
    private func stopPlaying() {
        for e in services.inbox.drain() { e.reply?(.failed("the player stopped")) }
        screen.stop()
    }
}

/// What the player's owner (the command line, a remote, a test) reaches: the shared parts by their names, and the
/// screen's for a player of one screen.
extension Player {
    /// Where every command comes in; send from any thread.
    public var inbox: CommandInbox { services.inbox }
    /// Content from the fetcher waiting for the end of the item on screen (`kiosk play URL`).
    public var pendingContent: PendingContent { services.intake.pendingContent }
    /// The content fetcher's status and commands for the remotes.
    public var contentControl: ContentControl { services.intake.contentControl }
    /// Where long clips were left.
    public var resume: ResumeBook { services.resume }
    /// Whether clips come as planes (the shader converts) or RGBA (swscale on the decode thread).
    public var videoFrames: VideoFrameChoice { services.videoFrames }
    /// Where the player posts its status and events for remote-control servers (one made before the player, so
    /// a server can bind first, may be set before `run`).
    public var board: PlayerBoard {
        get { services.events.board }
        set { services.events.board = newValue }
    }
    /// Asked once a turn for commands, and for when they next need a turn (schedules).
    public var producers: [LoopProducer] {
        get { services.producers }
        set { services.producers = newValue }
    }
    /// The local wall clock item windows are judged by: the instant at a player time, and the time zone.
    public var wallClock: (at: (Double) -> Date, zone: TimeZone) {
        get { services.wallClock }
        set { services.wallClock = newValue }
    }
    /// Whether items' sound goes to the audio device (false for `record`, which only notes where it plays).
    public var playsSound: Bool {
        get { services.playsSound }
        set { services.playsSound = newValue }
    }
    /// Whether the player idles on an empty (or wholly unplayable) playlist, waiting for commands to bring items,
    /// instead of ending. On with `--idle-image`, and whenever a source of items other than the paths runs; a
    /// playlist that commands have edited idles too.
    public var keepsRunningWhenEmpty: Bool {
        get { services.keepsRunningWhenEmpty }
        set { services.keepsRunningWhenEmpty = newValue }
    }
    /// Adds an observer; it is called on the player's thread for every event, in order.
    public func observe(_ observer: @escaping (PlayerEvent) -> Void) { services.events.observe(observer) }

    /// Called once, right after the first frame has been presented.
    public var onFirstFrame: (() -> Void)? {
        get { screen.onFirstFrame }
        set { screen.onFirstFrame = newValue }
    }
    /// Input: read once per frame; it sends commands and drives the current item's view.
    public var interaction: InteractionController? {
        get { screen.interaction }
        set { screen.interaction = newValue }
    }
    /// With `--untimed`: the clock the player moves itself, to each next video frame's time.
    public var untimedClock: VirtualClock? {
        get { screen.untimedClock }
        set { screen.untimedClock = newValue }
    }
    /// Display hotplug events (a udev monitor on the drm subsystem), checked once a frame.
    public var hotplug: DisplayHotplugMonitor? {
        get { screen.hotplug }
        set { screen.hotplug = newValue }
    }
    /// The slideshow being played.
    public var slideshow: Slideshow { screen.show }
    /// What text and bars are overlaid.
    public var overlays: OverlayState { screen.overlays }
    /// Whether the display is on (not in a schedule's off window, nor turned off by a remote).
    public var isScreenOn: Bool { !screen.screenOff }
    /// The DRM card number and connector id of the display in use (nil: no DRM display): the HDMI-CEC adapter
    /// tied to that connector is the one `--cec auto` takes.
    public var drmConnector: (card: UInt32, connector: UInt32)? { screen.drmConnector }

    /// Plays the layout `file` instead of the playlist, from the next turn: its regions drawn with this
    /// player's output (attached first), its stills lasting `--duration`. Its warnings and unplayable media
    /// are said once each.
    public func play(layout file: SMILFile) throws { try screen.play(layout: file) }
}
