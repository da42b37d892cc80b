/// Which part of the player runs a command, with what that part needs of it: every `PlayerCommand` case has
/// exactly one, given by `PlayerCommand.route`'s switch (no `default`), so a new command does not compile until
/// it is given an owner, and the player never answers "not a command it runs" (mpv's `mp_cmds[]` discipline: one
/// table names each command's handler).
public enum CommandRoute: Sendable, Equatable {
    /// The slideshow's items, their order, pause and timing (`Slideshow.apply`); a layout playing in place of the
    /// playlist takes `next`, `previous` and a SMIL file's load first.
    case playlist(PlayerCommand)
    /// The layout playing: a region's step or a trigger.
    case layout(PlayerCommand)
    /// The loudspeaker's volume and mute.
    case sound(VolumeChange)
    /// The item on screen moves in time (its slot and a clip's decoder and sound).
    case seek(Double, relative: Bool)
    /// The item on screen's view: zoom, pan, projection.
    case view(ViewChange)
    /// The picture effect and its split.
    case effect(EffectRequest)
    /// Text and bars over the picture.
    case overlays(OverlayRequest)
    /// A key as the keyboard's key map would take it.
    case key(code: Int)
    /// The overview grid.
    case grid(GridCommand)
    /// The emergency message over everything.
    case alert(AlertRequest)
    /// The display: its power, the TV's power as HDMI-CEC reports it, a screenshot of the next frame.
    case display(DisplayRequest)
    /// The content fetcher (`kiosk play URL`).
    case content(ContentRequest)
    /// The run ends.
    case quit
}

/// A picture effect command.
public enum EffectRequest: Sendable, Equatable {
    /// Sets the effect (nil: none).
    case set(EffectSpec?)
    /// Turns the configured effect on or off.
    case toggle
    /// Where the before/after split is (0...1 of the width).
    case split(Double)
}

/// An overlay command.
public enum OverlayRequest: Sendable, Equatable {
    /// The info overlay shown, hidden or toggled.
    case change(OverlayChange)
    /// A message for some seconds at a level.
    case text(String, seconds: Double, level: Int)
    /// The progress bar, for a while.
    case progress
}

/// A display command.
public enum DisplayRequest: Sendable, Equatable {
    /// The display on or off.
    case power(on: Bool)
    /// The TV's power status, as HDMI-CEC reported it.
    case tv(TVPower)
    /// The next frame, as presented, to a PNG at this path.
    case screenshot(path: String)
}

/// A content fetcher command.
public enum ContentRequest: Sendable, Equatable {
    /// Checks the index URL now.
    case check
    /// Plays the content at this URL once it is cached.
    case load(url: String)
}

extension PlayerCommand {
    /// The part that runs this command, and what it needs of it.
    public var route: CommandRoute {
        switch self {
        case .next, .previous, .goTo, .pause, .resume, .togglePause, .restartTimer, .load, .remove, .removeMany, .move, .clear,
             .stopPlayback, .shuffle, .loop, .imageDuration, .transition:
            return .playlist(self)
        case .region, .trigger: return .layout(self)
        case .volume(let change): return .sound(change)
        case .seek(let seconds, let relative): return .seek(seconds, relative: relative)
        case .view(let change): return .view(change)
        case .effect(let spec): return .effect(.set(spec))
        case .toggleEffect: return .effect(.toggle)
        case .effectSplit(let x): return .effect(.split(x))
        case .overlay(let change): return .overlays(.change(change))
        case .showText(let text, let seconds, let level): return .overlays(.text(text, seconds: seconds, level: level))
        case .showProgress: return .overlays(.progress)
        case .key(let code): return .key(code: code)
        case .grid(let command): return .grid(command)
        case .alert(let request): return .alert(request)
        case .screen(let on): return .display(.power(on: on))
        case .tvPower(let power): return .display(.tv(power))
        case .screenshot(let path): return .display(.screenshot(path: path))
        case .checkContent: return .content(.check)
        case .loadContent(let url): return .content(.load(url: url))
        case .quit: return .quit
        }
    }
}
