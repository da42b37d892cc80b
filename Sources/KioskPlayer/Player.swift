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

/// One screen a player plays: its name, its items and its play options.
public struct ScreenSetup {
    /// Its name (`main` for a player of one screen).
    public var name: String
    /// What it plays.
    public var items: [PlaylistItem]
    /// Its play options.
    public var config: PlayerConfig
    /// The SMIL layout it plays instead of `items` from the start (a URL's index from the content cache), if any.
    public var layout: SMILFile?

    /// Screen `name` playing `items` with `config`, or `layout` instead when one is given.
    public init(name: String, items: [PlaylistItem], config: PlayerConfig, layout: SMILFile? = nil) {
        self.name = name
        self.items = items
        self.config = config
        self.layout = layout
    }
}

/// The player: its screens and what they share. One turn of its loop: drain the command inbox (input is one
/// producer), let the mode that owns each screen take its turn (the slideshow or a layout, idle, the grid, the
/// screen off, an alert: `Modes/`), hand the frame it gives to the screen's `FramePresenter` (drawn only when it
/// changed), and rest as the modes said. A screen holds what is its own (`Screen.swift`); what every screen shares
/// is the `PlayerServices` (the log, the sound, the inbox, the layouts read off the loop, the producers). Observers hear what
/// happened.
public final class Player {
    /// The displays and what each shows (`Screen.swift`), in the order given; the first is the one commands go to
    /// when they name none.
    let screens: [Screen]
    /// What the screens share (`PlayerServices.swift`).
    let services: PlayerServices
    /// Called at the top of every turn of the frame loop (waits between turns last at most a second), e.g. to
    /// ping a watchdog that restarts a player whose loop hangs.
    public var onLoopTurn: (() -> Void)?

    /// Builds a player over `items` on `clock` and starts decoding the first item at once, so the decode
    /// overlaps the output's start-up. Frames go to the output given to `attach`.
    public convenience init(items: [PlaylistItem], config: PlayerConfig, clock: Clock, log: Log,
                            waitForDecodes: Bool, decode: DecodeCache.Decode? = nil) {
        self.init(screens: [ScreenSetup(name: "main", items: items, config: config)], clock: clock, log: log,
                  waitForDecodes: waitForDecodes, decode: decode)
    }

    /// Builds a player of `screens` (at least one; the first one's options set what the process shares: media
    /// reads, the sound, video conversion), all on `clock`, each starting its first decode at once. Each screen's
    /// frames go to the output `attach` gives it.
    public init(screens setups: [ScreenSetup], clock: Clock, log: Log, waitForDecodes: Bool, decode: DecodeCache.Decode? = nil) {
        let first = setups.first?.config ?? PlayerConfig()
        LocalMediaPolicy.apply(first)  // how long a media read may block, and each clip's frame threads
        let frames = VideoFrameChoice(first.videoConversion)
        let book = ResumeBook()
        services = PlayerServices(log: log, sound: ItemSound(settings: first.audio, log: log), resume: book, videoFrames: frames,
                                  waitForDecodes: waitForDecodes)
        services.keepsRunningWhenEmpty = first.idleImage != nil
        services.playsSound = first.sync.playsSound
        let services = self.services
        let several = setups.count > 1
        let stills = SharedStills()  // a still shown on several screens is decoded once
        screens = (setups.isEmpty ? [ScreenSetup(name: "main", items: [], config: first)] : setups).map { setup in
            let config = setup.config
            let playlist = LivePlaylist(setup.items)
            // Layout items are read ahead with their decode, into `layoutItems`, whichever decoder is given.
            let limits = config.limits, reads = services.intake.layoutItems
            let screenDecode = decode.map { LayoutItemReads.decoder($0, limits: limits, into: reads) }
                ?? Player.decoder(for: Player.decodeConfig(config), log: log, resume: config.sync.epoch == nil ? book : nil, frames: frames,
                                  layouts: reads)
            let cache = DecodeCache(playlist: playlist, timeout: config.decodeTimeout, log: log,
                                    decode: several ? stills.decoder(screenDecode, signature: SharedStills.signature(of: config)) : screenDecode)
            // with several screens each line of play says its screen
            let screenLog = several ? log.prefixed("screen \(setup.name): ") : log
            // a screen after the first: its own audio device (its section's audio-device) is heard; on the
            // player's device it is silent, the first screen being heard there
            let own = setup.name != setups.first?.name && config.audio.device != first.audio.device
            let sound = setup.name == setups.first?.name ? nil : (ItemSound(settings: config.audio, log: screenLog), heard: own)
            if several, let sound, setup.name != setups.first?.name {
                log.info("audio: screen \(setup.name) " + (sound.heard ? "on its own device \(config.audio.device)"
                                                                     : "is silent (the first screen is heard on \(first.audio.device))"))
            }
            let screen = Screen(name: setup.name, config: config, clock: clock, show: Slideshow(playlist: playlist, options: config.slideshow),
                                cache: cache, services: services, log: screenLog, sound: sound)
            screen.events.observe { [clock] in PlayerLog.write($0, at: clock.now, log: screenLog) }
            return screen
        }
    }

