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

/// The player. One turn of its loop: drain the command inbox (input is one producer), let the mode that owns the
/// screen take its turn (the slideshow or a layout, idle, the grid, the screen off: `Modes/`), hand the frame it
/// gives to the `FramePresenter` (drawn only when it changed), and rest as the mode said. The modes share what
/// the player holds: the slideshow, the decode cache, the composer, the sound, the overlays. Observers hear what
/// happened.
public final class Player {
    /// The display's share: what it shows, how, and what draws it (`Screen.swift`).
    let screen: Screen
    let log: Log
    let cache: DecodeCache
    /// With a virtual clock the player waits for decodes instead of holding the current item, so the result
    /// is the same however fast the machine is.
    let waitForDecodes: Bool
    /// Where long clips were left.
    public let resume: ResumeBook
    /// Whether clips come as planes (the shader converts) or RGBA (swscale on the decode thread).
    public let videoFrames: VideoFrameChoice
    /// Where every command comes in; send from any thread.
    public let inbox = CommandInbox()
    /// SMIL files a remote asked to load, read off the frame loop (`LayoutLoads`).
    let layoutLoads = LayoutLoads()
    /// Content from the fetcher waiting for the end of the item on screen (`kiosk play URL`; `ContentSwap.swift`).
    public let pendingContent = PendingContent()
    /// The content fetcher's status and commands for the remotes (`ContentControl.swift`).
    public let contentControl = ContentControl()
    /// The playlist's layout items, read ahead on the decode threads (`LayoutItemReads`).
    let layoutItems = LayoutItemReads()
    var observers: [(PlayerEvent) -> Void] = []
    /// The sound of the item on screen.
    let sound: ItemSound
    /// Set by a `quit` command.
    var quitRequested = false
    /// The display is off (a schedule's `off`): the loop sleeps.
    var screenOff: Bool { modes.has(.screenOff) }
    /// Today's figures from the play log (nil: none is kept).
    var playStats: PlayStats?

    /// Whether the display is on (not in a schedule's off window, nor turned off by a remote).
    public var isScreenOn: Bool { !screenOff }

    /// The DRM card number and connector id of the display in use (nil: no DRM display): the HDMI-CEC adapter
    /// tied to that connector is the one `--cec auto` takes.
    public var drmConnector: (card: UInt32, connector: UInt32)? {
        guard let drm = presenter?.output as? DRMOutput, let card = UInt32(drm.selection.path.drop { !$0.isNumber }) else { return nil }
        return (card, drm.selection.connector.id)
    }
    /// Asked once a turn for commands, and for when they next need a turn (schedules).
    public var producers: [LoopProducer] = []
    /// The local wall clock item windows are judged by: the instant at a player time, and the time zone.
    public var wallClock: (at: (Double) -> Date, zone: TimeZone) = ({ _ in Date() }, .current)
    /// The emergency alert on screen, if one is (it takes the screen from every other mode).
    var alertMode: AlertMode? { modes.cover(.alert) as? AlertMode }
    /// The modes on the screen: the one on top owns it.
    lazy var modes = ModeStack(player: self)
    /// Where the player posts its status and events for remote-control servers (one made before the player,
    /// so a server can bind first, may be set before `run`).
    public var board = PlayerBoard()
    /// Answers to this frame's commands, given once the status they changed has been posted, so that a remote
    /// client reading a property right after its command sees the change.
    var answers: [(CommandInbox.Reply, CommandReply)] = []
    /// The player time `run(length:)` stops at (nil: none): no rest goes past it.
    var runEnd: Double?

    /// Whether items' sound goes to the audio device (false for `record`, which only notes where it plays).
    public var playsSound = true

    /// Whether the player idles on an empty (or wholly unplayable) playlist, waiting for commands to bring items,
    /// instead of ending. On with `--idle-image`, and whenever a source of items other than the paths runs; a
    /// playlist that commands have edited idles too.
    public var keepsRunningWhenEmpty = false

    /// Called once, right after the first frame has been presented.
    public var onFirstFrame: (() -> Void)?

    /// Called at the top of every turn of the frame loop (waits between turns last at most a second), e.g. to
    /// ping a watchdog that restarts a player whose loop hangs.
    public var onLoopTurn: (() -> Void)?


    /// Input: read once per frame; it sends commands and drives the current item's view.
    public var interaction: InteractionController? {
        didSet {
            if let fd = interaction?.fileDescriptor { presenter?.output.watch(fd) }
            hookViews()
        }
    }

    /// The owner of the current item's interactive view.
    var viewControl: Interaction { interaction?.interaction ?? standaloneView }

    /// Builds a player over `items` on `clock` and starts decoding the first item at once, so the decode
    /// overlaps the output's start-up. Frames go to the output given to `attach`.
    public init(items: [PlaylistItem], config: PlayerConfig, clock: Clock, log: Log,
                waitForDecodes: Bool, decode: DecodeCache.Decode? = nil) {
        self.log = log
        self.waitForDecodes = waitForDecodes
        keepsRunningWhenEmpty = config.idleImage != nil
        LocalMediaPolicy.apply(config)  // how long a media read may block, and each clip's frame threads
        let playlist = LivePlaylist(items)
        screen = Screen(name: "main", config: config, clock: clock,
                        show: Slideshow(playlist: playlist, options: config.slideshow), log: log)
        let book = ResumeBook()
        resume = book
        let frames = VideoFrameChoice(config.videoConversion)
        videoFrames = frames
        sound = ItemSound(settings: config.audio, log: log)
        // Layout items are read ahead with their decode, into `layoutItems`, whichever decoder is given.
        let limits = config.limits, reads = layoutItems
        cache = DecodeCache(playlist: playlist, timeout: config.decodeTimeout, log: log,
                            decode: decode.map { LayoutItemReads.decoder($0, limits: limits, into: reads) }
                                ?? Player.decoder(for: Player.decodeConfig(config), log: log, resume: config.sync.epoch == nil ? book : nil,
                                                  frames: frames, layouts: reads))
        playsSound = config.sync.playsSound
        restore(config.restored)  // an earlier run's item, pause and resume places, before the first decode
        if let epoch = config.sync.epoch {
            do {
                sync = try PlayerSync(epoch: epoch, items: items, ids: playlist.ids, playlistVersion: playlist.version,
                                      config: config, log: log)
            } catch {
                screen.syncFailure = error as? PlayerError ?? PlayerError("\(error)")
            }
        }
        if let first = show.upcoming { cache.request(first) }
        observe { [log, clock] in PlayerLog.write($0, at: clock.now, log: log) }
        observe { [overlays, clock] in overlays.handle($0, at: clock.now) }
    }

