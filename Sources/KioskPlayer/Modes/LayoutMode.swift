import Foundation
import KioskCore
import KioskMedia
import KioskRender

/// The turn while a SMIL layout plays (`kiosk play FILE.smil`, `kiosk record FILE.smil`): every region's
/// frame at the layout's clock, which starts at the mode's first turn and, with `--loop` (the default), starts
/// again when the body ends; with `--no-loop` play ends there. While every region shows a still the loop rests
/// until the timeline's next change.
final class LayoutMode: PlayerMode {
    let name = "layout"
    private unowned let owner: Screen
    /// The regions' frames.
    let screen: LayoutScreen
    /// The player time the layout's clock counts from (set by the first turn).
    private var start: Double?
    /// The region's medium being heard, if one is.
    private var heard: LayoutVoice?
    /// When the layout is a playlist item (`LayoutItem`): its slot's sequence, and how long it plays; then the
    /// slot ends and the playlist goes on.
    var endsSlot: (sequence: Int, length: Double)?
    /// When an alert stopped the layout's clock (player time), while one has.
    private var heldAt: Double?
    /// The layout this one replaced, while some of its regions still show their item (new content swapping in
    /// region by region).
    var handover: LayoutHandover?
    /// The regions that began after the layout (as the one going out let them go): each keeps its own clock.
    private var lateStarts: Set<String> = []

    /// An alert takes the screen at player time `t`: the layout's clock stops there.
    func covered(by rank: CoverRank, at t: Double) {
        if rank == .alert, heldAt == nil { heldAt = t }
    }

    /// The alert is over at player time `t`: the layout's clock goes on from where it stopped.
    func uncovered(by rank: CoverRank, at t: Double) {
        guard rank == .alert, let held = heldAt else { return }
        heldAt = nil
        if let s = start { start = s + (t - held) }
    }

    /// The interrupts on screen at the last turn, by region.
    private var interrupts: [String: SMILActive] = [:]
    /// What each region shows next (`src` by region), and the showings it was worked out for.
    private var upcoming: [String: String] = [:]
    private var upcomingFor: [String: Int]?
    /// What each region showed at the last turn (medium index and activation), for the play log.
    private var showings: [String: (media: Int, activation: Int)] = [:]
    /// When the layout's clock began on the wall clock (its wallclock begins are placed from it).
    private var wallStart = Date()
    /// Whether the line saying that nothing in the layout shows was written.
    private var saidNothingShows = false
    /// Whether a frame of the layout has reached the screen.
    private var shownOnce = false
    /// How long the screen may keep what it showed before while the layout's first media decode (then the
    /// regions still decoding show their backgrounds).
    static let firstFrameWait = 2.0

    init(owner: Screen, screen: LayoutScreen) {
        self.owner = owner
        self.screen = screen
    }

    /// `playlist-next REGION` and the like: region `name` (nil: the first) steps on its own clock, from the next
    /// turn; the reply says why it cannot.
    func step(region name: String?, _ step: RegionStep, at t: Double) -> CommandReply {
        guard let region = name ?? screen.file.document.regions.first?.name else { return .failed("the layout has no regions") }
        guard screen.file.document.regions.contains(where: { $0.name == region }) else {
            return .failed("no region \(region) in \(screen.file.document.file)")
        }
        do {
            try screen.clocks.step(region, step, at: layoutTime(t))
        } catch {
            return .failed("\(error)")
        }
        owner.log.info("layout: region \(region): \(step == .next ? "next" : "previous") medium")
        return .done()
    }

