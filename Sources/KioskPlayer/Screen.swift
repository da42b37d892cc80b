import Foundation
import KioskCore
import KioskOutput

/// One display's share of the player: what it shows and how (its options, its playlist and clock, a layout when
/// one plays, the grid), what draws it (the output's presenter, the composer, the overlays and their painter, the
/// picture effect) and what it knows of its display (its TV's power, its hotplug events). What all screens share
/// stays on `Player`: the decode cache, the command inbox, the sound, the observers and the board, the content
/// intake and the producers.
///
/// A player has one screen today, `main`; the code reaches it through `Player`'s accessors of the same names
/// (`Player+Screen.swift`) until each part takes its screen.
final class Screen {
    /// The screen's name (`main`).
    let name: String
    /// Its play options.
    var config: PlayerConfig
    /// Draws, presents and counts its frames, once an output is attached.
    var presenter: FramePresenter?
    /// Its clock.
    let clock: Clock
    /// Its playlist, as a slideshow.
    let show: Slideshow
    /// Composes its slideshow's frames (made when the output is attached).
    var composer: SceneComposer?
    /// The current item's view when no input device is open (commands still zoom and turn it).
    lazy var standaloneView = Interaction(canvas: config.size, settings: InteractionSettings())
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

    /// Screen `name` playing `show` on `clock` with `config`; its grid keeps thumbnails under the state folder.
    init(name: String, config: PlayerConfig, clock: Clock, show: Slideshow, log: Log) {
        self.name = name
        self.config = config
        self.clock = clock
        self.show = show
        effects = PictureEffect(config.effect)
        overlays = OverlayState(settings: config.overlays, captions: config.captions)
        grid = GridScreen(settings: config.grid, timeout: config.decodeTimeout, limits: config.limits,
                          stateDirectory: ProcessInfo.processInfo.environment["STATE_DIRECTORY"], font: config.overlays.font,
                          log: log)
    }
}