    /// Builds a player over `items` drawing into `output` on `clock`.
    public convenience init(items: [PlaylistItem], config: PlayerConfig, output: Output, clock: Clock, log: Log,
                            waitForDecodes: Bool, decode: DecodeCache.Decode? = nil) throws {
        self.init(items: items, config: config, clock: clock, log: log, waitForDecodes: waitForDecodes, decode: decode)
        try attach(output)
    }

    /// The first screen (the only one of a player of one screen).
    var screen: Screen { screens[0] }

    /// The screens' names, in order.
    public var screenNames: [String] { screens.map(\.name) }

    /// Sets the output the first screen's frames go to (on the render thread: its GL context must be current here).
    public func attach(_ output: Output) throws { try screen.attach(output, wakesInbox: true) }

    /// Sets the output screen `index`'s frames go to. Commands wake the first screen's output, whose wait the
    /// loop's is.
    public func attach(_ output: Output, toScreen index: Int) throws {
        guard screens.indices.contains(index) else { throw PlayerError("the player has no screen \(index + 1)") }
        try screens[index].attach(output, wakesInbox: index == 0)
    }

    /// Plays until the playlist ends (`--no-loop`), `length` seconds pass, a `quit` command, or `shouldStop`.
    /// Throws when nothing given to it can be shown and nothing else can bring items. With several screens, play
    /// goes on while any screen has something to play.
    ///
    /// A turn: the producers' and the inbox's commands, then each screen's turn (its input, its mode's turn, the
    /// frame drawn and presented when it changed: `Loop/ScreenTurn.swift`), then the rest until the earliest
    /// screen's next frame or deadline, or a wakeup (`Loop/PlayerRest.swift`).
    public func run(length: Double?, shouldStop: () -> Bool = { false }) throws -> PlayReport {
        for screen in screens {
            guard screen.presenter != nil else { throw PlayerError("the player has no output" + (screens.count > 1 ? " for screen \(screen.name)" : "")) }
            if let failure = screen.syncFailure { throw failure }
            if screen.config.grid.openAtStart { services.inbox.queueFromLoop(.grid(.open), toScreen: screen.name) }
        }
        defer { stopPlaying() }
        services.run.end = length
        var playing = screens.map { _ in true }
        while !shouldStop() && !services.run.quitRequested {
            onLoopTurn?()
            let t = screen.clock.now
            if let length, t >= length { break }
            for (i, s) in screens.enumerated() where playing[i] { s.takeInput(at: t) }
            services.turnProducers(at: t)
            runCommands(at: t)
            if services.run.quitRequested { break }
            var rests: [(Screen, Rest)] = []
            for (i, s) in screens.enumerated() where playing[i] {
                if let rest = try s.turn(at: t) { rests.append((s, rest)) } else { playing[i] = false }
            }
            if rests.isEmpty { break }
            rest(rests)
        }
        return try screen.report(keepsRunningWhenEmpty: services.keepsRunningWhenEmpty)
    }