    /// Builds a player over `items` drawing into `output` on `clock`.
    public convenience init(items: [PlaylistItem], config: PlayerConfig, output: Output, clock: Clock, log: Log,
                            waitForDecodes: Bool, decode: DecodeCache.Decode? = nil) throws {
        self.init(items: items, config: config, clock: clock, log: log, waitForDecodes: waitForDecodes, decode: decode)
        try attach(output)
    }

    /// Sets the output frames go to (on the render thread: its GL context must be current here).
    public func attach(_ output: Output) throws {
        let renderer = try Renderer(context: output.context, log: log)
        videoFrames.settle(renderer: output.context.renderer)
        log.info("video: \(videoFrames.current == .cpu ? "frames become RGBA on the decode thread (swscale)" : "planes go up as decoded and the shader converts them") (--video-convert \(config.videoConversion.rawValue))")
        composer = SceneComposer(config: config, context: output.context, playlist: show.playlist)
        composer?.waitForFrames = waitForDecodes
        // Synced screens choose frames by the wall clock, never by a sound card's clock.
        composer?.clockOverride = config.sync.epoch != nil ? nil : { [sound] slot in sound.clock(for: slot.sequence) }
        composer?.idlePicture = IdlePicture.load(config.idleImage, canvas: config.size, timeout: config.decodeTimeout, log: log)
        if let fd = interaction?.fileDescriptor { output.watch(fd) }
        let signal = output.wakeupSignal
        inbox.wake { signal.raise() }
        overlayPainter = makeOverlayPainter()
        let presenter = FramePresenter(output: output, renderer: renderer, clock: clock, log: log)
        presenter.onFirstFrame = { [unowned self] in onFirstFrame?() }
        screen.presenter = presenter
        hookViews()
    }

    private func hookViews() {
        let view = viewControl
        composer?.viewHook = { view.views(sequence: $0, current: $1, geometry: $2, flat: $3, sphere: $4) }
    }

    /// Adds an observer; it is called on the player's thread for every event, in order.
    public func observe(_ observer: @escaping (PlayerEvent) -> Void) { observers.append(observer) }

    /// The canvas the player composes at: the output's, or the configured size before one is attached.
    var screenSize: PixelSize { presenter?.output.size ?? config.size }

    /// The slideshow being played.
    public var slideshow: Slideshow { show }

    /// Plays until the playlist ends (`--no-loop`), `length` seconds pass, a `quit` command, or `shouldStop`.
    /// Throws when nothing given to it can be shown and nothing else can bring items.
    ///
    /// A turn: input, producers and commands, then the active mode's turn (what to draw, or how long to rest),
    /// then the presenter draws and presents what changed, and the loop rests until the next frame, a deadline
    /// or a wakeup (PlayerLoop.swift has the parts).
    public func run(length: Double?, shouldStop: () -> Bool = { false }) throws -> PlayReport {
        guard let presenter else { throw PlayerError("the player has no output") }
        if let failure = screen.syncFailure { throw failure }
        if config.grid.openAtStart { inbox.queueFromLoop(.grid(.open)) }
        defer { stopPlaying() }
        runEnd = length
        var last: PlayerMode?
        loop: while !shouldStop() && !quitRequested {
            onLoopTurn?()
            let t = clock.now
            frameTime = t
            if let length, t >= length { break }
            takeCommands(at: t)
            if quitRequested { break }
            let mode = modes.active
            if mode !== last {  // a mode that takes the screen draws its first frame
                presenter.forget()
                mode.takesScreen()
            }
            last = mode
            switch try mode.turn(at: t) {
            case .end: break loop
            case .rest(let r): rest(r)
            case .frame(let f): try show(f, at: t, on: presenter)
            }
        }
        let spans = modes.slideshow.spans
        if spans.slots == 0 && show.isIdle && playing == nil && !keepsRunningWhenEmpty && layoutMode == nil {
            throw PlayerError("nothing playable: every item in the playlist was skipped")
        }
        let end = clock.now
        let heard = (spans.closed(at: end) + voiceSpans.closed(at: end)).sorted { $0.start < $1.start }
        return PlayReport(framesPresented: presenter.presented, slotsShown: spans.slots, endTime: end,
                          firstFrameTime: presenter.firstFrameTime, soundSpans: heard)
    }

    /// Decodes ahead: the upcoming item is requested now; on a virtual clock the loop waits for it.
    func prepareDecodes() {
        if waitForDecodes {
            if let c = show.currentID { cache.wait(for: c) }
            if let u = show.upcoming { cache.wait(for: u) }
        }
        if let u = show.upcoming { cache.request(u) }
    }
}