    /// A trigger from outside at player time `t`: a notify, a key or a tap begins the elements waiting on it from
    /// the next turn; the reply says when nothing waits on it.
    func fire(_ trigger: LayoutTrigger, at t: Double) -> CommandReply {
        let local = layoutTime(t)
        let triggers: [SMILFiredEvent.Trigger]
        switch trigger {
        case .notify(let name): triggers = [.notify(name)]
        case .key(let c): triggers = [.accessKey(c)]
        case .tap(let x, let y):
            let size = owner.config.size
            triggers = screen.activated(atX: x * Double(size.width), y: y * Double(size.height), at: local).map { .activate($0) }
        }
        let heard = triggers.filter { t in
            screen.listens.contains { l in
                switch (l, t) {
                case (.notify(let a), .notify(let b)): return a == b
                case (.accessKey(let a), .accessKey(let b)): return a == b
                case (.activate(let a), .activate(let b)): return a == b
                default: return false
                }
            }
        }
        guard !heard.isEmpty else { return .failed("nothing in \(screen.file.document.file) begins on \(Self.describe(trigger))") }
        screen.fire(heard, at: local)
        owner.publish([.triggered(Self.describe(trigger))])
        owner.log.info("layout: \(Self.describe(trigger)) at \(String(format: "%.2f", local)) s" + (heard.count == 1 ? "" : " (\(heard.count) begins)"))
        return .done()
    }

    /// A trigger as the logs and replies say it.
    static func describe(_ trigger: LayoutTrigger) -> String {
        switch trigger {
        case .notify(let name): return "notify(\(name))"
        case .key(let c): return "accesskey(\(c))"
        case .tap(let x, let y): return String(format: "a tap at %.3f,%.3f", x, y)
        }
    }

    /// The slideshow's clip, sound and pictures go (the layout owns the screen), and the sound of the region
    /// heard starts again (the screen off or the grid stopped it).
    func takesScreen() {
        owner.leaveClip()
        heard = handover?.voice(at: owner.clock.now)  // a held region's sound plays on
        if heard == nil {
            owner.sound.stop()
            owner.voiceSpans.close(at: owner.clock.now)
        }
        // a layout item keeps its slot's entry (its caption and metadata, for the screen's overlays)
        owner.cache.evict(keeping: endsSlot != nil ? Set(owner.show.currentID.map { [$0] } ?? []) : [])
        owner.composer?.forget(keeping: [])
    }

    /// The layout goes out at player time `t` for new content that swaps in region by region; nil when it plays
    /// as a playlist item or has not started.
    func goingOut(at t: Double) -> LayoutHandover? {
        guard endsSlot == nil, let start else { return nil }
        return LayoutHandover(screen: screen, start: start, at: heldAt ?? t)
    }

    /// What each region shows at player time `t` (before the first turn: at the layout's start).
    func regions(at t: Double) -> [RegionStatus] {
        let file = screen.file
        let now = layoutTime(t)
        let shown = screen.clocks.byRegion(at: now)
        // what comes next, worked out again only when what shows changes
        let key = shown.mapValues(\.activation)
        if key != upcomingFor {
            upcomingFor = key
            upcoming = screen.clocks.upcoming(after: now)
        }
        return RegionStatus.all(file.document, shown: shown, next: upcoming) { file.paths[$0.index] }
    }

    /// The layout's time at player time `t` (before the first turn: its start).
    private func layoutTime(_ t: Double) -> Double { max(0, t - (start ?? t)) }

