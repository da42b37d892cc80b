import KioskCore
import KioskOutput

/// The player's one screen, `main`, under the names the code used before screens were a part of their own: each
/// reads or sets the screen's own (`Screen.swift`). A part that takes its screen uses `screen` instead.
extension Player {
    /// The screen's play options.
    var config: PlayerConfig {
        get { screen.config }
        set { screen.config = newValue }
    }
    /// Draws, presents and counts frames, once an output is attached.
    var presenter: FramePresenter? { screen.presenter }
    /// The screen's clock.
    var clock: Clock { screen.clock }
    /// The screen's playlist, as a slideshow.
    var show: Slideshow { screen.show }
    /// Composes the slideshow's frames.
    var composer: SceneComposer? {
        get { screen.composer }
        set { screen.composer = newValue }
    }
    /// The current item's view when no input device is open.
    var standaloneView: Interaction {
        get { screen.standaloneView }
        set { screen.standaloneView = newValue }
    }
    /// The clip on screen, if any.
    var playing: PlayingClip? {
        get { screen.playing }
        set { screen.playing = newValue }
    }
    /// The TV's power status over HDMI-CEC (nil: no CEC).
    var tvPower: TVPower? {
        get { screen.tvPower }
        set { screen.tvPower = newValue }
    }
    /// When item windows were last judged.
    var windowCheck: (version: Int, next: Double) {
        get { screen.windowCheck }
        set { screen.windowCheck = newValue }
    }
    /// The layout playing instead of the playlist, if one is.
    var layoutMode: LayoutMode? {
        get { screen.layoutMode }
        set { screen.layoutMode = newValue }
    }
    /// Where layouts' regions were heard on the clock.
    var voiceSpans: SoundSpans {
        get { screen.voiceSpans }
        set { screen.voiceSpans = newValue }
    }
    /// The picture effect and its split.
    var effects: PictureEffect {
        get { screen.effects }
        set { screen.effects = newValue }
    }
    /// An item's own effect while it shows, and the one to go back to.
    var itemEffect: (spec: EffectSpec, before: PictureEffect)? {
        get { screen.itemEffect }
        set { screen.itemEffect = newValue }
    }
    /// The clock's time at the top of this frame.
    var frameTime: Double {
        get { screen.frameTime }
        set { screen.frameTime = newValue }
    }
    /// What text and bars are overlaid.
    public var overlays: OverlayState { screen.overlays }
    /// Draws the overlays (nil: `--no-overlays`, or no font).
    var overlayPainter: OverlayPainter? {
        get { screen.overlayPainter }
        set { screen.overlayPainter = newValue }
    }
    /// The last overlay drawing error, said once.
    var overlayFailure: String? {
        get { screen.overlayFailure }
        set { screen.overlayFailure = newValue }
    }
    /// The overview grid.
    var grid: GridScreen { screen.grid }
    /// With `--sync-epoch`: the wall-clock timeline.
    var sync: PlayerSync? {
        get { screen.sync }
        set { screen.sync = newValue }
    }
    /// The wall time of this frame, with `--sync-epoch`.
    var frameWall: Double {
        get { screen.frameWall }
        set { screen.frameWall = newValue }
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
}
