import Foundation
import KioskCore
import KioskInput
import KioskOutput
import KioskRender

/// One display's share of the player: what it shows and how (its options, its playlist and clock, its decodes, a
/// layout when one plays, the grid), what owns it this turn (its `ModeStack`), what draws it (the output's
/// presenter, the composer, the overlays and their painter, the picture effect), its input and what it knows of
/// its display (its TV's power, its hotplug events). What all screens share is its `services`.
///
/// Its parts are in the feature folders as `extension Screen`: a turn (`Loop/ScreenTurn.swift`), its commands
/// (`Commands/`), the grid, the overlays, layouts, alerts, sync, the status it posts. Its modes take it, never
/// the `Player`.
final class Screen {
    /// The screen's name (`main`).
    let name: String
    /// Its play options.
    var config: PlayerConfig
    /// What it shares with the player's other screens.
    let services: PlayerServices
    /// Where its lines go (each starts with its name when the player has several screens).
    let log: Log
    /// The sound of its item: the player's device, or its own (`audio-device` in its section).
    let sound: ItemSound
    /// Whether its items' sound is heard: a screen after the first that shares the player's audio device is
    /// silent (the first is heard there), one with its own device is heard on it.
    let hearsSound: Bool
    /// Who hears its events, and the board remote-control servers read its status from.
    let events = PlayerEvents()
    /// What its content fetcher leaves with it: the new content waiting for the end of the item on screen, and
    /// the fetcher's status and commands for its remotes.
    let fetched = FetchedContent()
    /// Draws, presents and counts its frames, once an output is attached.
    var presenter: FramePresenter?
    /// Its clock.
    let clock: Clock
    /// Its playlist, as a slideshow.
    let show: Slideshow
    /// Its playlist's pictures and clips, decoded ahead on background threads.
    let cache: DecodeCache
    /// The modes on it: the one on top owns it.
    lazy var modes = ModeStack(screen: self)
    /// Composes its slideshow's frames (made when the output is attached).
    var composer: SceneComposer?
    /// The current item's view when no input device is open (commands still zoom and turn it).
    lazy var standaloneView = Interaction(canvas: config.size, settings: InteractionSettings())
    /// Its input: read once per frame; it sends commands and drives the current item's view.
    var interaction: InteractionController? {
        didSet {
            if let fd = interaction?.fileDescriptor { presenter?.output.watch(fd) }
            hookViews()
        }
    }
    /// The clip on screen, if any.
    var playing: PlayingClip?
    /// Its TV's power status over HDMI-CEC (nil: no CEC).
    var tvPower: TVPower?
    /// When item windows were last judged: the playlist's version, and the player time of the next edge.
    var windowCheck: (version: Int, next: Double) = (-1, -.infinity)
    /// The layout playing instead of the playlist (`play(layout:)`), if one is.
    var layoutMode: LayoutMode?
    /// Where layouts' regions were heard on the clock (for `record`'s mix, with the slideshow's slots).
    var voiceSpans = SoundSpans()
    /// The picture effect and its split (commands change it; the composer draws it).
    var effects: PictureEffect
    /// While an item with its own effect (`#EXTKIOSK:effect=`) shows: that effect, and the screen's to go back to.
    var itemEffect: (spec: EffectSpec, before: PictureEffect)?
    /// The clock's time at the top of this frame (the effect's split is read at it).
    var frameTime = 0.0
    /// What text and bars are overlaid: fed the player's events and notes, asked each frame through
    /// `overlayScene(at:)` (PlayerOverlays.swift).
    let overlays: OverlayState
    /// Draws the overlays (nil: `--no-overlays`, or no font could be found).
    var overlayPainter: OverlayPainter?
    /// The last overlay drawing error, said once.
    var overlayFailure: String?
    /// The overview grid (PlayerGrid.swift): closed until a long press, the menu key or `kiosk-view` opens it.
    let grid: GridScreen
    /// With `--sync-epoch`: the wall-clock timeline and the wall time of this frame (PlayerSync.swift).
    var sync: PlayerSync?
    /// The wall time of this frame, with `--sync-epoch`.
    var frameWall = 0.0
    /// Why the timeline could not be made (an empty playlist); `run` throws it.
    var syncFailure: PlayerError?
    /// With `--untimed`: the clock the player moves itself, to each next video frame's time as soon as it is
    /// decoded (no pacing, no sound).
    var untimedClock: VirtualClock?
    /// Display hotplug events (a udev monitor on the drm subsystem), checked once a frame.
    var hotplug: DisplayHotplugMonitor?
    /// The mode that had the screen last turn (one that takes the screen draws its first frame).
    var modeOnScreen: PlayerMode?
    /// Called once, right after its first frame has been presented.
    var onFirstFrame: (() -> Void)?