    func turn(at t: Double) throws -> ModeTurn {
        let p = owner
        var start = self.start ?? t
        let wall = p.services.wallClock
        if self.start == nil {
            wallStart = wall.at(start)
            screen.placeWallclocks(start: wallStart, zone: wall.zone)
        }
        if let item = endsSlot, t - start >= item.length {
            p.endLayout("the playlist goes on")  // the slideshow's turn from now on: its next item
            p.show.endCurrent(.eof)
            return .rest(.none)
        }
        let length = endsSlot == nil ? screen.timeline.duration : .infinity  // an item loops its body until its length
        if let why = screen.timeline.extent.nothingShows, !saidNothingShows {
            saidNothingShows = true  // one line; the loop below then rests until a command, a trigger or the overlays
            p.log.warn("layout: \(screen.file.document.file) lasts 0 s: \(why); " + (endsSlot == nil && !p.config.slideshow.loop
                ? "nothing to play once (--no-loop)" : "showing the regions' backgrounds"))
            if endsSlot == nil, !p.config.slideshow.loop, screen.file.document.outsideTriggers.isEmpty {
                p.postStatus(scene: nil)
                return .end
            }
        }
        let loops = length.isFinite && length > 0  // a body of 0 s has no loop to go round (it would go round at once)
        if loops, t - start >= length {
            guard p.config.slideshow.loop else {
                p.postStatus(scene: nil)
                return .end
            }
            start += ((t - start) / length).rounded(.down) * length
            screen.clocks.reset(keeping: lateStarts)  // every region starts again with the layout, but late ones
            screen.startsAgain()
            wallStart = wall.at(start)
            screen.placeWallclocks(start: wallStart, zone: wall.zone)
            p.log.info("layout: \(screen.file.document.file) starts again")
        }
        self.start = start
        let local = t - start
        screen.placeWallclocks(start: wallStart, zone: wall.zone, at: local)  // repeats listed further ahead
        if p.fetched.pending.isWaiting, handover == nil, endsSlot == nil, p.fetched.pending.waitsWithLayout {
            noteShowings(screen.clocks.byRegion(at: local))  // what each region holds from now is in the play log
            if p.swapsContent(at: t, byRegion: true) {
                return .rest(.none)  // a new layout, taken region by region at each one's item end (`LayoutHandover`)
            }
        }
        let hidden = handOver(at: t, local: local)
        let shown = screen.clocks.byRegion(at: local).filter { !hidden.contains($0.key) }  // once a turn, for both
        if handover == nil, let first = screen.file.document.regions.first?.name, let was = showings[first], p.fetched.pending.isWaiting,
           shown[first].map({ ($0.media.index, $0.activation) }) ?? (-1, -1) != (was.media, was.activation),
           p.swapsContent(at: t) {
            return .rest(.none)  // a new playlist, at the end of the first region's item
        }
        hear(handover?.voice(at: t) ?? screen.voice(at: local) { !hidden.contains($0) }, at: t)
        noteInterrupts(shown)
        noteShowings(shown)
        var (pictures, key) = try screen.frame(at: local, hiding: hidden)
        let going = try handover?.frame(at: t)
        if let going { pictures = LayoutHandover.frame(going.frame, over: pictures) }
        p.postStatus(scene: nil)
        if !screen.isComplete && local < Self.firstFrameWait && !shownOnce && handover == nil {
            return .rest(.until(t + 0.01))  // what was on screen stays until the layout's first media are in
        }
        var rest: Rest = .nextFrame
        let goingNext: Double? = handover.map { $0.nextChange(after: t) } ?? .infinity
        if let next = screen.nextChange(after: local), let goingNext {
            let deadline = min(start + next, goingNext, loops ? start + length : .infinity, endsSlot.map { start + $0.length } ?? .infinity)
            rest = .until(min(p.wakeTime(deadline), p.overlayDeadline(after: t) ?? .infinity))
        }
        if let untimed = p.untimedClock {
            rest = .then(.none, { untimed.advance(by: 1.0 / 30) })
        }
        var frame = ModeFrame(pictures: pictures, key: FrameKey(HandoverFrameKey(coming: key, going: going?.key)), shown: p.presenter?.output.needsEveryFrame == true ? .none : rest,
                              unchanged: rest)
        frame.onShown = { [weak self] in self?.shownOnce = true }
        return .frame(frame)
    }
}

extension LayoutMode {
    /// The regions the layout going out still holds (not drawn here), once those whose item ended by player time
    /// `t` (layout time `local`) are let go: their showings end, and this layout's region of each name begins then.
    private func handOver(at t: Double, local: Double) -> Set<String> {
        guard let going = handover else { return [] }
        let mine = Set(screen.file.document.regions.map(\.name))
        let released = going.release(at: t)
        for region in released {
            if mine.contains(region) {
                screen.clocks.begin(region, at: local)
                lateStarts.insert(region)
            }
            owner.log.info("layout: region \(region) takes the new content")
        }
        owner.publish(going.closing(released))
        if going.isDone {
            handover = nil
            owner.log.info("content: swapped in at the end of the item on screen in every region")
        }
        return Set(going.held.keys).intersection(mine)
    }

