/// Every way to control the player is one of these commands: keys and gestures today, remote control, folder
/// watchers and schedules later. Producers send commands; the player runs them on its own thread at the top of
/// the next frame, and answers each with a `CommandReply`.

/// Why the slideshow is paused. It runs only while no reason holds, and each producer adds or removes only its own.
public enum PauseReason: String, Sendable, CaseIterable, Comparable {
    /// The user asked (pause key, two-finger tap).
    case user
    /// The current flat item is zoomed in.
    case zoomed
    /// A finger or a mouse button is down: the item does not change under the user's hand.
    case interaction
    /// A schedule says so.
    case schedule
    /// A remote controller asked.
    case remote
    /// The overview grid is open.
    case grid
    /// An emergency alert has the screen.
    case alert
    /// The TV went to standby (an HDMI-CEC `<Standby>` from it, with `--cec-follow-standby pause`).
    case tv

    /// Declaration order, for stable logs.
    public static func < (a: PauseReason, b: PauseReason) -> Bool {
        (allCases.firstIndex(of: a) ?? 0) < (allCases.firstIndex(of: b) ?? 0)
    }
}

/// An item named by its stable id or by its position in the playlist.
public enum ItemRef: Sendable, Equatable {
    /// By id.
    case id(ItemID)
    /// By position, 0-based.
    case position(Int)
    /// The first entry with this path, as the playlist holds it (a folder watcher names files so).
    case path(String)
}

/// How loaded items join the playlist.
public enum LoadMode: String, Sendable, Equatable, CaseIterable {
    /// Instead of everything (the current item goes, with the transition).
    case replace
    /// At the end.
    case append
    /// Right after the current item, to play next.
    case insertNext = "insert-next"
    /// Instead of everything, but the item on screen stays (no change, no transition) when its file is listed
    /// again: a reload of the config.
    case reload
    /// In path order (`PathOrder`, a folder's order): sorted among themselves, each before the first entry whose
    /// path sorts after it (at the end when none does). While shuffling they are shuffled into the pass.
    case sorted
}

/// A change to the current item's view. Zoom and centre apply to flat items, the angles to 360/180/fisheye items.
public enum ViewChange: Sendable, Equatable {
    /// Zoom factor 1...4 about the current centre.
    case zoom(Double)
    /// The picture point at the canvas centre (0...1 each), clamped so no background shows.
    case center(x: Double, y: Double)
    /// Degrees.
    case yaw(Double)
    /// Degrees.
    case pitch(Double)
    /// Degrees.
    case roll(Double)
    /// Horizontal field of view, degrees.
    case fov(Double)
    /// Back to the slideshow's own view.
    case reset
}

/// Volume changes.
public enum VolumeChange: Sendable, Equatable {
    /// Set to 0...100.
    case set(Int)
    /// Up or down by a step.
    case by(Int)
    /// Mute or unmute.
    case mute(Bool)
    /// Flip mute.
    case toggleMute
}

/// Overlay changes (run by the player's `OverlayState`).
public enum OverlayChange: Sendable, Equatable {
    /// Show or hide captions (a tap, the OK and info keys); turned on, the caption shows for its time again.
    case toggleInfo
    /// Show the item's place and what is next as a message, and its caption again (a long press).
    case showInfo
}