    /// Screen `name` playing `show` on `clock` with `config`, its pictures decoded by `cache`, sharing `services`.
    /// It continues where an earlier run left off (`config.restored`) and asks for its first picture at once, so
    /// the decode overlaps the output's start-up.
    init(name: String, config: PlayerConfig, clock: Clock, show: Slideshow, cache: DecodeCache, services: PlayerServices, log: Log,
         sound: (ItemSound, heard: Bool)? = nil) {
        self.name = name
        self.log = log
        self.sound = sound?.0 ?? services.sound
        hearsSound = sound?.heard ?? true
        self.config = config
        self.clock = clock
        self.show = show
        self.cache = cache
        self.services = services
        effects = PictureEffect(config.effect)
        overlays = OverlayState(settings: config.overlays, captions: config.captions)
        grid = GridScreen(settings: config.grid, timeout: config.decodeTimeout, limits: config.limits,
                          stateDirectory: ProcessInfo.processInfo.environment["STATE_DIRECTORY"], font: config.overlays.font,
                          log: log)
        restore(config.restored)  // an earlier run's item, pause and resume places, before the first decode
        if let epoch = config.sync.epoch {
            do {
                let entries = show.playlist.entries
                sync = try PlayerSync(epoch: epoch, items: entries.map(\.item), ids: entries.map(\.id),
                                      playlistVersion: show.playlist.version, config: config, log: log)
            } catch {
                syncFailure = error as? PlayerError ?? PlayerError("\(error)")
            }
        }
        if let first = show.upcoming { cache.request(first) }
        events.observe { [overlays, clock] in overlays.handle($0, at: clock.now) }
    }


    /// Sets the output its frames go to (on the render thread: its GL context must be current here); a command
    /// sent to the inbox ends the output's wait when `wakesInbox` (the loop waits on the first screen's output).
    func attach(_ output: Output, wakesInbox: Bool) throws {
        let renderer = try Renderer(context: output.context, log: log)
        let videoFrames = services.videoFrames
        videoFrames.settle(renderer: output.context.renderer)
        log.info("video: \(videoFrames.current == .cpu ? "frames become RGBA on the decode thread (swscale)" : "planes go up as decoded and the shader converts them") (--video-convert \(config.videoConversion.rawValue))")
        composer = SceneComposer(config: config, context: output.context, playlist: show.playlist)
        composer?.waitForFrames = services.waitForDecodes
        // Synced screens choose frames by the wall clock, never by a sound card's clock.
        composer?.clockOverride = config.sync.epoch != nil ? nil : { [sound] slot in sound.clock(for: slot.sequence) }
        composer?.idlePicture = IdlePicture.load(config.idleImage, canvas: config.size, timeout: config.decodeTimeout, log: log)
        if let fd = interaction?.fileDescriptor { output.watch(fd) }
        let signal = output.wakeupSignal
        if wakesInbox { services.inbox.wake { signal.raise() } }
        overlayPainter = makeOverlayPainter()
        let presenter = FramePresenter(output: output, renderer: renderer, clock: clock, log: log)
        presenter.onFirstFrame = { [unowned self] in onFirstFrame?() }
        self.presenter = presenter
        hookViews()
    }

    private func hookViews() {
        let view = viewControl
        composer?.viewHook = { view.views(sequence: $0, current: $1, geometry: $2, flat: $3, sphere: $4) }
    }

    /// The owner of the current item's interactive view.
    var viewControl: Interaction { interaction?.interaction ?? standaloneView }

    /// The canvas it composes at: the output's, or the configured size before one is attached.
    var screenSize: PixelSize { presenter?.output.size ?? config.size }

    /// The display is off (a schedule's `off`, a remote's `screen off`): the loop sleeps.
    var screenOff: Bool { modes.has(.screenOff) }

    /// The emergency alert on screen, if one is (it takes the screen from every other mode).
    var alertMode: AlertMode? { modes.cover(.alert) as? AlertMode }

    /// The DRM card number and connector id of its display (a span's or mirror's first connector; nil: no DRM
    /// display). The card number is the device's (`/dev/dri/card1`: 1), as the kernel's CEC connector info gives it.
    var drmConnector: (card: UInt32, connector: UInt32)? {
        guard let drm = presenter?.output as? DRMDisplayOutput,
              let name = drm.selection.path.split(separator: "/").last, name.hasPrefix("card"),
              let card = UInt32(name.dropFirst(4)) else { return nil }
        return (card, drm.selection.connector.id)
    }

    /// Decodes ahead: the upcoming item is requested now; on a virtual clock the loop waits for it.
    func prepareDecodes() {
        if services.waitForDecodes {
            if let c = show.currentID { cache.wait(for: c) }
            if let u = show.upcoming { cache.wait(for: u) }
        }
        if let u = show.upcoming { cache.request(u) }
    }

    /// Hands events to every observer, in order, and to the board (a failed item's reason from its decode).
    func publish(_ events: [PlayerEvent]) {
        self.events.tell(events) { [cache] in cache.failure($0) }
    }

    /// The earliest of `limit`, a producer's deadline and the next edge of an item's time window.
    func wakeTime(_ limit: Double) -> Double {
        services.producerDeadline(min(limit, windowCheck.next))
    }
}
