import KioskCore
import KioskOutput
import KioskRender

/// The player's side of the commands: each is run on the player's thread at the top of a frame, by the part
/// that owns what it changes (the slideshow: items and pause; the sound; the current item's view; the picture
/// effect and its split), and answered in order.
extension Player {
    /// Runs every queued command at time `t` on the screen it names (none: the first; an alert naming none: every
    /// screen) and answers each, then tells observers what changed.
    func runCommands(at t: Double) {
        for envelope in services.inbox.drain() {
            guard let screen = envelope.screen.map({ name in screens.first { $0.name == name } }) ?? self.screen else {
                envelope.reply?(.failed("no screen \(envelope.screen ?? "") (screens: \(screenNames.joined(separator: ", ")))"))
                continue
            }
            if envelope.screen == nil, case .alert = envelope.command, screens.count > 1 {
                for other in screens.dropFirst() { _ = run(envelope.command, on: other, at: t) }  // an alert is for every screen
            }
            run(envelope, on: screen, at: t)
        }
        for screen in screens { screen.publish(screen.show.takeEvents()) }
    }

    /// Runs one command on `screen` now, without a reply (an alert's copy for the other screens).
    private func run(_ command: PlayerCommand, on screen: Screen, at t: Double) -> CommandReply {
        try? screen.presenter?.output.context.makeCurrentIfNeeded()
        return screen.execute(command, at: t)
    }

    /// Runs one envelope's command on `screen` and queues its answer for after the status it changed is posted.
    private func run(_ envelope: CommandInbox.Envelope, on screen: Screen, at t: Double) {
        try? screen.presenter?.output.context.makeCurrentIfNeeded()  // a command may draw (the grid) or free textures
        if case .screenshot(let path) = envelope.command {
            if let presenter = screen.presenter {
                presenter.screenshot(to: path, reply: envelope.reply)  // the next frame's
            } else {
                envelope.reply?(.failed("screenshot: the player has no output"))
            }
            return
        }
        if case .load(let items, let mode) = envelope.command, mode == .replace || mode == .reload {
            screen.fetched.control.noteReplacingLoad(items)  // local media from a remote: that screen's fetcher stops
        }
        if screen.readsLayoutFirst(envelope.command, reply: envelope.reply, screen: envelope.screen) { return }  // read off the loop
        let reply = screen.execute(envelope.command, at: t)
        if case .failed(let why) = reply { screen.log.info("command \(Self.name(envelope.command)): \(why)") }
        if let r = envelope.reply { screen.events.answer(r, with: reply) }
    }

    /// Runs one command now, on the screen it is for.
    func execute(_ command: PlayerCommand, at t: Double) -> CommandReply { screen.execute(command, at: t) }

    /// A command's name for log lines.
    static func name(_ c: PlayerCommand) -> String {
        String(describing: c).prefix { $0 != "(" }.description
    }
}

extension Screen {
    /// Runs one command now, by the part `command.route` names (the one switch that gives every command its
    /// owner): the screen's own parts (its content fetcher's commands too), or the player's (`quit`).
    func execute(_ command: PlayerCommand, at t: Double) -> CommandReply {
        switch command.route {
        case .playlist(let command):
            return playlistCommand(command, at: t)
        case .layout(let command):
            return layoutCommand(command, at: t) ?? .failed("no layout is playing")
        case .sound(let change):
            sound.apply(change)
            overlays.noteVolume(change, volume: sound.level.volume, muted: sound.level.muted, at: t)
            return .done()
        case .seek(let seconds, let relative):
            return seek(seconds, relative: relative, at: t)
        case .view(let change):
            return viewControl.apply(change, at: t)
        case .effect(let request):
            return effectCommand(request, at: t)
        case .overlays(let request):
            switch request {
            case .change(let change): overlays.apply(change, at: t)
            case .text(let text, let seconds, let level): overlays.showText(text, seconds: seconds, level: level, at: t)
            case .progress: overlays.showProgress(at: t)
            }
            return .done()
        case .key(let code):
            return press(code, at: t)
        case .grid(let command):
            return runGrid(command, at: t)
        case .alert(let request):
            return runAlert(request, at: t)
        case .display(let request):
            return displayCommand(request)
        case .content(.check):
            return fetched.control.check(log: log)
        case .content(.load(let url)):
            return fetched.control.load(url, log: log)
        case .quit:
            services.run.quitRequested = true
            return .done()
        }
    }

    /// The playlist's commands: a layout playing in place of the playlist takes `next`, `previous` and a SMIL
    /// file's load first; then the slideshow runs it.
    private func playlistCommand(_ command: PlayerCommand, at t: Double) -> CommandReply {
        if case .transition(let spec, _) = command {
            do { _ = try TransitionChooser(spec, seed: config.slideshow.seed) } catch { return .failed("\(error)") }
        }
        if let reply = layoutCommand(command, at: t) { return reply }
        guard let reply = show.apply(command, at: t) else { return .failed("the slideshow does not run \(Player.name(command))") }
        if case .transition(let spec, _) = command, reply.isDone { composer?.transition = spec }
        return reply
    }