    /// Publishes the interrupts that came on screen or left it since the last turn (IPC `kiosk-interrupt-start`
    /// and `-end`, MQTT `interrupt-started` and `-ended`, a log line each).
    private func noteInterrupts(_ shown: [String: SMILActive]) {
        var now: [String: SMILActive] = [:]
        for (region, a) in shown where screen.interrupting.contains(a.media.index) && !a.frozen {
            now[region] = a
        }
        var events: [PlayerEvent] = []
        for (region, a) in interrupts where now[region]?.activation != a.activation || now[region]?.media.index != a.media.index {
            events.append(.interrupt(started: false, region: region, src: a.media.src))
        }
        for (region, a) in now.sorted(by: { $0.key < $1.key })
            where interrupts[region]?.activation != a.activation || interrupts[region]?.media.index != a.media.index {
            events.append(.interrupt(started: true, region: region, src: a.media.src))
        }
        interrupts = now
        if !events.isEmpty { owner.publish(events) }
    }

    /// Plays `voice`'s sound from player time `t` when it is another showing than the one heard (a region that
    /// starts a clip, a repeat); stops the sound when no region is heard. Where it was heard is noted for
    /// `record`'s mix (which plays nothing itself).
    private func hear(_ voice: LayoutVoice?, at t: Double) {
        guard voice?.path != heard?.path || voice?.activation != heard?.activation || voice?.region != heard?.region else { return }
        heard = voice
        owner.voiceSpans.close(at: t)
        guard let voice else {
            owner.sound.stop()
            return
        }
        owner.log.info("layout: sound from region \(voice.region): \(voice.path)"
                        + (voice.level != 1 ? String(format: " at soundLevel %.0f%%", voice.level * 100) : ""))
        owner.voiceSpans.open(SoundSpan(path: voice.path, start: t, mediaStart: voice.offset, length: -1, level: voice.level))
        if owner.services.playsSound, owner.hearsSound {
            owner.sound.start(path: voice.path, sequence: -1 - voice.activation, at: voice.offset, level: voice.level)
        }
    }

    /// Publishes each region's change of medium since the last turn (`.regionShowing`), for the play log.
    private func noteShowings(_ shown: [String: SMILActive]) {
        let file = screen.file
        var events: [PlayerEvent] = []
        for region in file.document.regions {
            let a = shown[region.name]
            let key = a.map { ($0.media.index, $0.activation) }
            if key?.0 == showings[region.name]?.media && key?.1 == showings[region.name]?.activation { continue }
            showings[region.name] = key.map { (media: $0.0, activation: $0.1) }
            let path = a.flatMap { file.paths[$0.media.index] }
                ?? a.map { file.document.file + "#" + ($0.media.id ?? $0.media.kind.rawValue) }
            let kind = a.map { $0.media.kind == .image ? "image" : $0.media.kind == .ref ? "video" : $0.media.kind.rawValue } ?? ""
            events.append(.regionShowing(RegionShowingChange(layout: file.document.file, region: region.name, path: path, kind: kind,
                                                             element: a?.media.id,
                                                             interrupt: a.map { screen.interrupting.contains($0.media.index) } ?? false)))
        }
        if !events.isEmpty { owner.publish(events) }
    }
}