/// One command to the player.
public enum PlayerCommand: Sendable, Equatable {
    /// The next item, with the transition (while a layout plays: the first region's next medium).
    case next
    /// The item before (while a layout plays: the first region's medium before).
    case previous
    /// While a layout plays: region `name` (nil: the first region) moves to its next medium, or back to the one
    /// before, on a clock of its own; the other regions go on as they were. Without a layout the slideshow is the
    /// one-region layout: region `main` (or nil) steps as `next` and `previous` do.
    case region(String?, RegionStep)
    /// A given item, with the transition.
    case goTo(ItemRef)
    /// Adds a pause reason.
    case pause(PauseReason)
    /// Removes a pause reason.
    case resume(PauseReason)
    /// Adds the reason when absent, removes it when present.
    case togglePause(PauseReason)
    /// The current item's slot starts over (any user interaction does this).
    case restartTimer
    /// Sound volume and mute.
    case volume(VolumeChange)
    /// Seek within the current clip: to `seconds` (or by, when `relative`).
    case seek(Double, relative: Bool)
    /// Adds items.
    case load([PlaylistItem], LoadMode)
    /// Removes an item (the current one moves on at once, with the transition).
    case remove(ItemRef)
    /// Removes every item named, in one edit (a cost in proportion to the playlist, not to the count; refs that
    /// name nothing are skipped, and each `.path` names the first entry with it not already named).
    case removeMany([ItemRef])
    /// Moves an item to a position.
    case move(ItemRef, to: Int)
    /// Changes the current item's view.
    case view(ViewChange)
    /// Sets (or clears) the picture effect.
    case effect(EffectSpec?)
    /// Turns the picture effect off, or back on: the last one set (the plain `mosaic` when none was).
    case toggleEffect
    /// Moves the split of the effect on screen (the mosaic's) to this fraction of the canvas width, clamped to
    /// 0...1; a sweep (`split=A..B`) stops there. Fails when the effect has no split.
    case effectSplit(Double)
    /// Changes an overlay.
    case overlay(OverlayChange)
    /// Shows `text` as an on-screen message for `seconds`, when the OSD level is at least `level` (mpv's
    /// `show-text`).
    case showText(String, seconds: Double, level: Int)
    /// Shows the item's place and its slot's time as an on-screen message (mpv's `show-progress`).
    case showProgress
    /// Empties the playlist; with `keepCurrent` the item on screen stays (mpv's `playlist-clear`), without it
    /// the screen goes idle (mpv's `stop`).
    case clear(keepCurrent: Bool)
    /// Stops showing items and keeps the playlist (mpv's `playlist-play-index none`): the screen idles until a
    /// command asks for an item (next, previous, go to, a replacing load).
    case stopPlayback
    /// Plays in shuffled order from the next item on (the playlist's own order stays), or back in order.
    case shuffle(Bool)
    /// Whether the playlist starts over after its last item.
    case loop(Bool)
    /// Seconds a still stays on screen (the one on screen too, unless its playlist entry gives its own).
    case imageDuration(Double)
    /// The transition between items, and its seconds (nil: unchanged).
    case transition(TransitionSpec, seconds: Double?)
    /// Writes the next frame, as presented (overlays and rotation included), to a PNG at this path; answered
    /// once written.
    case screenshot(path: String)
    /// Turns the display on or off (a schedule's `off`). While off nothing is decoded or drawn (a recording
    /// gets black frames) and the player sleeps until a command or a producer's deadline.
    case screen(on: Bool)
    /// A key pressed and released (a remote's keypress): handled as the keyboard's key with this evdev code.
    case key(code: Int)
    /// Opens, closes or drives the overview grid.
    case grid(GridCommand)
    /// A trigger for the layout playing: what its `notify()`, `accesskey()` and `activateEvent` begins wait on.
    case trigger(LayoutTrigger)
    /// Shows an emergency message over everything, or clears it.
    case alert(AlertRequest)
    /// The TV's power status changed, as HDMI-CEC reported it (for the status: IPC `cec-power`, MQTT, `ctl status`).
    case tvPower(TVPower)
    /// Checks the content's index URL now (a remote's "check now"), not at the end of the check period; fails when
    /// kiosk plays no content from a server.
    case checkContent
    /// Plays the content at this http(s) URL (an index: a SMIL layout or an M3U playlist) from the content cache
    /// instead of what plays, once it and its media are cached (a remote's `load URL`); fails when kiosk has no
    /// content cache.
    case loadContent(url: String)
    /// Ends the run.
    case quit
}

