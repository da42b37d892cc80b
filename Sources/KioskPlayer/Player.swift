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

/// The player. One frame: drain the command inbox (input is one producer), ask the slideshow what is on screen
/// at the clock's time, make sure its pictures are decoded (ahead, on background threads), compose and draw
/// the layers, present, and feed the clock with when the frame was really shown. Observers hear what happened.
public final class Player {
    var config: PlayerConfig
    private var output: Output?
    let clock: Clock
    let log: Log
    let show: Slideshow
    let cache: DecodeCache
    private var renderer: Renderer?
    var composer: SceneComposer?
    /// With a virtual clock the player waits for decodes instead of holding the current item, so the result
    /// is the same however fast the machine is.
    private let waitForDecodes: Bool
    /// Where long clips were left.
    public let resume: ResumeBook
    /// Whether clips come as planes (the shader converts) or RGBA (swscale on the decode thread).
    public let videoFrames: VideoFrameChoice
    /// Where every command comes in; send from any thread.
    public let inbox = CommandInbox()
    var observers: [(PlayerEvent) -> Void] = []
    /// The current item's view when no input device is open (commands still zoom and turn it).
    private lazy var standaloneView = Interaction(canvas: config.size, settings: InteractionSettings())
    /// The sound of the item on screen.
    let sound: ItemSound
    /// The clip on screen, if any.
    var playing: PlayingClip?
    /// Set by a `quit` command.
    var quitRequested = false
    /// The display is off (a schedule's `off`): the loop sleeps.
    var screenOff = false
    /// Asked once a turn for commands, and for when they next need a turn (schedules).
    public var producers: [LoopProducer] = []
    /// The local wall clock item windows are judged by: the instant at a player time, and the time zone.
    public var wallClock: (at: (Double) -> Date, zone: TimeZone) = ({ _ in Date() }, .current)
    /// When item windows were last judged: the playlist's version, and the player time of the next edge.
    var windowCheck: (version: Int, next: Double) = (-1, -.infinity)
    /// Where the player posts its status and events for remote-control servers (one made before the player,
    /// so a server can bind first, may be set before `run`).
    public var board = PlayerBoard()
    /// Answers to this frame's commands, given once the status they changed has been posted, so that a remote
    /// client reading a property right after its command sees the change.
    var answers: [(CommandInbox.Reply, CommandReply)] = []
    /// Screenshots asked for, taken from the next frame drawn.
    var pendingScreenshots: [PendingScreenshot] = []
    /// The picture effect and its split (commands change it; the composer draws it).
    var effects: PictureEffect
    /// While an item with its own effect (`#EXTKIOSK:effect=`) shows: that effect, and the player's to go back to.
    var itemEffect: (spec: EffectSpec, before: PictureEffect)?
    /// The clock's time at the top of this frame (the effect's split is read at it).
    var frameTime = 0.0
    /// What text and bars are overlaid: fed the player's events and notes, asked each frame through
    /// `overlayScene(at:)` (PlayerOverlays.swift).
    public let overlays: OverlayState
    /// Draws the overlays (nil: `--no-overlays`, or no font could be found).
    var overlayPainter: OverlayPainter?
    /// The overlays of the last frame presented, and of the frame being drawn (PlayerOverlays.swift).
    var overlaysShown: OverlayScene?
    var overlaysDrawing: OverlayScene?
    /// The last overlay drawing error, said once.
    var overlayFailure: String?
    /// The overview grid (PlayerGrid.swift): closed until a long press, the menu key or `kiosk-view` opens it.
    let grid: GridScreen
    /// With `--sync-epoch`: the wall-clock timeline and the wall time of this frame (PlayerSync.swift).
    var sync: PlayerSync?
    var frameWall = 0.0
    /// Why the timeline could not be made (an empty playlist); `run` throws it.
    private var syncFailure: PlayerError?

    /// With `--untimed`: the clock the player moves itself, to each next video frame's time as soon as it is
    /// decoded (no pacing, no sound).
    public var untimedClock: VirtualClock?

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

    /// Display hotplug events (a udev monitor on the drm subsystem), checked once a frame.
    public var hotplug: DisplayHotplugMonitor?

    /// Input: read once per frame; it sends commands and drives the current item's view.
    public var interaction: InteractionController? {
        didSet {
            if let fd = interaction?.fileDescriptor { output?.watch(fd) }
            hookViews()
        }
    }

    /// The owner of the current item's interactive view.
    var viewControl: Interaction { interaction?.interaction ?? standaloneView }