extension Screen {
    /// Plays the layout `file` instead of the playlist, from the next turn: its regions drawn with this
    /// player's output (attached first), its stills lasting `--duration`. Its warnings and unplayable media
    /// are said once each.
    func play(layout file: SMILFile) throws {
        guard let presenter else { throw PlayerError("the player has no output") }
        for w in file.document.warnings { log.warn(w) }
        for problem in file.problems { log.warn(problem) }
        let now = clock.now
        let screen = LayoutScreen(file: file, config: config, context: presenter.output.context, waitsForDecodes: services.waitForDecodes,
                                  anchor: SMILTimeline.WallAnchor(start: services.wallClock.at(now), zone: services.wallClock.zone), log: log)
        screen.loops = config.slideshow.loop
        screen.captions = overlayPainter.map { RegionCaptions(painter: $0, size: config.overlays.captionSize) }
        layoutMode = LayoutMode(owner: self, screen: screen)
        log.info("layout: \(file.document.file): \(file.document.regions.count) regions, \(Self.lengthText(screen.timeline.duration))")
    }

    /// A command for the layout, run before the slideshow's (PlayerCommands.swift); nil: the slideshow runs it.
    /// - A region's step; with no layout, region `main`'s is the playlist's (the slideshow's one region).
    ///   `.next` and `.previous` mean the first region's while a layout plays in place of the
    ///   playlist; while one plays as a playlist item they end it, and the slideshow moves on from it.
    /// - A `.load` (`layoutLoad`) that starts or ends a layout.
    func layoutCommand(_ command: PlayerCommand, at t: Double) -> CommandReply? {
        switch command {
        case .trigger(let trigger):
            guard let layout = layoutMode else { return .failed("no layout is playing: \(LayoutMode.describe(trigger)) begins nothing") }
            return layout.fire(trigger, at: t)
        case .region(let name, let step):
            guard let layout = layoutMode else {
                // the slideshow is the one-region layout: its region `main` steps as the playlist does
                guard name == nil || name == SlideshowLayout.regionName else {
                    return .failed("no region \(name ?? "") in the slideshow (its one region is \(SlideshowLayout.regionName))")
                }
                return execute(step == .next ? .next : .previous, at: t)
            }
            return layout.step(region: name, step, at: t)
        case .next, .previous:
            guard let layout = layoutMode else { return nil }
            guard layout.endsSlot == nil else {
                endLayout(command == .next ? "the next item" : "the item before")
                return nil
            }
            return layout.step(region: nil, command == .next ? .next : .previous, at: t)
        default:
            return layoutLoad(command)
        }
    }

    /// One SMIL file replacing the playlist (a remote's `loadfile x.smil`, MQTT's `load`, a schedule's window)
    /// plays from the next turn, its media confined to `--media-root` when one is set; any other replacing load
    /// ends the layout and the playlist plays again. A failure is the reply; nil lets the slideshow run the load.
    private func layoutLoad(_ command: PlayerCommand) -> CommandReply? {
        guard case .load(let items, let mode) = command, mode == .replace || mode == .reload else { return nil }
        guard items.count == 1, let path = items.first?.path, SMILFile.isSMIL(path) else {
            endLayout("the playlist plays again")
            return nil
        }
        do {
            switch services.intake.layoutLoads.take(path) {  // read off the loop (`readsLayoutFirst`), else here (a caller on the loop)
            case .ready(let file)?: try play(layout: file)
            case .failed(let why)?: throw PlayerError(why)
            case nil: try play(layout: try SMILFile.load(path, limits: config.limits, confined: true, content: FetchedIndexes.map(for: path)))
            }
        } catch {
            log.warn("\(error)")
            return .failed("\(error)")
        }
        return nil  // the slideshow lists the file, so the reply carries its entry
    }

    /// The layout playing, if one is, gives the screen back to the playlist: its sound stops, and its textures go
    /// with it.
    func endLayout(_ why: String) {
        guard let layout = layoutMode else { return }
        log.info("layout: \(layout.screen.file.document.file) ends: \(why)")
        layoutMode = nil
        sound.stop()
        voiceSpans.close(at: clock.now)
    }

    private static func lengthText(_ length: Double) -> String {
        length.isFinite ? "\(String(format: "%.2f", length)) s a pass" : "no end"
    }
}