    /// Play is over: every command still waiting answered, then each screen stops and its observers are told.
    private func stopPlaying() {
        for e in services.inbox.drain() { e.reply?(.failed("the player stopped")) }
        for s in screens { s.stop() }
    }
}

/// What the player's owner (the command line, a remote, a test) reaches: the shared parts by their names, and the
/// screen's for a player of one screen.
extension Player {
    /// Where every command comes in; send from any thread.
    public var inbox: CommandInbox { services.inbox }
    /// Content from the first screen's fetcher waiting for the end of the item on screen (`kiosk play URL`).
    public var pendingContent: PendingContent { screen.fetched.pending }
    /// The first screen's content fetcher's status and commands for the remotes.
    public var contentControl: ContentControl { screen.fetched.control }
    /// What screen `name`'s content fetcher leaves with it (its swap waiting, its status and commands); nil: no
    /// such screen.
    public func fetchedContent(forScreen name: String) -> FetchedContent? { screens.first { $0.name == name }?.fetched }
    /// Where long clips were left.
    public var resume: ResumeBook { services.resume }
    /// Whether clips come as planes (the shader converts) or RGBA (swscale on the decode thread).
    public var videoFrames: VideoFrameChoice { services.videoFrames }
    /// Where the player posts its status and events for remote-control servers (one made before the player, so
    /// a server can bind first, may be set before `run`).
    public var board: PlayerBoard {
        get { screen.events.board }
        set { screen.events.board = newValue }
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
    /// Adds a producer whose commands are for screen `name` alone (its own schedule).
    public func addProducer(_ producer: LoopProducer, forScreen name: String) {
        services.screenProducers.append((name, producer))
    }

    /// Screen `name`'s board: its status and events, for a remote that serves that screen (nil: no such screen).
    public func board(forScreen name: String) -> PlayerBoard? { screens.first { $0.name == name }?.events.board }

    /// Sets the board screen `name` posts to (one a remote bound before the player was made).
    public func setBoard(_ board: PlayerBoard, forScreen name: String) {
        screens.first { $0.name == name }?.events.board = board
    }

    /// Where a remote serving screen `name` sends its commands (a screen the player lacks is each reply's failure).
    public func commandSink(forScreen name: String) -> CommandSink { services.inbox.sink(forScreen: name) }

    /// Adds an observer; it is called on the player's thread for every event, in order (every screen's, with
    /// several screens).
    public func observe(_ observer: @escaping (PlayerEvent) -> Void) {
        for s in screens { s.events.observe(observer) }
    }

    /// Adds an observer of screen `name`'s events alone (its screen power, for its TV's HDMI-CEC), called on the
    /// player's thread, in order; false when the player has no such screen. It must not hold the player.
    @discardableResult
    public func observe(screen name: String, _ observer: @escaping (PlayerEvent) -> Void) -> Bool {
        guard let screen = screens.first(where: { $0.name == name }) else { return false }
        screen.events.observe(observer)
        return true
    }

    /// Whether screen `name`'s display is on (nil: no such screen).
    public func isScreenOn(screen name: String) -> Bool? { screens.first { $0.name == name }.map { !$0.screenOff } }

    /// The DRM card number and connector id of screen `name`'s display (a span's or mirror's first connector; nil:
    /// no such screen, or no DRM display): the HDMI-CEC adapter tied to it is the one its `cec auto` takes.
    public func drmConnector(screen name: String) -> (card: UInt32, connector: UInt32)? {
        screens.first { $0.name == name }?.drmConnector
    }

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

    /// Plays the layout `file` on screen `name` instead of its playlist, as `play(layout:)` does on the first.
    public func play(layout file: SMILFile, onScreen name: String) throws {
        guard let screen = screens.first(where: { $0.name == name }) else { throw PlayerError("the player has no screen \(name)") }
        try screen.play(layout: file)
    }
}