    /// Builds a player over `items` on `clock` and starts decoding the first item at once, so the decode
    /// overlaps the output's start-up. Frames go to the output given to `attach`.
    public init(items: [PlaylistItem], config: PlayerConfig, clock: Clock, log: Log,
                waitForDecodes: Bool, decode: DecodeCache.Decode? = nil) {
        self.config = config
        self.clock = clock
        self.log = log
        self.waitForDecodes = waitForDecodes
        effects = PictureEffect(config.effect)
        overlays = OverlayState(settings: config.overlays, captions: config.captions)
        grid = GridScreen(settings: config.grid, timeout: config.decodeTimeout, limits: config.limits,
                          stateDirectory: ProcessInfo.processInfo.environment["STATE_DIRECTORY"], font: config.overlays.font,
                          log: log)
        keepsRunningWhenEmpty = config.idleImage != nil
        LocalMediaPolicy.apply(config)  // how long a media read may block, and each clip's frame threads
        let playlist = LivePlaylist(items)
        show = Slideshow(playlist: playlist, options: config.slideshow)
        let book = ResumeBook()
        resume = book
        let frames = VideoFrameChoice(config.videoConversion)
        videoFrames = frames
        sound = ItemSound(settings: config.audio, log: log)
        cache = DecodeCache(playlist: playlist, timeout: config.decodeTimeout, log: log,
                            decode: decode ?? Player.decoder(for: Player.decodeConfig(config), log: log,
                                                             resume: config.sync.epoch == nil ? book : nil, frames: frames))
        playsSound = config.sync.playsSound
        restore(config.restored)  // an earlier run's item, pause and resume places, before the first decode
        if let epoch = config.sync.epoch {
            do {
                sync = try PlayerSync(epoch: epoch, items: items, ids: playlist.ids, playlistVersion: playlist.version,
                                      config: config, log: log)
            } catch {
                syncFailure = error as? PlayerError ?? PlayerError("\(error)")
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
        renderer = try Renderer(context: output.context, log: log)
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
        self.output = output
        hookViews()
    }

    private func hookViews() {
        let view = viewControl
        composer?.viewHook = { view.views(sequence: $0, current: $1, geometry: $2, flat: $3, sphere: $4) }
    }

    /// Adds an observer; it is called on the player's thread for every event, in order.
    public func observe(_ observer: @escaping (PlayerEvent) -> Void) { observers.append(observer) }

    /// The output frames go to, once attached.
    var attachedOutput: Output? { output }

    /// The slideshow being played.
    public var slideshow: Slideshow { show }

    /// Plays until the playlist ends (`--no-loop`), `length` seconds pass, a `quit` command, or `shouldStop`.
    /// Throws when nothing given to it can be shown and nothing else can bring items.
    public func run(length: Double?, shouldStop: () -> Bool = { false }) throws -> PlayReport {
        guard let output, let renderer, let composer else { throw PlayerError("the player has no output") }
        if let syncFailure { throw syncFailure }
        var presented = 0
        var lastKey: SceneComposer.VisualKey?
        var lastGridKey: GridScreen.FrameKey?
        var lastGeneration = output.generation
        var firstFrameTime: Double?
        var spans = SoundSpans()
        let givenPlaylist = show.playlist.version  // once commands edited it, an empty playlist waits for more
        if config.grid.openAtStart { inbox.queueFromLoop(.grid(.open)) }
        defer {
            sound.stop()
            leaveClip()
            grid.stop()
            composer.releaseAll()
            for e in inbox.drain() { e.reply?(.failed("the player stopped")) }
            answerCommands()
            if let id = show.currentID, !show.isFinished, let path = show.currentSlot?.path {
                publish([.itemEnded(id, path: path, reason: .quit)])
            }
            for s in pendingScreenshots { s.reply?(.failed("the player stopped")) }
            pendingScreenshots.removeAll()
            board.post([.shutdown])
        }
        while !shouldStop() && !quitRequested {
            onLoopTurn?()
            let t = clock.now
            frameTime = t
            if let length, t >= length { break }
            viewControl.gridOpen = grid.isOpen
            if let input = interaction {
                input.canvas = output.size
                for c in input.frame(at: t, splitBar: effects.bar(at: t)) { inbox.queueFromLoop(c) }
            } else {
                standaloneView.canvas = output.size
                for case .command(let c) in standaloneView.step(at: t) { inbox.queueFromLoop(c) }  // settles the view, holds `zoomed`
            }
            turnProducers(at: t)
            runCommands(at: t)
            if quitRequested { break }
            updateItemWindows(at: t)
            if screenOff {
                try sleepTurn(at: t, output: output, renderer: renderer, presented: &presented, first: &firstFrameTime)
                lastKey = nil
                if let untimed = untimedClock { untimed.advance(by: 1.0 / 30) }
                continue
            }
            if hotplug?.changed() == true { output.displayChanged() }
            if grid.isOpen {
                try gridTurn(at: t, output: output, renderer: renderer, lastKey: &lastGridKey, presented: &presented,
                             first: &firstFrameTime)
                lastKey = nil
                continue
            }
            lastGridKey = nil
            prepareDecodes()
            let retried = cache.retryChanged()
            if !retried.isEmpty { show.retry(retried) }
            let scene = scene(at: t)
            publish(show.takeEvents())
            guard let scene else {
                if show.isIdle && !keepsRunningWhenEmpty && show.playlist.version == givenPlaylist { break }
                if show.isFinished && !show.isIdle { break }
                if show.isIdle {
                    leaveClip()
                    sound.stop()
                    cache.evict(keeping: [])
                    composer.canvas = wallPlacement(on: output.size).canvas
                    let frame = try composer.idleFrame()
                    let overlaid = overlayFrame(at: t)
                    postStatus(scene: nil, output: output)
                    if output.isAvailable, lastKey != frame.key || overlaid.changed || output.generation != lastGeneration
                        || !pendingScreenshots.isEmpty {
                        let drawn = onScreen(frame.frame, overlays: overlayLayers(overlaid.scene, canvas: composer.canvas),
                                             size: output.size)
                        try renderer.draw(drawn, into: output.target, rotation: output.rotation)
                        takeScreenshots(from: output.target)
                        lastGeneration = output.generation
                        if try presentFrame(output, presented: &presented, first: &firstFrameTime) {
                            lastKey = frame.key
                            overlaysPresented()
                        }
                    }
                    // a command ends the wait at once; a clock or a message wakes it when it changes
                    output.wait(until: min(wakeTime(t + Self.longestWait), overlayDeadline(after: t) ?? .infinity), on: clock)
                } else if let u = show.upcoming {
                    postStatus(scene: nil, output: output)
                    cache.wait(for: u, limit: 0.02)  // the first picture is still decoding
                } else {
                    postStatus(scene: nil, output: output)
                    output.wait(until: nil, on: clock)
                }
                continue
            }
            if scene.current.sequence != spans.sequence {
                startSlot(scene, at: t, spans: &spans)
                applyItemEffect(of: scene.current.id, at: t)
            }
            sound.pause(scene.paused)  // the slideshow's pause holds the clip's sound, and so its frames
            if let p = playing {
                p.position = p.clip.startTime + scene.currentTime
                if sync?.keepInStep(p, scene: scene, at: t, log: log) == true, sound.isPlaying(scene.current.sequence) {
                    sound.start(path: p.path, sequence: scene.current.sequence, at: p.clip.startTime + scene.currentTime)
                }
                if let reason = p.endsEarly(at: scene.currentTime, slotLength: scene.current.length, log: log) {
                    show.endCurrent(reason)
                }
            }
            var keep: Set<ItemID> = [scene.current.id]
            if let o = scene.outgoing { keep.insert(o.id) }
            if let u = show.upcoming { keep.insert(u) }
            cache.evict(keeping: keep)
            composer.forget(keeping: keep)
            composer.canvas = wallPlacement(on: output.size).canvas   // a display's mode can change while playing
            composer.effect = effects.effect(at: t)
            let built = try composer.frame(for: scene, cache: cache)
            let overlaid = overlayFrame(at: t)
            postStatus(scene: scene, output: output)
            guard let (pictures, key) = built, output.isAvailable,
                  key != lastKey || overlaid.changed || output.generation != lastGeneration || output.needsEveryFrame
                    || !pendingScreenshots.isEmpty else {
                // Nothing new to draw, or the display is lost. Untimed, the clock must still move on: a clip whose
                // last frame was drawn before its decoder said it had ended would otherwise hold the loop forever.
                if let untimed = untimedClock, built != nil {
                    advanceUntimed(untimed, scene: scene, playing: playing)
                } else {
                    output.wait(until: nil, on: clock)
                }
                continue
            }
            let frame = onScreen(pictures, overlays: overlayLayers(overlaid.scene, canvas: composer.canvas), size: output.size)
            try renderer.draw(frame, into: output.target, rotation: output.rotation)
            takeScreenshots(from: output.target)
            lastGeneration = output.generation
            guard try presentFrame(output, presented: &presented, first: &firstFrameTime) else { continue }
            lastKey = key
            overlaysPresented()
            logPresentation(scene)
            sync?.logPresented(scene, wall: frameWall, framePTS: composer.shownPTS[scene.current.sequence], log: log)
            if let untimed = untimedClock { advanceUntimed(untimed, scene: scene, playing: playing) }
        }
        if spans.slots == 0 && show.isIdle && playing == nil && !keepsRunningWhenEmpty {
            throw PlayerError("nothing playable: every item in the playlist was skipped")
        }
        let end = clock.now
        return PlayReport(framesPresented: presented, slotsShown: spans.slots, endTime: end,
                          firstFrameTime: firstFrameTime, soundSpans: spans.closed(at: end))
    }

    /// Decodes ahead: the upcoming item is requested now; on a virtual clock the loop waits for it.
    private func prepareDecodes() {
        if waitForDecodes {
            if let c = show.currentID { cache.wait(for: c) }
            if let u = show.upcoming { cache.wait(for: u) }
        }
        if let u = show.upcoming { cache.request(u) }
    }
}