/// The answer to a command.
public enum CommandReply: Sendable, Equatable {
    /// Done; with the ids the command created (`load`), if any.
    case done(ids: [ItemID] = [])
    /// Not done, with a one-line reason.
    case failed(String)

    /// Whether it was done.
    public var isDone: Bool { if case .done = self { return true } else { return false } }
}

/// What the player tells its observers (logs, and later the remote-control servers), on the player's thread.
public enum PlayerEvent: Sendable, Equatable {
    /// An item came on screen.
    case itemStarted(ItemID, path: String, sequence: Int)
    /// The display was turned on or off (a schedule's window, a remote's `screen`, an alert over the screen off).
    case screenPower(on: Bool)
    /// The TV reported another power status over HDMI-CEC (its remote, its own timer, or kiosk's `screen`).
    case tvPower(TVPower)
    /// An emergency alert took the screen (over whatever played), or left it (nil).
    case alert(EmergencyAlert?)
    /// A layout's region began showing another medium (or nothing): what the play log records per region.
    case regionShowing(RegionShowingChange)
    /// An item left the screen, and why.
    case itemEnded(ItemID, path: String, reason: EndReason)
    /// Items were added, removed or moved; the new count.
    case playlistChanged(count: Int)
    /// The set of pause reasons changed.
    case pauseChanged(Set<PauseReason>)
    /// Nothing to play: the player shows the background (or the idle image) until items arrive.
    case idle
    /// An item could not be shown (its file is missing, refused or broken) and is skipped; the reason is one line.
    case itemFailed(ItemID, path: String, reason: String)
    /// The item on screen jumped to another time (a seek).
    case seeked(ItemID)
    /// The run is ending (a quit, a signal, the end of the playlist).
    case shutdown
    /// A trigger reached the layout and began something (`notify(fire)`, `accesskey(1)`, `logo.activateEvent`).
    case triggered(String)
    /// An interrupt (a medium begun by a wallclock, syncbase or event begin, or inside an element that is) came
    /// on screen in `region`, or left it.
    case interrupt(started: Bool, region: String, src: String)
    /// A health alert was raised or cleared (`HealthMonitor`; posted by the first screen): not the emergency alert.
    case healthAlert(HealthAlertChange)
}

/// Why an item left the screen.
public enum EndReason: String, Sendable, Equatable {
    /// Its slot ran out (its duration, its loops, its length).
    case eof
    /// A command or key moved on.
    case skipped
    /// Its file broke while playing.
    case error
    /// It was removed from the playlist.
    case removed
    /// The run ended while it showed (a quit, a signal, the time limit).
    case quit
}

/// Something from outside that a layout's elements may begin on.
public enum LayoutTrigger: Sendable, Equatable {
    /// `notify(NAME)`: IPC `notify`, `kiosk ctl notify`, MQTT `cmd/notify`.
    case notify(String)
    /// `accesskey(c)`: a key's letter or digit (lowercase).
    case key(Character)
    /// A tap or click at this point, as fractions of the screen (0,0 top left): `id.activateEvent` of what shows
    /// there.
    case tap(x: Double, y: Double)
}

/// What a layout's region shows from now on, for the play log.
public struct RegionShowingChange: Sendable, Equatable {
    /// The SMIL file and the region.
    public var layout: String
    public var region: String
    /// The medium's file; for a brush or a `smilText`, the SMIL file and `#` and the element's id (or kind);
    /// nil while the region shows nothing.
    public var path: String?
    /// `image`, `video`, `audio`, `text`, `brush` (the SMIL element's kind; a `ref` as its file's).
    public var kind: String
    /// The SMIL element's id.
    public var element: String?
    /// Whether it interrupts (begun by a wallclock, syncbase or event begin): what it replaces ends `interrupted`.
    public var interrupt: Bool

    /// A change.
    public init(layout: String, region: String, path: String?, kind: String, element: String?, interrupt: Bool) {
        self.layout = layout; self.region = region; self.path = path; self.kind = kind; self.element = element
        self.interrupt = interrupt
    }
}