    /// The picture effect's commands: what a remote sets stays after the item.
    private func effectCommand(_ request: EffectRequest, at t: Double) -> CommandReply {
        switch request {
        case .set(let spec):
            do { try effects.set(spec, at: t) } catch { return .failed("\(error)") }
        case .toggle:
            effects.toggle(at: t)
            log.info("effect: \(effects.spec?.description ?? "none")")
        case .split(let x):
            return effects.setSplit(x, at: t)
        }
        itemEffect = nil
        return .done()
    }

    /// The display's commands. A screenshot is answered once written (`runCommands` hands the presenter the
    /// remote's reply); one run here (a key's action) is written with the next frame.
    private func displayCommand(_ request: DisplayRequest) -> CommandReply {
        switch request {
        case .power(let on):
            return setScreen(on: on)
        case .tv(let power):
            if tvPower != power {
                log.info("cec: the TV is \(power.rawValue)")
                tvPower = power
                publish([.tvPower(power)])
            }
            return .done()
        case .screenshot(let path):
            guard let presenter else { return .failed("screenshot: the player has no output") }
            presenter.screenshot(to: path, reply: nil)
            return .done()
        }
    }

    /// Seeks within the item on screen: its slot's time moves (so its end moves too), a clip's decoder jumps
    /// there and its sound starts again from there.
    private func seek(_ seconds: Double, relative: Bool, at t: Double) -> CommandReply {
        guard seconds.isFinite else { return .failed("seek needs a number of seconds") }
        guard let slot = show.currentSlot else { return .failed("nothing is showing") }
        guard let now = show.seek(to: relative ? show.currentTime(at: t) + seconds : seconds, at: t) else {
            return .failed("nothing is showing")
        }
        if let p = playing {
            let media = p.clip.startTime + now
            p.clip.seek(to: media)
            p.position = media
            if sound.isPlaying(slot.sequence) { sound.start(path: p.path, sequence: slot.sequence, at: media) }
        }
        publish([.seeked(slot.id)])
        return .done()
    }

    /// A remote's key press: what the keyboard's key does (its action in the key map) happens now.
    private func press(_ code: Int, at t: Double) -> CommandReply {
        var requests = viewControl.handle(.key(code: code, pressed: true, time: t))
        requests += viewControl.handle(.key(code: code, pressed: false, time: t))
        for r in requests {
            switch r {
            case .command(let c): _ = execute(c, at: t)
            case .note(let text): log.info("keypress: \(text)")
            case .switchVT: log.info("keypress: a console switch is for the keyboard only")
            }
        }
        return .done()
    }
}

/// The log's observer: one line for each item shown and ended, pause changes and idling.
enum PlayerLog {
    static func write(_ event: PlayerEvent, at t: Double, log: Log) {
        let time = String(format: "%.3f", t)
        switch event {
        case .itemStarted(let id, let path, _):
            log.info("showing \(path) at \(time) s (item \(id))")
        case .itemEnded(let id, let path, let reason):
            log.debug("ended \(path) (item \(id)): \(reason.rawValue)")
        case .playlistChanged(let count):
            log.info("playlist: \(count) item\(count == 1 ? "" : "s")")
        case .pauseChanged(let reasons):
            log.info(reasons.isEmpty ? "playing" : "paused (\(reasons.sorted().map(\.rawValue).joined(separator: ", ")))")
        case .idle:
            log.info("idle: nothing to play; waiting for items")
        case .interrupt(let started, let region, let src):
            log.info("layout: interrupt \(started ? "begins" : "ends") in region \(region): \(src) at \(time) s")
        case .itemFailed, .seeked, .shutdown, .triggered, .screenPower, .regionShowing, .tvPower, .alert, .healthAlert:
            break  // the decoder logged the failure; seeks, triggers, the screen, health alerts and the end are logged where they happen
        }
    }
}

/// The slots a run showed and where their sound played.
struct SoundSpans {
    /// The sequence of the slot on screen (none yet: a wall-clock slot before the epoch may be -1).
    var sequence = Int.min
    /// Slots shown so far.
    var slots = 0
    private var spans: [SoundSpan] = []

    /// A span starts (its length is set when the next slot starts or the run ends).
    mutating func open(_ span: SoundSpan) { spans.append(span) }

    /// The open span ends at `t`.
    mutating func close(at t: Double) {
        if let last = spans.last, last.length < 0 { spans[spans.count - 1].length = t - last.start }
    }

    /// Every span, the open one ended at `t`.
    func closed(at t: Double) -> [SoundSpan] {
        var copy = self
        copy.close(at: t)
        return copy.spans
    }
}
